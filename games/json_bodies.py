"""JSON from clients (API bodies, tutorial moves, socket messages), refused when nested deeper than any answer needs.

The standard parser recurses once per level and raises RecursionError deep
down, which is no ValueError; and a document that just fits the parser's
stack still makes every later repr() or comparison recurse as deep. A move
is three levels deep, so a small fixed limit refuses nothing real.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import BadRequest, ServiceError

MAX_DEPTH = 32
MAX_BODY_BYTES = 16 * 1024


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


class BodyTooLarge(ServiceError):
    status = 413


def read_json(request) -> dict:
    """A request's JSON object body; a refusal (400, or 413 when too large) for anything else."""
    if len(request.body) > MAX_BODY_BYTES:
        raise BodyTooLarge(f"The request body is larger than {MAX_BODY_BYTES} bytes.")
    try:
        body = parse(request.body or b"{}")
    except TooDeep as refusal:
        raise BadRequest(f"The request body is {refusal}: a move needs three levels.") from None
    except ValueError:  # UnicodeDecodeError is one too
        raise BadRequest("The request body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise BadRequest("The request body must be a JSON object.")
    return body
