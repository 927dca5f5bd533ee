"""JSON from clients (API bodies, tutorial moves, socket messages), refused when no field could take it.

Two shapes parse but break what reads them. Nesting: the standard parser
recurses once per level and raises RecursionError deep down, which is no
ValueError, and a document that just fits the parser's stack still makes
every later repr() or comparison recurse as deep; a move is three levels deep,
so a small fixed limit refuses nothing real. And the NUL character (JSON's
\\u0000): PostgreSQL's text cannot hold it, so a name or a chat line with one
would fail in the database (a 500) where SQLite stores it; no field takes it.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 32
NUL = "\x00"


class Unreadable(ValueError):
    """Valid JSON that no field of the site takes; its words follow "The request body is" or "The message is"."""


class TooDeep(Unreadable):
    """Lists and objects nested deeper than MAX_DEPTH."""

    def __init__(self) -> None:
        super().__init__(f"nested more than {MAX_DEPTH} levels deep")


class HoldsNul(Unreadable):
    """A string or a key with the NUL character in it."""

    def __init__(self) -> None:
        super().__init__("valid JSON holding the NUL character (\\u0000), which no field takes")


def parse(text: str | bytes) -> Any:
    """The JSON value of `text`; ValueError when it is not JSON, TooDeep or HoldsNul when no field takes it."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise TooDeep() from None
    check(value)
    return value


def check(value: Any) -> None:
    """TooDeep or HoldsNul for a parsed value no field takes (walked without recursing)."""
    pending = [(value, 1)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, str):
            if NUL in item:
                raise HoldsNul()
            continue
        if isinstance(item, dict):
            pending.extend((key, level) for key in item)
            item = item.values()
        elif not isinstance(item, list):
            continue
        if level > MAX_DEPTH:
            raise TooDeep()
        pending.extend((child, level + 1) for child in item)
