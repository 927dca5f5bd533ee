"""Durations in words: the time per move, as the create form and the lists show it."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# The steps the create form offers: live play up to correspondence over days.
TIME_STEPS = (30, 60, 120, 300, 900, 3600, 8 * 3600, 86400, 2 * 86400, 3 * 86400)
LIVE_UP_TO = 900

MINUTE, HOUR, DAY = 60, 3600, 86400


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
