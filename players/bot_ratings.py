"""The bots' published ratings: what each level shows, on the scale people are shown, per rule set.

Measured, not chosen: `bench/bots.py --ratings` plays whole two-player matches
in a round robin among the three levels (balanced style, the Expert at its
site budget) and three people-like players (any legal move; always the highest
card that may go; always the lowest), each pairing on the same decks with the
seats swapped, and rates every match in order with `players.skill.rate` from a
fresh rating, as the site rates a newcomer. A figure is the `shown` number the
level had at the end: what a person who did as well against that field would
be shown after as many rated matches.

To regenerate: run the commands below on a quiet machine (the Expert thinks
for a time, so a busy one weakens it), copy the BOT_RATINGS lines they print
here, and update MEASURED, COMMANDS and MATCHES. The figures grow with the
number of matches (sigma shrinks), so compare levels within one rule set.
"""

from __future__ import annotations

MEASURED = "2026-12-01"
# Americana's expert and medium needed twice the matches to part (on a loaded machine: load average 3 to 12).
COMMANDS = {
    "septica": ".venv/bin/python bench/bots.py --ratings",
    "familie": ".venv/bin/python bench/bots.py --ratings",
    "americana": ".venv/bin/python bench/bots.py --ratings --rules americana --decks 6",
}
MATCHES = {"septica": 30, "familie": 30, "americana": 60}  # rated matches each participant played

BOT_RATINGS: dict[tuple[str, str], int] = {
    ("septica", "beginner"): 1502, ("septica", "medium"): 1896, ("septica", "expert"): 2272,
    ("familie", "beginner"): 1365, ("familie", "medium"): 1491, ("familie", "expert"): 2145,
    ("americana", "beginner"): 1200, ("americana", "medium"): 2051, ("americana", "expert"): 2330,
}  # fmt: skip


# Seated at tables but not yet in the round robin: the Master thinks 600 ms a move, so its matches
# take the rating run from ten minutes to hours; it stays unrated until that run is taken.
UNRATED_LEVELS = ("master",)


def published_rating(rules: str, level: str) -> int | None:
    """The level's published rating for the rule set (a slug such as "septica"), or None when there is none."""
    return BOT_RATINGS.get((rules, level))
