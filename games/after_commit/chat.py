"""A new chat line, announced to the table's sockets once it is stored.

The group message carries the line's fields (chat is not secret), not its
words: each socket words it for its own reader, in their language, and
drops it for a reader who blocks its author (games/chat_reads.py).
"""

from __future__ import annotations

from . import publish


def line_said(table_id: int, fields: dict) -> None:
    publish.publish([(publish.match_group(table_id), {"type": "chat.line", "line": fields})])
