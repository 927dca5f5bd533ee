"""The bots' published ratings: what each level shows, on the scale people are shown, per rule set.

Measured, not chosen: `bench/bots.py --ratings --with-master` plays whole
two-player matches in a round robin among the four levels (balanced style,
the Expert and the Master at their site budgets) and three people-like
players (any legal move; always the highest card that may go; always the
lowest), each pairing on the same decks with the seats swapped, and rates
every match in order with `players.skill.rate` from a fresh rating, as the
site rates a newcomer. A figure is the `shown` number the level had at the
end: what a person who did as well against that field would be shown after
as many rated matches.

To regenerate: run the commands below on a quiet machine (the Expert and the
Master think for a time, so a busy one weakens them), copy the BOT_RATINGS
lines they print here, and update MEASURED, COMMANDS and MATCHES. The figures
grow with the number of matches (sigma shrinks), so compare levels within one
rule set.
"""

from __future__ import annotations

MEASURED = "2026-12-04"
COMMANDS = {
    "septica": ".venv/bin/python bench/bots.py --ratings --with-master --rules septica --rules familie",
    "familie": ".venv/bin/python bench/bots.py --ratings --with-master --rules septica --rules familie",
    "americana": ".venv/bin/python bench/bots.py --ratings --with-master --rules americana --decks 6",
}
# Americana's levels need twice the matches to part (its Expert and Medium are close).
MATCHES = {"septica": 36, "familie": 36, "americana": 72}  # rated matches each participant played

BOT_RATINGS: dict[tuple[str, str], int] = {
    ("septica", "beginner"): 1563, ("septica", "medium"): 1854, ("septica", "expert"): 2087, ("septica", "master"): 2269,
    ("familie", "beginner"): 1136, ("familie", "medium"): 1650, ("familie", "expert"): 1992, ("familie", "master"): 2335,
    ("americana", "beginner"): 1437, ("americana", "medium"): 2023, ("americana", "expert"): 2086, ("americana", "master"): 2179,
}  # fmt: skip


def published_rating(rules: str, level: str) -> int | None:
    """The level's published rating for the rule set (a slug such as "septica"), or None when there is none."""
    return BOT_RATINGS.get((rules, level))
