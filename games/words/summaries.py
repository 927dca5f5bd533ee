"""A table's settings and result in plain words, for the lobby and match lists.

Pages and the JSON API (through `presenters.table_summary`) use the same
words, so a list re-rendered by JavaScript reads exactly like the server's.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from .durations import LIVE_UP_TO, duration_in_words
from .rulesets import options_in_words, rules_name


def result_in_words(summary: dict) -> str:
    """The result as the viewer reads it (You won, Alice won, No winner) from a table summary."""
    result = summary.get("result")
    if not result:
        return ""
    winners = result.get("winners") or []
    if not winners:
        return _("No winner")
    if summary.get("your_seat") in winners:
        return _("You won")
    names = [_seat_name(summary, seat) for seat in winners]
    return _("%(names)s won") % {"names": _(" and ").join(names)}


def scores_in_words(summary: dict) -> str:
    result = summary.get("result")
    if not result:
        return ""
    return " · ".join(f"{_seat_name(summary, seat)} {score}" for seat, score in enumerate(result.get("scores") or []))


def _seat_name(summary: dict, number: int) -> str:
    seat = next((seat for seat in summary["seats"] if seat["seat"] == number), None)
    if seat is None or seat["name"] is None:
        return _("Seat %(n)d") % {"n": number + 1}
    return _("You") if seat["you"] else seat["name"]


def summary_words(summary: dict) -> dict:
    """The `words` key of a table summary."""
    return {
        "rules": rules_name(summary["rules"]),
        "options": options_in_words(summary["rules"], summary["players"], summary["options"]),
        "time": duration_in_words(summary["seconds_per_move"]),
        "live": summary["seconds_per_move"] <= LIVE_UP_TO,
        "result": result_in_words(summary),
        "scores": scores_in_words(summary),
        "rated": rated_in_words(summary),
    }


def rated_in_words(summary: dict) -> str:
    """ "Rated" (the match changes its people's ratings) or "Casual"; a least reliability to join follows."""
    words = _("Rated") if summary.get("rated") else _("Casual")
    if summary.get("min_reliability") is not None:
        words = _("%(kind)s · reliability %(percent)d%% or more to join") % {
            "kind": words, "percent": summary["min_reliability"]}
    return words
