"""What every consumer shares: reading client messages, throttling, errors,
closing when the credential it was opened with ends (accounts/credentials.py),
and living through a database that does not answer (see `dispatch`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import orjson
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation

from accounts import credentials
from septica_site import client_json
from septica_site.languages import language_for_scope
from septica_site.outage import database_unreachable

from ..after_commit import publish
from ..words.unavailable import DATABASE_UNAVAILABLE, database_unavailable
from .catch_up import behind

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 16 * 1024
RATE_PER_SECOND = 10.0
BURST = 20
FLOOD_CLOSE_AFTER = 200  # messages dropped by the throttle before the socket is closed

CLOSE_NOT_AUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_FLOODING = 4429
CLOSE_UNAVAILABLE = 4503  # Redis or the database unreachable: try again soon (servers may not send 1013)
CLOSE_GONE = 1006  # no close frame: the browser went without one


class BadMessage(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


class TokenBucket:
    """RATE_PER_SECOND messages a second on average, BURST at once."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def parse_message(text_data: str | None) -> dict:
    """The client's message as a dict with a "type", or BadMessage (413 before parsing when too big)."""
    if text_data is None:
        raise BadMessage(400, "Send JSON text messages, not binary ones.")
    if len(text_data) > MAX_MESSAGE_BYTES or len(text_data.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise BadMessage(413, f"A message may be at most {MAX_MESSAGE_BYTES} bytes.")
    try:
        message = client_json.parse(text_data)
    except client_json.Unreadable as refusal:
        raise BadMessage(400, f"The message is {refusal}.") from None
    except ValueError:
        raise BadMessage(400, "The message is not valid JSON.") from None
    if not isinstance(message, dict):
        raise BadMessage(400, "A message must be a JSON object with a \"type\".")
    if not isinstance(message.get("type"), str):
        raise BadMessage(400, "A message needs a \"type\".")
    return message


def database_failed(error: Exception) -> bool:
    """Whether `error` is the database unreachable or timed out, which a socket lives through.

    Not the consumer ending, the browser gone or Redis away (see
    `SepticaConsumer.__call__`), whatever error they followed."""
    return not isinstance(error, (StopConsumer, Disconnected, *publish.REDIS_DOWN)) and database_unreachable(error)


class SepticaConsumer(AsyncJsonWebsocketConsumer):
    """Throttled JSON messages dispatched on "type" to `on_<type>` methods."""

    message_types: tuple[str, ...] = ("ping",)
    credential: credentials.Credential | None = None
    credential_ended = False

    accepted = False

    async def __call__(self, scope, receive, send):
        self.left = False
        try:
            await super().__call__(scope, receive, send)
        except publish.REDIS_DOWN as error:
            # Redis is unreachable (the channel layer, or the cache that presence
            # lives in): a clean close, never a 500 or a 1011; the page polls
            # meanwhile and its socket tries again. Accepted first: a handshake
            # refused (daphne's 403) shows the browser no code to tell "try again
            # soon" from "you may not". No message goes with it, so the page's
            # retries keep backing off.
            publish.logger.warning("socket closed, Redis is unreachable: %r", error)
            if not self.accepted:
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})
        except Disconnected:
            # daphne's answer to a send after the browser went (a tab closed while
            # the table was still being sent): the socket is gone, not broken.
            await self._leave_once(CLOSE_GONE)

    async def _leave_once(self, code: int) -> None:
        """What websocket_disconnect does, for a consumer that ended before hearing of the close."""
        if self.left:
            return
        with contextlib.suppress(StopConsumer):
            await self.websocket_disconnect({"type": "websocket.disconnect", "code": code})

    async def websocket_connect(self, message):
        publish.remember_server_loop(asyncio.get_running_loop())
        self.bucket, self.dropped = TokenBucket(), 0
        await super().websocket_connect(message)

    async def accept(self, subprotocol=None, headers=None):
        """Accept, listening for the end of the socket's credential (every consumer, on every accept)."""
        self.credential = credentials.of_scope(self.scope)
        if self.credential is not None:
            await self.channel_layer.group_add(credentials.group(self.credential.user_id), self.channel_name)
        await super().accept(subprotocol, headers)
        self.accepted = True

    async def websocket_disconnect(self, message):
        # Channels' own ends with a hop to the sync thread to close stale
        # database connections (see `dispatch`): for every socket that closes.
        self.left = True
        behind().forget(self)
        try:
            if self.credential is not None:
                await self.channel_layer.group_discard(credentials.group(self.credential.user_id), self.channel_name)
            for group in self.groups:
                await self.channel_layer.group_discard(group, self.channel_name)
        finally:
            await self.disconnect(message["code"])
        raise StopConsumer()

    async def dispatch(self, message):
        if self.credential_ended and message["type"] != "websocket.disconnect":
            return  # closed for its credential: no move, view or list may follow the close
        # Words in lists, views and errors read in the page's language; the
        # database thread inherits it through the context.
        if not hasattr(self, "language"):
            self.language = language_for_scope(self.scope)
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        # Channels' own dispatch first hops to the sync thread to close stale
        # database connections, for every message of every socket: a round
        # trip to another thread that most messages do not need. Every
        # database call here goes through `db()` (consumers/database.py),
        # which closes a connection that a call left in doubt.
        with translation.override(self.language):
            try:
                await handler(message)
            except Exception as error:
                if not database_failed(error):
                    raise
                await self.database_did_not_answer(error, message["type"] == "websocket.receive")

    async def on_its_own(self, read) -> None:
        """`await read()`, a read the socket makes in a task of its own, surviving the database as `dispatch` does."""
        try:
            await read()
        except Exception as error:
            if not database_failed(error):
                raise
            await self.database_did_not_answer(error, the_clients=False)

    async def database_did_not_answer(self, error: Exception, the_clients: bool) -> None:
        """A handler's database work failed with the database unreachable or timed out: the socket lives on.

        Ending the consumer (Channels' way with any error) closed the socket on
        its browser, which then had to open it again, with the database still
        away. Nothing was done: a move's or a chat line's transaction never
        committed, so the client may send it again, the same seq with it. A
        message of the client's is answered with a 503 refusal; whatever the
        socket missed (an announcement's view, a list) it reads again once the
        database answers (consumers/catch_up.py). Only a socket that has not
        been accepted yet, with nothing to show, is closed, as with Redis away:
        4503 with no message first, and the page tries again soon."""
        logger.warning("%s: the database did not answer: %r", type(self).__name__, error)
        if not self.accepted:
            await AsyncJsonWebsocketConsumer.accept(self)  # not self.accept(): this socket hears of no credential
            self.accepted = True
            return await self.close(CLOSE_UNAVAILABLE)
        if the_clients:
            await self.send_database_unavailable()
        behind().note(self)

    async def send_database_unavailable(self, **extra) -> None:
        with translation.override(self.language):  # also from a task of the socket's own
            await self.send_error(503, database_unavailable(), code=DATABASE_UNAVAILABLE, **extra)

    async def catch_up(self) -> None:
        """Once the database answers again (consumers/catch_up.py): `read_again`, in the socket's language."""
        with translation.override(self.language):
            await self.read_again()

    async def read_again(self) -> None:
        """Read and send what the socket may have missed while the database did not answer."""

    @classmethod
    async def encode_json(cls, content) -> str:
        # orjson: a view is encoded once per socket per move, and the standard
        # library's encoder is the largest single cost of sending it.
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()

    @property
    def user(self):
        return self.scope.get("user")

    @property
    def authenticated(self) -> bool:
        return self.user is not None and self.user.is_authenticated

    async def refuse(self, code: int, status: int, message: str) -> None:
        """Refuse after accepting, so the client sees why (a refused handshake shows no code)."""
        await super().accept()  # not self.accept(): a refused socket hears of no credential
        self.accepted = True
        await self.send_error(status, message)
        await self.close(code)

    async def close_for_credential(self, message: str) -> None:
        self.credential_ended = True
        await self.send_error(401, message)
        await self.close(CLOSE_NOT_AUTHENTICATED)

    async def credentials_ended(self, event) -> None:
        """A credential of this socket's person ended: close if it is this socket's."""
        if self.credential is not None and self.credential.ended_by(event):
            await self.close_for_credential(credentials.why_in_words(event["why"]))

    async def send_error(self, status: int, message: str, **extra) -> None:
        await self.send_json({"type": "error", "status": status, "error": message, **extra})

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        if not self.bucket.take():
            self.dropped += 1
            if self.dropped >= FLOOD_CLOSE_AFTER:
                await self.close(CLOSE_FLOODING)
            else:
                await self.send_error(429, "Too many messages: slow down.")
            return
        try:
            message = parse_message(text_data)
            if message["type"] not in self.message_types:
                raise BadMessage(400, f"Unknown message type {message['type'][:40]!r}.")
            await getattr(self, f"on_{message['type']}")(message)
        except BadMessage as refusal:
            await self.send_error(refusal.status, refusal.message)

    async def on_ping(self, message) -> None:
        await self.send_json({"type": "pong"})
