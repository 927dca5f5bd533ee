"""A table's settings and result in plain words, for the lobby and match lists.

Pages and the JSON API (through `presenters.table_summary`) use the same
words, so a list re-rendered by JavaScript reads exactly like the server's.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

# The games' own Romanian names, as the table page shows them.
RULES_NAMES = {"septica": "Șeptică", "familie": "Șeptică în familie", "americana": "Șeptică americană"}

MATCH_FORMATS = {
    "points-8": gettext_lazy("to 8 points"),
    "points-21": gettext_lazy("to 21 points"),
    "best-of-3": gettext_lazy("best of 3 games"),
    "best-of-5": gettext_lazy("best of 5 games"),
    "first-to-10": gettext_lazy("first to 10 games"),
}

# The steps the create form offers: live play up to correspondence over days.
TIME_STEPS = (30, 60, 120, 300, 900, 3600, 8 * 3600, 86400, 2 * 86400, 3 * 86400)
LIVE_UP_TO = 900

MINUTE, HOUR, DAY = 60, 3600, 86400


def rules_name(slug: str) -> str:
    return str(RULES_NAMES.get(slug, slug))


def options_in_words(rules: str, players: int, options: dict) -> str:
    return ", ".join(str(phrase) for phrase in _option_phrases(rules, players, options))


def _option_phrases(rules: str, players: int, options: dict):
    if rules == "septica":
        yield MATCH_FORMATS.get(options.get("match"), options.get("match"))
        if players in (3, 5, 6):
            yield _("eights cut (tăietură)") if options.get("eights_cut") else _("eights do not cut")
        if players in (4, 6):
            yield _("in teams") if options.get("teams") else _("each for themselves")
    elif rules == "familie":
        yield _("one deal")
    elif rules == "americana":
        yield _("to %(target)s points") % {"target": options.get("target")}
        yield _("with jokers") if options.get("jokers") else _("no jokers")
        if options.get("pairs"):
            yield _("J on 2, Q on 3, K on 4")
        if options.get("jacks_draw"):
            yield _("jacks make the next player take two")


def time_in_words(seconds: int) -> str:
    """30 s, 5 min, 8 h, 1 day: the largest unit that divides it evenly."""
    if seconds and seconds % DAY == 0:
        days = seconds // DAY
        return ngettext("%(n)d day", "%(n)d days", days) % {"n": days}
    if seconds and seconds % HOUR == 0:
        return _("%(n)d h") % {"n": seconds // HOUR}
    if seconds and seconds % MINUTE == 0:
        return _("%(n)d min") % {"n": seconds // MINUTE}
    return _("%(n)d s") % {"n": seconds}


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
        "time": time_in_words(summary["seconds_per_move"]),
        "live": summary["seconds_per_move"] <= LIVE_UP_TO,
        "result": result_in_words(summary),
        "scores": scores_in_words(summary),
    }
