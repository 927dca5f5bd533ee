"""The replay of a finished match: every position, all hands shown, and the
seed revealed so anyone can check it against the hash published at the start."""

from django.conf import settings
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from .. import actions, replay
from ..analysis_reads import analysis_json
from ..models import Actor, Table, TableStatus
from ..presenters import seat_names, table_json
from ..reads import visible_table
from ..words import analysis as analysis_words
from ..words.cards import rank_names, suit_name
from ..words.moves import describe_move, move_words
from ..words.rulesets import options_in_words, rules_name


def finished_table(request, table_id: int) -> Table:
    """The table if the caller may see it and its match is over; else 404."""
    try:
        table = visible_table(request, table_id)
    except actions.NotFound:
        raise Http404("There is no such table.") from None
    if table.status != TableStatus.FINISHED:
        raise Http404("This match is not over: its replay opens when it ends.")
    return table


def replay_data(table: Table, moves) -> dict:
    match = table.match
    return {
        "id": table.pk,
        "rules": table.rules,
        "players": table.players,
        "options": table.options,
        "seed": match.seed,
        "seed_sha256": match.seed_sha256,
        "result": match.result,
        "compact": True,
        "steps": replay.compact(replay.steps(table, match, moves)),
    }


def words() -> dict:
    """What the page's script says, translated here once."""
    return {
        "move_of": _("Move %(k)s of %(n)s"),
        "dealt": _("The cards as dealt"),
        "to_move": _("to move"),
        "points": _("points taken"),
        "score": _("score"),
        "stock": _("stock"),
        "trick": _("Trick"),
        "pile": _("Pile"),
        "suit": _("suit in force"),
        "removed": _("eights taken out"),
        "attack_draw": _("pointed at the player to move: draw %(count)s"),
        "attack_skip": _("pointed at the player to move: skip a turn"),
        "no_cards": _("no cards"),
        "check_ok": _("Match: SHA-256 of the seed is the hash published at the start."),
        "check_bad": _("Mismatch: this seed does not give the published hash."),
        "check_unavailable": _("Your browser cannot compute SHA-256 here (it needs HTTPS); use the command below."),
        "actors": {str(value): str(label) for value, label in Actor.choices},
        "cards": card_words(),
        "moves": move_words(),
        "events": {
            "take": _("takes the trick"),
            "trick": _("trick collected"),
            "draw": _("draws"),
            "deal": _("new deal"),
            "turn_up": _("turned up"),
            "bury": _("buried under the stock"),
            "reshuffle": _("the pile is reshuffled into the stock"),
            "deal_over": _("end of the deal"),
            "play": _("plays"),
            "end": _("Gata (ends the trick)"),
            "pass": _("passes"),
        },
    }


def card_words() -> dict:
    """What the page's script needs to name a card in words, as the table page does."""
    return {
        "rank_names": dict(zip("23456789TJQKAX", rank_names(), strict=True)),
        "suit_names": {suit: suit_name(suit) for suit in "CDHS"},
        "card_name": _("%(rank)s of %(suit)s"),
        "red_joker": _("red joker"),
        "black_joker": _("black joker"),
    }


def final_scores(result: dict | None, names: list[str], profile_urls: list[str | None] = ()) -> list[dict]:
    """Each seat's name, score and whether it won; a person's name links to their profile (`profile_urls`)."""
    if not result:
        return []
    urls = list(profile_urls) + [None] * len(names)
    return [
        {"name": name, "score": score, "winner": seat in result.get("winners", []), "profile_url": urls[seat]}
        for seat, (name, score) in enumerate(zip(names, result["scores"], strict=False))
    ]


def analysis_page(analysis: dict, names: list[str], said: dict) -> dict:
    """The analysis as the replay page shows it: the costliest moves spelled out, each seat's total."""
    rules = analysis["rules"]
    return {
        **analysis,
        "check_every_ms": int(settings.ANALYSIS_PAGE_CHECK_SECONDS * 1000),
        # A seat with no decision judged is a bot's (or a person's who never had a choice): no row.
        "totals": [total for total in analysis["totals"] or [] if total["decisions"]],
        "threshold": analysis_words.threshold(rules, analysis["costly_from"]),
        "biggest": [
            {**entry, "number": entry["seq"] + 1, "name": names[entry["seat"]],
             "chosen_text": describe_move(entry["chosen"], said), "best_text": describe_move(entry["best"], said)}
            for entry in analysis["biggest"]
        ],
    }


@require_safe
def replay_page(request, table_id: int):
    table = finished_table(request, table_id)
    moves = replay.logged_moves(table.match)
    data = table_json(table, request.user)
    names, said = seat_names(data), move_words()
    profile_urls = [seat.get("profile_url") for seat in data["seats"]]
    analysis = analysis_json(table, names, request.user)
    costly = {entry["seq"]: entry for entry in analysis["decisions"] if entry["costly"]}
    return render(
        request,
        "games/replay.html",
        {
            "table": table,
            "rules_name": rules_name(table.rules),
            "options_words": options_in_words(table.rules, table.players, table.options),
            "data": data,
            "names": names,
            "move_list": [
                {
                    "seq": move.seq,
                    "name": names[move.seat],
                    "text": describe_move(move.move, said),
                    "actor": move.actor,
                    "actor_label": move.get_actor_display(),
                    "costly": analysis_words.costly_mark(costly[move.seq], table.rules) if move.seq in costly else None,
                }
                for move in moves
            ],
            "analysis": analysis_page(analysis, names, said),
            "final": final_scores(data["result"], names, profile_urls),
            "replay": {**replay_data(table, moves), "names": names, "profile_urls": profile_urls, "words": words()},
            "invite": request.GET.get("invite") if table.private else None,
        },
    )


@require_safe
def replay_json(request, table_id: int):
    """The steps, each holding only what changed since the one before (see `replay.compact`)."""
    table = finished_table(request, table_id)
    return JsonResponse(replay_data(table, replay.logged_moves(table.match)))


urlpatterns = [
    path("tables/<int:table_id>/replay/", replay_page, name="replay"),
    path("tables/<int:table_id>/replay.json", replay_json, name="replay_json"),
]
