"""The table chat as each reader sees it: which room they read and write, and its lines.

A person seated at the table, or one whose seat is kept for them, reads and
writes the players' chat; anybody else watching a public table reads the
spectators' chat (and writes it when logged in). Players do not read the
spectators' chat, as on lichess: what the audience says during a match
must not reach the people playing it. Spectators of a private table have
no chat. A reader never receives a line whose author they block, and one
who turned "show what people write" off receives only quick phrases (an
open socket reads those settings when it connects, again when it hears they
changed, games/after_commit/chat.py, and in the background once they are
READER_SETTINGS_SECONDS old, games/consumers/table.py).
"""

from __future__ import annotations

from django.db.models import Q

from accounts.models import User
from players.models import Block

from .leaving_view import profile_url
from .models import ChatLine, ChatRoom, Table
from .words.chat import line_words

HISTORY_LINES = 100


def room_for(table: Table, user) -> str | None:
    """The room `user` reads and writes at `table` (its seats loaded); None: no chat for them."""
    user_id = user.pk if user is not None and user.is_authenticated else None
    if user_id is not None and any(user_id in (seat.user_id, seat.reserved_for_id) for seat in table.seats.all()):
        return ChatRoom.PLAYERS
    return None if table.private else ChatRoom.SPECTATORS


def line_fields(line: ChatLine) -> dict:
    """What the table's sockets are sent of a new line (nothing secret: each words it for its reader)."""
    author = line.author
    return {"id": line.pk, "room": line.room, "author_id": author.pk, "name": author.shown_name,
            "username": author.username, "phrase": line.phrase, "text": line.text,
            "at": line.created_at.isoformat()}


def line_json(fields: dict) -> dict:
    """One line as a reader receives it, its words in the active language."""
    said = {"phrase": fields["phrase"]} if fields["phrase"] else {"text": fields["text"]}
    return {"id": fields["id"], "room": fields["room"],
            "author": {"name": fields["name"], "username": fields["username"],
                       "profile_url": profile_url(fields["username"])},
            **said, "words": line_words(fields["phrase"], fields["text"]), "at": fields["at"]}


def reader_settings(user) -> tuple[bool, set[int]]:
    """Whether `user` reads free text, and whom they block (anonymous readers: text, nobody)."""
    if user is None or not user.is_authenticated:
        return True, set()
    shows_text = User.objects.filter(pk=user.pk).values_list("chat_text", flat=True).first()
    blocked = set(Block.objects.filter(blocker_id=user.pk).values_list("blocked_id", flat=True))
    return shows_text is not False, blocked


def room_history(table_id: int, room: str, user, settings: tuple[bool, set[int]] | None = None) -> list[dict]:
    """The last HISTORY_LINES lines of a room as `user` reads them, oldest first (`settings`: their
    reader_settings, when already read)."""
    shows_text, blocked = settings if settings is not None else reader_settings(user)
    own = user.pk if user is not None and user.is_authenticated else None
    lines = ChatLine.objects.filter(table_id=table_id, room=room).exclude(author_id__in=blocked - {own})
    if not shows_text:
        lines = lines.filter(Q(text="") | Q(author_id=own))
    newest = list(lines.select_related("author").order_by("-pk")[:HISTORY_LINES])
    return [line_json(line_fields(line)) for line in reversed(newest)]
