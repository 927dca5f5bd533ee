"""Saying a line at a table: checks, one insert, and the table's sockets hear of it after commit."""

from __future__ import annotations

import logging
from datetime import UTC

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from redis.exceptions import RedisError

from ..after_commit import chat as chat_after_commit
from ..chat_reads import line_fields
from ..errors import BadRequest, NotAllowed, NotFound, NotLoggedIn, TooManyRequests
from ..models import ChatLine, ChatRoom, Seat
from ..words.chat import PHRASES

logger = logging.getLogger(__name__)

MAX_TEXT_CHARS = 300
# (lines, seconds): a burst is fine, a stream is not. The README says the same numbers.
RATES = ((5, 10), (60, 600))


def say(user, table_id: int, *, text=None, phrase=None, invite: str | None = None) -> ChatLine:
    """Store one line (free text or a quick phrase's code) in the room the person may write at the table.

    `invite`: the private table's invite code the person came with (they watch it, but may not chat)."""
    _check_may_chat(user)
    text, phrase = _check_said(text, phrase)
    room = _room_at(table_id, user, invite)
    _take_rate(user)
    # One insert, committed by itself: nothing else is written with it, and no lock is needed.
    line = ChatLine.objects.create(table_id=table_id, room=room, author=user, phrase=phrase, text=text)
    fields = line_fields(line)
    transaction.on_commit(lambda: chat_after_commit.line_said(table_id, fields))
    return line


def _room_at(table_id: int, user, invite: str | None) -> str:
    # The table and who sits there in one query (a table always has its seats); a chat line
    # comes every few moves, and sits beside them on the servers' database threads.
    rows = list(Seat.objects.filter(table_id=table_id).values_list(
        "table__private", "table__invite_code", "user_id", "reserved_for_id"))
    if not rows:
        raise NotFound(_("There is no such table."))
    private, invite_code = rows[0][0], rows[0][1]
    if any(user.pk in (seated, kept) for _private, _code, seated, kept in rows):
        return ChatRoom.PLAYERS
    if not private:
        return ChatRoom.SPECTATORS
    if invite is not None and invite == invite_code:
        raise NotAllowed(_("Spectators of a private table have no chat."), code="no_chat_here")
    raise NotFound(_("There is no such table."))


def _check_may_chat(user) -> None:
    if user is None or not user.is_authenticated:
        raise NotLoggedIn(_("Log in to chat."))
    # Read again, not taken from `user`: a socket's person was read when it connected, before any mute.
    active, banned, muted_until = get_user_model().objects.filter(pk=user.pk).values_list(
        "is_active", "banned", "chat_muted_until").first() or (False, False, None)
    if not active or banned:
        raise NotAllowed(_("This account cannot chat."))
    if muted_until is not None and muted_until > timezone.now():
        raise NotAllowed(_("A moderator muted you from chat until %(until)s UTC.") % {
            "until": muted_until.astimezone(UTC).strftime("%Y-%m-%d %H:%M")}, code="muted")


def _check_said(text, phrase) -> tuple[str, str]:
    if (text is None) == (phrase is None):
        raise BadRequest(_("Send either \"text\" or \"phrase\", not both and not neither."), code="text_or_phrase")
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in PHRASES:
            raise BadRequest(_("There is no such quick phrase. The phrases are %(codes)s.") % {
                "codes": ", ".join(PHRASES)}, code="unknown_phrase")
        return "", phrase
    text = text.strip() if isinstance(text, str) else ""
    if not text:
        raise BadRequest(_("Write something first."), code="empty_line")
    if len(text) > MAX_TEXT_CHARS:
        raise BadRequest(ngettext("A line may be at most %(n)d character.", "A line may be at most %(n)d characters.",
                                  MAX_TEXT_CHARS) % {"n": MAX_TEXT_CHARS}, code="line_too_long")
    return text, ""


def _rate_key(user_id: int, seconds: int) -> str:
    return f"septica:chat-rate:{user_id}:{seconds}"


def _take_rate(user) -> None:
    """Count the line in each window, refusing it when a window is full (a refused line counts too).

    The counts live in the cache; when it cannot be reached the line goes through."""
    for lines, seconds in RATES:
        key = _rate_key(user.pk, seconds)
        try:
            try:
                count = cache.incr(key)
            except ValueError:  # no count yet: this line opens the window
                count = 1 if cache.add(key, 1, timeout=seconds) else cache.incr(key)
        except (RedisError, ValueError):
            logger.warning("the chat rate could not be counted", exc_info=True)
            return
        if count > lines:
            raise TooManyRequests(_("You are writing too fast: at most %(burst)d lines in %(burst_seconds)d seconds "
                                    "and %(lines)d in %(minutes)d minutes. Wait a little and try again.") % {
                "burst": RATES[0][0], "burst_seconds": RATES[0][1], "lines": RATES[1][0],
                "minutes": RATES[1][1] // 60}, code="chat_rate")
