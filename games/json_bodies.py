"""JSON from clients (API bodies, tutorial moves, socket messages), refused when nested deeper than any answer needs.

The standard parser recurses once per level and raises RecursionError deep
down, which is no ValueError; and a document that just fits the parser's
stack still makes every later repr() or comparison recurse as deep. A move
is three levels deep, so a small fixed limit refuses nothing real.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 32


class TooDeep(ValueError):
    """Lists and objects nested deeper than MAX_DEPTH."""

    def __init__(self) -> None:
        super().__init__(f"nested more than {MAX_DEPTH} levels deep")


def parse(text: str | bytes) -> Any:
    """The JSON value of `text`; ValueError when it is not JSON, TooDeep when nested too deep."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise TooDeep() from None
    if depth_exceeds(value, MAX_DEPTH):
        raise TooDeep()
    return value


def depth_exceeds(value: Any, limit: int) -> bool:
    """Whether lists and objects nest more than `limit` levels in `value` (walked without recursing)."""
    pending = [(value, 1)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        if level > limit:
            return True
        pending.extend((child, level + 1) for child in item)
    return False
