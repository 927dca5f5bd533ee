"""Durations in words: the time per move and the time left to move, on every page.

One rule says them all (`duration_in_words`); what differs is the words of
the units. static/js/durations.js says a time left by the same rule, with the
`CLOCK` words the pages hand it.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy, ngettext_lazy

# The steps the create form offers: live play up to correspondence over days.
TIME_STEPS = (30, 60, 120, 300, 900, 3600, 8 * 3600, 86400, 2 * 86400, 3 * 86400)
LIVE_UP_TO = 900

MINUTE, HOUR, DAY = 60, 3600, 86400

DAYS = ngettext_lazy("%(n)d day", "%(n)d days", "n")
# The lists, the create form and the API: 30 s, 5 min, 8 h, 2 days.
SHORT = ((DAY, DAYS), (HOUR, gettext_lazy("%(n)d h")), (MINUTE, gettext_lazy("%(n)d min")), (1, gettext_lazy("%(n)d s")))
# The table's rules dialog: 30 seconds, 8 hours, 2 days.
LONG = (
    (DAY, DAYS),
    (HOUR, ngettext_lazy("%(n)d hour", "%(n)d hours", "n")),
    (MINUTE, ngettext_lazy("%(n)d minute", "%(n)d minutes", "n")),
    (1, ngettext_lazy("%(n)d second", "%(n)d seconds", "n")),
)
# A clock running down: 2 d 3 h. The scripts tick it with these words, and
# the JavaScript catalog has no plurals of theirs, so days are short here too.
CLOCK = ((DAY, gettext_lazy("%(n)d d")), *SHORT[1:])
CLOCK_KEYS = ("d", "h", "min", "s")  # what static/js/durations.js calls each unit


def duration_in_words(seconds: int, units=SHORT, parts: int = len(SHORT)) -> str:
    """From the largest unit that fits, at most `parts` units, the empty ones left out.

    1 h 30 min, 2 days, 0 s; with parts=2 a time left is rounded down: 4 min 12 s, 2 d 3 h.
    """
    start = next((index for index, (size, _) in enumerate(units) if seconds >= size), len(units) - 1)
    said = []
    for size, words in units[start : start + parts]:
        count, seconds = divmod(seconds, size)
        if count or not said:
            said.append(words % {"n": count})
    return " ".join(said)


def time_left_in_words(seconds: int) -> str:
    return duration_in_words(seconds, CLOCK, parts=2)


def clock_units() -> dict[str, str]:
    """The words of `CLOCK`, for the scripts that tick a time left."""
    return {key: str(words) for key, (_, words) in zip(CLOCK_KEYS, CLOCK, strict=True)}
