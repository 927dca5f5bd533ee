"""Saying a line at a table: one read for the checks and one insert in a transaction, and the table's sockets
hear of it after commit."""

from __future__ import annotations

import unicodedata
from datetime import UTC, timedelta

from django.db import router, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.names import has_hidden_characters

from ..after_commit import chat as chat_after_commit
from ..chat_reads import line_fields
from ..errors import BadRequest, NotAllowed, NotFound, NotLoggedIn, TooManyRequests
from ..models import ChatLine, ChatRoom
from ..sql.chat_rows import ChatStanding, chat_standing, insert_line
from ..words.chat import PHRASES

MAX_TEXT_CHARS = 300
# (lines, seconds): a burst is fine, a stream is not. The README says the same numbers. A refused
# line is stored nowhere, so it counts in no window.
RATES = ((5, 10), (60, 600))


def say(user, table_id: int, *, text=None, phrase=None, invite: str | None = None) -> ChatLine:
    """Store one line (free text or a quick phrase's code) in the room the person may write at the table.

    `invite`: the private table's invite code the person came with (they watch it, but may not chat)."""
    if user is None or not user.is_authenticated:
        raise NotLoggedIn(_("Log in to chat."))
    now = timezone.now()
    # One transaction per line, the speaker's row locked by its first read: a burst of lines sent at
    # once, on any servers, is checked and stored one line after the other (games/sql/chat_rows.py).
    with transaction.atomic(using=router.db_for_write(ChatLine)):
        # Read again, not taken from `user`: a socket's person was read when it connected, before any mute.
        standing = chat_standing(user.pk, table_id)
        _check_may_chat(standing, now)
        text, phrase = _check_said(text, phrase)
        room = _room_at(standing, invite)
        line = insert_line(ChatLine(table_id=table_id, room=room, author=user, phrase=phrase, text=text, created_at=now),
                           tuple((lines, now - timedelta(seconds=seconds)) for lines, seconds in RATES))
        if line is None:
            raise _too_fast()
        fields = line_fields(line)
        transaction.on_commit(lambda: chat_after_commit.line_said(table_id, fields))
    return line


def _check_may_chat(standing: ChatStanding | None, now) -> None:
    if standing is None or not standing.is_active or standing.banned:
        raise NotAllowed(_("This account cannot chat."))
    if standing.muted_until is not None and standing.muted_until > now:
        raise NotAllowed(_("A moderator muted you from chat until %(until)s UTC.") % {
            "until": standing.muted_until.astimezone(UTC).strftime("%Y-%m-%d %H:%M")}, code="muted")


def _room_at(standing: ChatStanding, invite: str | None) -> str:
    if not standing.table_found:
        raise NotFound(_("There is no such table."))
    if standing.seated:
        return ChatRoom.PLAYERS
    if not standing.private:
        return ChatRoom.SPECTATORS
    if invite is not None and invite == standing.invite_code:
        raise NotAllowed(_("Spectators of a private table have no chat."), code="no_chat_here")
    raise NotFound(_("There is no such table."))


def _too_fast() -> TooManyRequests:
    """The refusal of a line that would pass one of the windows' limits, counting the person's stored lines."""
    return TooManyRequests(_("You are writing too fast: at most %(burst)d lines in %(burst_seconds)d seconds "
                             "and %(lines)d in %(minutes)d minutes. Wait a little and try again.") % {
        "burst": RATES[0][0], "burst_seconds": RATES[0][1], "lines": RATES[1][0],
        "minutes": RATES[1][1] // 60}, code="chat_rate")


def _check_said(text, phrase) -> tuple[str, str]:
    if (text is None) == (phrase is None):
        raise BadRequest(_("Send either \"text\" or \"phrase\", not both and not neither."), code="text_or_phrase")
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in PHRASES:
            raise BadRequest(_("There is no such quick phrase. The phrases are %(codes)s.") % {
                "codes": ", ".join(PHRASES)}, code="unknown_phrase")
        return "", phrase
    text = shown_text(text) if isinstance(text, str) else ""
    if not text:
        raise BadRequest(_("Write something first."), code="empty_line")
    if len(text) > MAX_TEXT_CHARS:
        raise BadRequest(ngettext("A line may be at most %(n)d character.", "A line may be at most %(n)d characters.",
                                  MAX_TEXT_CHARS) % {"n": MAX_TEXT_CHARS}, code="line_too_long")
    return text, ""


def shown_text(text: str) -> str:
    """The text as every reader will see it: white space made single spaces, and what names refuse as
    hidden (bidi controls, zero-width characters, fillers) taken out, rather than the line refused for
    what its writer cannot see. Two exceptions: a zero-width joiner between two symbols is what joins
    an emoji sequence into one picture, and an unassigned code point may be a newer emoji than this
    Python knows."""
    text = " ".join(text.split())
    kept: list[str] = []
    for index, char in enumerate(text):
        joins = char == _JOINER and _is_symbol("".join(kept[-1:])) and _is_symbol(text[index + 1: index + 2])
        if joins or unicodedata.category(char) == "Cn" or not has_hidden_characters(char):
            kept.append(char)
    return " ".join("".join(kept).split())  # a space the hidden ones stood between is one space


_JOINER = "\u200d"
_PICTURE_SELECTOR = "\ufe0f"  # "draw the symbol before as an emoji"


def _is_symbol(char: str) -> bool:
    return char == _PICTURE_SELECTOR or (char != "" and unicodedata.category(char) in ("So", "Sk"))
