"""What the tutorial page is told: the learner's view, the cards that fit, and words in the active language."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.words.cards import card_face

from .lesson import Position
from .script import SEAT_NAMES, Step
from .scripts import GAMES, words

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_short(code: str) -> str:
    """ "K♥", "10♣": the same in every language."""
    return ("10" if code[0] == "T" else code[0]) + SUIT_SYMBOLS.get(code[1], "")


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


def answer(position: Position, number: int, accepted: bool = True, explanation: str | None = None,
           rule: str | None = None) -> dict:
    step = position.step
    turn = position.turn
    names = seat_names(step)
    fits = position.fits()
    data = {
        "accepted": accepted,
        "explanation": explanation,
        "rule": rule,
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


def wrong_words(position: Position) -> str:
    turn = position.turn
    if turn is not None and turn.wrong:
        return words(turn.wrong)
    return _("That is not the move this step is about. Try one of the highlighted cards or buttons.")


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
