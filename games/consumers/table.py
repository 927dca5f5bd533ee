"""`/ws/tables/<id>/`: one table, as its viewer may see it, live.

On connect the viewer gets their view; after every committed change (the
group says only "match changed, seq n" or "table changed") the consumer
builds its own viewer's view and sends it, unless it already sent that state.
The client may move, ask for the current view, chat, and ping (see the
protocol in templates/games/api_docs.html and static/js/table/connection.js).
Chat lines arrive as the group's "chat.line" with the line's fields; each
socket words them for its own reader (games/chat_reads.py). A line is stored
on the sockets' database thread, one insert in the moves' queue: on a thread
of its own it cost the moves more, through the interpreter lock, than the
queue does (bench/realtime.py --chat). Readers' settings and histories are
read on the lists' thread, the settings again when they change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from functools import partial
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async

from accounts import credentials
from septica_site.outage import database_unreachable
from septica_site.row_ids import fits_a_row

from .. import actions, presence
from ..actions.chat import say
from ..after_commit import chat as chat_after_commit
from ..after_commit import publish
from ..chat_reads import line_json, reader_settings, room_for, room_history
from ..leaving_view import carry_leaving_state, leaving_state_loaded, load_leaving_state
from ..models import Match
from ..presenters import table_json
from ..words.chat import phrases_in_words
from . import snapshots
from .base import CLOSE_NOT_AUTHENTICATED, CLOSE_NOT_FOUND, BadMessage, SepticaConsumer
from .catch_up import behind
from .database import db, lists_db

logger = logging.getLogger(__name__)

NO_SUCH_TABLE = "There is no such table."
NO_ROOM_YET = "not read"  # the room a socket reads before its first view: none yet, not even None
# How long a socket trusts what it read of its reader's blocks and chat_text setting when it hears
# of no change: a change is announced (games/after_commit/chat.py), and this is for an announcement
# the channel layer lost (it delivers at most once). Older settings are read again in the background
# while the line goes by the ones held: a socket handles its messages one at a time, and a line that
# waited for a read held up the moves behind it. Not sooner: each of a server's sockets reads its
# own, and every few lines a read would be due somewhere, beside the moves.
READER_SETTINGS_SECONDS = 300.0


def may_watch(table, user, invite: str | None) -> bool:
    """Public tables to anyone; private ones to their people and to holders of the invite."""
    if not table.private:
        return True
    if invite is not None and invite == table.invite_code:
        return True
    user_id = user.pk if user is not None and user.is_authenticated else None
    return user_id is not None and any(user_id in (seat.user_id, seat.reserved_for_id) for seat in table.seats.all())


class TableConsumer(SepticaConsumer):
    message_types = ("move", "sync", "chat", "ping")

    async def connect(self):
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        self.group = publish.match_group(self.table_id)
        self.sent: dict | None = None
        self.sent_seq = -1
        self.presence_key: str | None = None
        self.presence_sent: dict | None = None
        self.seated: list[tuple[int, int]] = []
        self.heartbeat = None
        self.watching = False
        self.chat_room: str | None = NO_ROOM_YET
        self.reader: tuple[bool, set[int]] | None = None
        self.reader_read_at = 0.0
        self.reader_refresh: asyncio.Task | None = None
        self.saying: asyncio.Task | None = None
        if self.scope.get("auth_error"):
            return await self.refuse(CLOSE_NOT_AUTHENTICATED, 401, self.scope["auth_error"])
        if not fits_a_row(self.table_id):  # SQLite could not even look it up
            return await self.refuse(CLOSE_NOT_FOUND, 404, NO_SUCH_TABLE)
        # Join the group before reading the table: a move committed in between is
        # then in what is read or announced after it, never in neither.
        await self.channel_layer.group_add(self.group, self.channel_name)
        try:
            snapshot = await snapshots.fresh_snapshot(self.table_id)
        except BaseException:  # the database did not answer: closed with 4503 (base.py), hearing nothing more
            await self.channel_layer.group_discard(self.group, self.channel_name)
            raise
        if snapshot is None or not may_watch(snapshot.table, self.user, self._query("invite")):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            return await self.refuse(CLOSE_NOT_FOUND, 404, NO_SUCH_TABLE)
        snapshots.watch(self.table_id)
        self.watching = True
        if self.authenticated:
            await self.channel_layer.group_add(chat_after_commit.reader_group(self.user.pk), self.channel_name)
        await self._load_leaving_state(snapshot)  # before accepting: the first view then goes out at once
        await self.accept()
        self.heartbeat = asyncio.create_task(self._keep_present())  # first: a chat history unread leaves it open
        await self.send_snapshot(snapshot)

    async def disconnect(self, code):
        if getattr(self, "watching", False):
            self.watching = False
            snapshots.unwatch(self.table_id)
            if self.heartbeat is not None:
                self.heartbeat.cancel()
            if self.reader_refresh is not None:
                self.reader_refresh.cancel()
            await self.channel_layer.group_discard(self.group, self.channel_name)
            if self.authenticated:
                await self.channel_layer.group_discard(chat_after_commit.reader_group(self.user.pk), self.channel_name)
            if self.presence_key is not None:
                await sync_to_async(presence.leave, thread_sensitive=False)(self.presence_key)
                await self._presence_changed()

    def _query(self, name: str) -> str | None:
        values = parse_qs(self.scope.get("query_string", b"").decode("latin1")).get(name)
        return values[0] if values else None

    # --- views ----------------------------------------------------------------------
    async def send_snapshot(self, snapshot, force: bool = False) -> None:
        if snapshot is None:  # the table was deleted (moderation)
            await self.send_error(404, NO_SUCH_TABLE)
            return await self.close(CLOSE_NOT_FOUND)
        self.seated = snapshot.seated
        await self._load_leaving_state(snapshot)
        await self.send_view(table_json(snapshot.table, self.user, game=snapshot.game, cache=snapshot.presented), force)
        await self._send_chat_history(snapshot.table)

    async def send_view(self, data: dict, force: bool = False) -> None:
        seq = data["seq"]
        # A later seq is news by itself: only at the same seq (a seat change,
        # a sync) is the whole view compared with what was sent.
        if seq < self.sent_seq or (seq == self.sent_seq and not force and data == self.sent):
            return  # already sent, or older than what was sent
        self.sent, self.sent_seq = data, data["seq"]
        await self.send_json({"type": "view", **data})
        await self._take_presence(data["your_seat"])

    @staticmethod
    async def _load_leaving_state(snapshot) -> None:
        """Reliability and the open abort request, read off the loop once per table state."""
        if snapshot is not None and not leaving_state_loaded(snapshot.table):
            await db(load_leaving_state)(snapshot.table)

    async def match_changed(self, event):
        if not self.watching:
            return  # refused: a change announced while connecting must not reach it
        if event["seq"] <= self.sent_seq:
            return  # this socket already has that move (it made it, or a later one was sent)
        await self.send_snapshot(await snapshots.snapshot_at_least(self.table_id, event["seq"]))

    async def table_changed(self, event):
        if not self.watching:
            return
        await self.send_snapshot(await snapshots.fresh_snapshot(self.table_id))

    async def read_again(self) -> None:
        """After the database did not answer: the table as it is now (sent only if it differs from what was)."""
        if self.watching:
            await self.send_snapshot(await snapshots.fresh_snapshot(self.table_id))

    async def analysis_ready(self, event):
        """The match's analysis is stored (games/after_commit/analysis.py): the replay page reads it now."""
        if self.watching:
            await self.send_json({"type": "analysis_ready", "table": event["table"]})

    # --- client messages ---------------------------------------------------------------
    async def on_move(self, message):
        if "seq" not in message or not isinstance(message.get("move"), dict):
            raise BadMessage(400, "Send {\"type\": \"move\", \"seq\": <moves seen>, \"move\": {...}}.")
        try:
            _, data = await snapshots.making_move(self.table_id, partial(db(self._play), message["seq"], message["move"]))
        except credentials.CredentialEnded:
            return await self.close_for_credential(self.credential.refusal())
        except actions.ServiceError as refusal:
            seq = refusal.extra.get("seq")
            if seq is None:
                seq = await db(self._current_seq)()
            await self.send_error(refusal.status, refusal.message, **{**refusal.extra, "seq": seq})  # code, params
            if refusal.status == 409:
                await self.send_snapshot(await snapshots.snapshot_at_least(self.table_id, seq))
            return
        if data is None:  # made, but its view could not be read: it comes with the catch-up, or the announcement
            return behind().note(self)
        await self.send_view(data)

    def _play(self, seq, move) -> tuple[snapshots.Snapshot, dict]:
        # Here, not only on the announcement: a channel layer may lose that.
        if self.credential is not None and not credentials.still_stands(self.credential):
            raise credentials.CredentialEnded
        if move.get("type") == "resign":  # the site's move, not the engine's: any seq will do
            actions.resign(self.table_id, self.user)
            with made_unless_read_fails():
                snapshot = snapshots.load_snapshot(self.table_id)
                load_leaving_state(snapshot.table)
                return snapshot, table_json(snapshot.table, self.user, game=snapshot.game, cache=snapshot.presented)
            return None, None
        match, game = actions.play_move(self.table_id, self.user, seq, move)
        table = match.table  # its seats (and their people) came with the move: no second read
        before = snapshots.known(self.table_id)
        if before is not None:
            carry_leaving_state(before.table, table)
        snapshot = snapshots.Snapshot.of(table, game)  # remembered for the others here: no second read
        # Built here, on the database thread, before any socket on the loop
        # reads the snapshot: it loads the creator when no seat brought them.
        with made_unless_read_fails():
            return snapshot, table_json(snapshot.table, self.user, game=game, cache=snapshot.presented)
        return snapshot, None

    def _current_seq(self) -> int | None:
        return Match.objects.filter(pk=self.table_id).values_list("seq", flat=True).first()

    async def on_sync(self, message):
        if message.get("seq") is not None and type(message["seq"]) is not int:
            raise BadMessage(400, "\"seq\" must be the whole number of moves you have seen.")
        await self.send_snapshot(await snapshots.fresh_snapshot(self.table_id), force=True)

    async def on_ping(self, message):
        if self.presence_key is not None:
            await sync_to_async(presence.refresh, thread_sensitive=False)(self.presence_key)
        await super().on_ping(message)

    # --- chat -----------------------------------------------------------------------------
    async def _send_chat_history(self, table) -> None:
        """The last lines of the room the viewer reads, on connect and whenever that room changes (sitting down)."""
        room = room_for(table, self.user)
        if room == self.chat_room:
            return
        before, self.chat_room = self.chat_room, room
        try:
            lines = await lists_db(self._history_and_reader)(room)
        except BaseException:
            self.chat_room = before  # unread: sent by the next view's send, or the catch-up's
            raise
        await self.send_json({"type": "chat_history", "room": room, "lines": lines, "phrases": phrases_in_words()})

    async def chat_line(self, event):
        line = event["line"]
        if not self.watching or line["room"] != self.chat_room:
            return
        if self.authenticated and line["author_id"] != self.user.pk:
            shows_text, blocked = await self._reader_settings()
            if line["author_id"] in blocked or (line["text"] and not shows_text):
                return
        await self.send_json({"type": "chat", "line": line_json(line)})

    def _history_and_reader(self, room: str | None) -> list[dict]:
        """The room's last lines, and the reader's settings kept for the lines to come: one trip to the thread."""
        self.reader, self.reader_read_at = reader_settings(self.user), time.monotonic()
        return room_history(self.table_id, room, self.user, self.reader) if room is not None else []

    async def _reader_settings(self) -> tuple[bool, set[int]]:
        if self.reader is None:
            self.reader, self.reader_read_at = await lists_db(reader_settings)(self.user), time.monotonic()
        elif time.monotonic() - self.reader_read_at > READER_SETTINGS_SECONDS and (
            self.reader_refresh is None or self.reader_refresh.done()
        ):
            self.reader_refresh = asyncio.create_task(self._read_reader_again())
        return self.reader

    async def reader_changed(self, event):
        # Read before the next message: a line from a person just blocked must not slip through.
        if self.watching and self.reader is not None:
            await self._read_reader_again()

    async def _read_reader_again(self) -> None:
        try:
            self.reader, self.reader_read_at = await lists_db(reader_settings)(self.user), time.monotonic()
        except Exception:  # noqa: BLE001 -- the settings held stay; the next line asks again
            logger.warning("could not read the chat settings of %s again", self.user.pk, exc_info=True)

    async def on_chat(self, message):
        # Stored off this socket's queue of messages, which holds the moves' pushes to the
        # writer too; one line after the other, so that a socket's lines keep their order.
        before = self.saying
        self.saying = asyncio.create_task(self._say_after(before, message.get("text"), message.get("phrase")))

    async def _say_after(self, before: asyncio.Task | None, text, phrase) -> None:
        if before is not None:
            await asyncio.wait([before])
        try:
            await db(self._say)(text, phrase)
        except credentials.CredentialEnded:
            await self.close_for_credential(self.credential.refusal())
        except actions.ServiceError as refusal:
            await self.send_error(refusal.status, refusal.message, about="chat", **refusal.extra)
        except Exception as error:  # noqa: BLE001 -- a task's error would otherwise go unseen; the writer sees no echo
            if not database_unreachable(error):
                return logger.exception("chat line of %s at table %s failed", self.user.pk, self.table_id)
            logger.warning("chat line of %s at table %s: the database did not answer: %r", self.user.pk,
                           self.table_id, error)
            await self.send_database_unavailable(about="chat")  # not stored: the writer may send it again

    def _say(self, text, phrase) -> None:
        if self.credential is not None and not credentials.still_stands(self.credential):
            raise credentials.CredentialEnded
        say(self.user, self.table_id, text=text, phrase=phrase, invite=self._query("invite"))

    # --- presence -----------------------------------------------------------------------
    async def _take_presence(self, seat: int | None) -> None:
        """Count this socket for its person when seated, else as a spectator; announce any change."""
        key = presence.key_for(self.table_id, self.user.pk if seat is not None else None)
        if key == self.presence_key:
            return
        old, self.presence_key = self.presence_key, key
        await sync_to_async(_move_presence, thread_sensitive=False)(old, key)
        await self._presence_changed()

    async def _presence_changed(self) -> None:
        await self.channel_layer.group_send(self.group, {"type": "presence.changed", "table": self.table_id})

    async def presence_changed(self, event):
        if not self.watching:
            return
        now = await sync_to_async(presence.snapshot, thread_sensitive=False)(self.table_id, self.seated)
        if now is not None and now != self.presence_sent:
            self.presence_sent = now
            await self.send_json({"type": "presence", **now})

    async def _keep_present(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                await asyncio.sleep(presence.REFRESH_SECONDS)
                if self.presence_key is not None:
                    await sync_to_async(presence.refresh, thread_sensitive=False)(self.presence_key)


@contextlib.contextmanager
def made_unless_read_fails():
    """Around the reads after a move's commit: the database failing there does not undo the move.

    The move stands, so the answer must not be the refusal that says nothing
    was done: the `with` block's end is passed over instead, and the socket
    catches up on the view."""
    try:
        yield
    except Exception as error:
        if not database_unreachable(error):
            raise


def _move_presence(old: str | None, new: str) -> None:
    if old is not None:
        presence.leave(old)
    presence.arrive(new)
