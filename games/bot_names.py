"""The first names bots go by at a table, so that players can tell them apart.

A bot's name is worked out, never stored: from the table's id and the bot's
seat, so every page, API answer, socket message and replay of the table
names it alike. The id is public; the match's secret seed is never used, so
a name tells nobody anything about the cards.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

FIRST_NAMES = (
    "Ilinca", "Radu", "Ioana", "Mihai", "Ștefan", "Irina", "Tudor", "Mădălina",
    "Andrei", "Oana", "Cătălin", "Doina", "Horia", "Ionuț", "Smaranda", "Vlad",
)
# Seats up to this number have a name of their own in the table's order; the
# rest of the order stands in for a name a seated person already goes by.
SEATS_WITH_OWN_NAME = 6


@lru_cache(maxsize=4096)
def names_in_order(table_id: int) -> tuple[str, ...]:
    """FIRST_NAMES shuffled the same way every time for one table, differently from table to table."""
    order = list(FIRST_NAMES)
    random.Random(f"bot names of table {table_id}").shuffle(order)
    return tuple(order)


@lru_cache(maxsize=1024)
def folded(name: str) -> str:
    """A name without case or diacritics: "Ștefan", "Ştefan" and "stefan" are one name to a reader."""
    decomposed = unicodedata.normalize("NFKD", name.strip().casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def bot_names(table_id: int, bot_seats: Iterable[int], person_names: Iterable[str]) -> dict[int, str]:
    """The name of each bot seat: distinct at the table, and never a seated person's name (or first name).

    A bot keeps the name its seat has in the table's order unless a person at
    the table goes by it; then it takes the first spare name nobody uses, so a
    person joining changes at most the name of the bot whose name they carry."""
    order = names_in_order(table_id)
    taken = set()
    for name in person_names:
        taken.add(folded(name))
        taken.add(folded(name.split()[0]) if name.split() else "")
    spares = [name for name in order[SEATS_WITH_OWN_NAME:] if folded(name) not in taken]
    names: dict[int, str] = {}
    clashing = []
    for seat in sorted(bot_seats):
        own = order[seat] if 0 <= seat < SEATS_WITH_OWN_NAME else None
        if own is not None and folded(own) not in taken:
            names[seat] = own
        else:
            clashing.append(seat)
    for seat, name in zip(clashing, spares, strict=False):
        names[seat] = name
    return names


def badge(level: str, style: str, both: str, rated: str | None = None) -> str:
    """A bot's level and style as one short label, the level first ("Expert, aggressive").

    `both` is the translated "%(level)s, %(style)s"; a style worded like the
    level ("Expert, Expert") leaves the level alone. `rated`, the level with its
    published rating (`rated_level`), stands in the level's place, first, so a
    narrow seat that cuts the badge short cuts the style before the number."""
    shown = rated or level
    if folded(style) == folded(level):
        return shown
    return both % {"level": shown, "style": style.lower()}


def rated_level(level: str, rating: int | None, worded: str) -> str:
    """The level with its published rating ("Expert ≈ 1700"), as the issue words it.

    `worded` is the translated "%(level)s ≈ %(rating)s"; without a published
    rating (a rule set not measured yet) the level stays as it is."""
    if rating is None:
        return level
    return worded % {"level": level, "rating": rating}
