"""What the tutorial page is told: the learner's view, the cards that fit, and words in the active language."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import IllegalMove
from games.engine.cards import is_card_code
from games.words.cards import SUIT_SYMBOLS, card_face, card_short, suit_name
from games.words.refusals import refusal_in_words

from .lesson import Position
from .script import SEAT_NAMES, Step, Text
from .scripts import GAMES, words

# A wrong move the step has no words of its own for: what the learner did, and why it is not this step's move.
OTHER_CARD = {
    "en": "The rules allow %(card)s here, but this step is about another card: play one of the highlighted cards.",
    "ro": "Regulile permit %(card)s aici, dar pasul acesta e despre altă carte: joacă una dintre cărțile "
          "evidențiate.",
}
OTHER_ACTION: dict[str, Text] = {
    "draw": {"en": "Drawing is for when nothing fits, and you hold a card that fits: play it instead.",
             "ro": "Tragi doar când nu se potrivește nimic, iar tu ai o carte care se potrivește: joac-o."},
    "pass": {"en": "Passing is not what this step is about: try one of the highlighted cards or buttons.",
             "ro": "Nu e momentul să spui pas: încearcă una dintre cărțile sau butoanele evidențiate."},
    "end": {"en": "Saying Gata is not what this step is about: try one of the highlighted cards or buttons.",
            "ro": "Nu e momentul să spui Gata: încearcă una dintre cărțile sau butoanele evidențiate."},
    "take": {"en": "Taking the trick is not what this step is about: try one of the highlighted cards or buttons.",
             "ro": "Nu e momentul să iei levata: încearcă una dintre cărțile sau butoanele evidențiate."},
}
OTHER_CARD_THAN = {
    "en": "The rules allow %(card)s here, but this step asks for %(asked)s.",
    "ro": "Regulile permit %(card)s aici, dar pasul acesta îți cere %(asked)s.",
}
# The rules refused a card with a reason that does not name it (the trick waits to be taken, say).
CARD_REFUSED = {"en": "%(card)s cannot be played now. %(reason)s", "ro": "%(card)s nu se poate juca acum. %(reason)s"}


def seat_names(step: Step) -> list[str]:
    names = []
    for seat in range(step.players):
        if seat == step.seat:
            names.append(_("You"))
        elif step.options.get("teams") and seat % (step.players // 2) == step.seat % (step.players // 2):
            names.append(_("%(name)s (partner)") % {"name": SEAT_NAMES[seat]})
        else:
            names.append(SEAT_NAMES[seat])
    return names


def news_line(event: dict, names: list[str]) -> str | None:
    """One opponent's move in a sentence; the learner's own moves need no telling."""
    kind, seat = event["type"], event["seat"]
    if kind == "deal_over":
        return _("The deal is over.")
    if seat is None or names[seat] == _("You"):
        return None
    name = SEAT_NAMES[seat]
    if kind == "play" and "suit" in event:
        return _("%(name)s played %(card)s and asked for %(suit)s") % {
            "name": name, "card": card_short(event["card"]), "suit": SUIT_SYMBOLS[event["suit"]]}
    if kind == "play":
        return _("%(name)s played %(card)s") % {"name": name, "card": card_short(event["card"])}
    if kind == "take":
        return ngettext("%(name)s took the trick (%(n)s point)", "%(name)s took the trick (%(n)s points)",
                        event["points"]) % {"name": name, "n": event["points"]}
    if kind == "end":
        return _("%(name)s said Gata: the trick goes to whoever cut last") % {"name": name}
    if kind == "draw":
        return ngettext("%(name)s drew %(n)s card", "%(name)s drew %(n)s cards", event["count"]) % {
            "name": name, "n": event["count"]}
    if event.get("skip"):
        return _("%(name)s sat the turn out") % {"name": name}
    return _("%(name)s passed") % {"name": name}


def default_hint(position: Position) -> str:
    fits = position.fits()
    kinds = {move["type"] for move in fits}
    if kinds == {"take"}:
        return _("The trick is yours: take it (Ia).")
    if kinds == {"end"}:
        return _("Say Gata to end the trick.")
    if kinds == {"draw"}:
        return _("Draw a card.")
    return _("Play one of the highlighted cards.")


def answer(position: Position, number: int, accepted: bool = True, explanation: str | None = None) -> dict:
    step = position.step
    turn = position.turn
    names = seat_names(step)
    fits = position.fits()
    data = {
        "accepted": accepted,
        "explanation": explanation,
        "rule": None,  # the rules' reason now is the explanation itself; the key stays for older pages
        "finished": position.done,
        "hint": words(turn.hint) if turn and turn.hint else (default_hint(position) if turn else ""),
        "learned": words(step.learned) if position.done else None,
        "view": position.view(),
        "names": names,
        "fits": fitting_cards(position),
        "fit_moves": sorted({move["type"] for move in fits if "card" not in move}),
        "news": [line for line in (news_line(event, names) for event in position.news) if line] if accepted else [],
    }
    data["step"] = {"game": step.rules, "number": number, "slug": step.slug, "of": len(GAMES[step.rules])}
    return data


def wrong_move_words(position: Position, move: dict, refusal: IllegalMove | None = None) -> str:
    """Why `move` is wrong here, naming the card tapped (or the button): the rules' reason when they
    refuse it, else the step's words for a move it does not teach."""
    turn = position.turn
    if refusal is not None:
        return refused_words(position, move, refusal)
    if "card" not in move:
        return words((turn and turn.wrong_action) or OTHER_ACTION.get(move["type"], OTHER_ACTION["pass"]))
    named = {"card": card_short(move["card"]), "suit": suit_name(move["suit"]) if move.get("suit") in SUIT_SYMBOLS else ""}
    if turn and turn.wrong:
        return words(turn.wrong) % named
    asked = fitting_cards(position)
    if len(asked) == 1 and asked[0] != move["card"]:
        return words(OTHER_CARD_THAN) % {**named, "asked": card_short(asked[0])}
    return words(OTHER_CARD) % named


def refused_words(position: Position, move: dict, refusal: IllegalMove) -> str:
    names = dict(enumerate(seat_names(position.step)))
    reason = refusal_in_words(refusal, names, reader=position.step.seat)
    if move.get("type") != "play" or not is_card_code(move.get("card")):
        return reason  # not a tap on a card: a request made up by hand
    if card_short(move["card"]) not in reason:
        reason = words(CARD_REFUSED) % {"card": card_short(move["card"]), "reason": reason}
    turn = position.turn
    return f"{reason} {words(turn.refused)}" if turn and turn.refused else reason


def step_links(game: str) -> list[dict]:
    return [
        {"number": number, "slug": step.slug, "title": words(step.title),
         "url": reverse("tutorial_step", args=[game, number])}
        for number, step in enumerate(GAMES[game], start=1)
    ]


def fitting_cards(position: Position) -> list[str]:
    """The learner's cards that this turn asks for, to highlight."""
    return sorted({move["card"] for move in position.fits() if "card" in move})


def hand_faces(position: Position) -> list[dict]:
    fits = set(fitting_cards(position))
    return [{**card_face(code), "fits": code in fits} for code in position.view()["hand"]]
