"""The analysis of a finished match in words: why the Master's move was better, and what the one made cost.

The judge (games/engine/bots/analysis.py) gives each costly decision a reason
as a code and its parameters; this is the only place they become sentences.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .cards import card_short, suit_name


def _cards(params: dict) -> dict:
    return {"card": card_short(params["card"]), "chosen": card_short(params["chosen"])}


def _americana_could_play(params: dict, chosen: dict) -> str:
    if chosen.get("type") == "pass":
        return _("Playing %(card)s was better than passing.") % {"card": card_short(params["card"])}
    return _("Playing %(card)s was better than drawing.") % {"card": card_short(params["card"])}


def _americana_better_to_draw(params: dict, best: dict) -> str:
    if best.get("type") == "pass":
        return _("Passing was better than playing %(card)s.") % {"card": card_short(params["card"])}
    return _("Drawing was better than playing %(card)s.") % {"card": card_short(params["card"])}


# Each reason code's sentence, from its parameters and the two moves (the one made, the Master's).
REASONS: dict[str, Callable[[dict, dict, dict], str]] = {
    "continue_trick": lambda params, chosen, best: _(
        "Going on with %(card)s was worth more than ending the trick here.") % {"card": card_short(params["card"])},
    "end_trick": lambda params, chosen, best: _(
        "Ending the trick here was worth more than going on with %(card)s.") % {"card": card_short(params["card"])},
    "cut_trick": lambda params, chosen, best: _(
        "Cutting with %(card)s was worth more than passing.") % {"card": card_short(params["card"])},
    "pass_trick": lambda params, chosen, best: _(
        "Passing was worth more than playing %(card)s.") % {"card": card_short(params["card"])},
    "keep_cutter": lambda params, chosen, best: _(
        "%(chosen)s spent a card that cuts; %(card)s would have kept it for a richer trick.") % _cards(params),
    "use_cutter": lambda params, chosen, best: _(
        "Cutting with %(card)s was worth more than %(chosen)s.") % _cards(params),
    "keep_points": lambda params, chosen, best: _(
        "%(chosen)s put points within the others' reach; %(card)s would have kept them safe.") % _cards(params),
    "other_card": lambda params, chosen, best: _(
        "%(card)s was worth more than %(chosen)s here.") % _cards(params),
    "americana_could_play": lambda params, chosen, best: _americana_could_play(params, chosen),
    "americana_better_to_draw": lambda params, chosen, best: _americana_better_to_draw(params, best),
    "americana_other_suit": lambda params, chosen, best: _(
        "Naming %(suit)s was better than naming %(chosen)s.") % {
        "suit": suit_name(params["suit"]), "chosen": suit_name(params["chosen_suit"])},
    "americana_other_card": lambda params, chosen, best: _(
        "%(card)s was better than %(chosen)s here.") % _cards(params),
}


def why(entry: dict) -> str:
    """Why the Master's move beats the one made, in the reader's language."""
    reason = entry.get("reason") or {}
    sentence = REASONS.get(reason.get("code", ""))
    if sentence is not None:
        try:
            return sentence(reason.get("params") or {}, entry["chosen"], entry["best"])
        except (KeyError, TypeError):  # a parameter the move did not have (a draw has no card)
            pass
    return _("The Master's move was worth more here.")


def points(amount: float, rules: str) -> str:
    """ "1.3 points", "6.0 penalty points": the unit of each rule set's outcome, to one decimal."""
    shown = formats.number_format(round(amount, 1), 1)
    if rules == "americana":
        return ngettext("%(n)s penalty point", "%(n)s penalty points", 2 if round(amount, 1) != 1 else 1) % {
            "n": shown}
    return ngettext("%(n)s point", "%(n)s points", 2 if round(amount, 1) != 1 else 1) % {"n": shown}


def cost(entry: dict, rules: str) -> str:
    """What the move made gave away, as an estimate."""
    if rules == "americana":
        return _("It cost about %(points)s more.") % {"points": points(entry["cost"], rules)}
    return _("It gave away about %(points)s.") % {"points": points(entry["cost"], rules)}


def given_away(amount: float, rules: str) -> str:
    """A player's total over the match."""
    if rules == "americana":
        return _("%(points)s more than the Master's moves") % {"points": points(amount, rules)}
    return _("%(points)s given away") % {"points": points(amount, rules)}


def costly_mark(entry: dict, rules: str) -> str:
    """What the move list says beside a costly move."""
    return _("costly: about %(points)s") % {"points": points(entry["cost"], rules)}


def threshold(rules: str, amount: float) -> str:
    return _("A move is marked costly when it gave away at least %(points)s, clearly more than the estimate's "
             "own margin of error.") % {"points": points(amount, rules)}
