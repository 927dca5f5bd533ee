"""The websockets' AsyncAPI document (games/asyncapi.py, /api/websocket.json) against the consumers.

The document must be valid AsyncAPI 2.6 (checked with AsyncAPI's own JSON
Schema, asyncapi-2.6.0.schema.json beside this file), every payload a valid
JSON Schema, and every message the real consumers send in a whole exchange
(tables as players and spectators, moves, chat, refusals, the lobby both
ways, My matches) must fit the schema of its "type" on its channel, with no
key the document does not list; every message sent must fit the client's.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from pathlib import Path

import jsonschema
import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from django.test import Client
from jsonschema.exceptions import best_match
from referencing import Registry
from referencing.jsonschema import DRAFT7

from games import actions, asyncapi
from games.actions.challenges import accept_challenge, create_challenge
from games.actions.moderation import abort_table
from games.consumers import LobbyConsumer, MyMatchesConsumer, TableConsumer, base
from games.engine import rules_for
from games.models import BotLevel, BotStyle, ChallengeStatus, TableStatus
from games.words.chat import PHRASES
from tests.closed_schemas import close_objects
from tests.moderation.conftest import moderator, moderators_group  # noqa: F401
from tests.play import deal_again_from, pick_move, play_moves, start_table

from .conftest import TIMEOUT, Socket

pytestmark = [pytest.mark.django_db(transaction=True)]

# schemas/2.6.0.json of github.com/asyncapi/spec-json-schemas at 7dd3990 (Apache-2.0: the .LICENSE file beside it).
ASYNCAPI_2_6 = Path(__file__).with_name("asyncapi-2.6.0.schema.json")
DOCUMENT_URI = "http://testserver/api/websocket.json"
STRICT_URI = "http://testserver/api/websocket-strict.json"
CHANNELS = {"/ws/tables/": "/ws/tables/{table_id}/", "/ws/lobby/": "/ws/lobby/", "/ws/me/": "/ws/me/"}


class Protocol:
    """The document's messages by channel, direction ("publish": the client's, "subscribe": the server's) and type."""

    def __init__(self, document: dict) -> None:
        self.document = document
        self.registry = Registry().with_resources([
            (DOCUMENT_URI, DRAFT7.create_resource(document)),
            (STRICT_URI, DRAFT7.create_resource(close_objects(copy.deepcopy(document)))),
        ])
        self.names = {
            channel: {operation: self._by_type(item[operation]["message"]) for operation in ("publish", "subscribe")}
            for channel, item in document["channels"].items()
        }
        self.validators: dict[tuple[str, bool], jsonschema.Draft7Validator] = {}

    def _by_type(self, message: dict) -> dict[str, str]:
        names = [entry["$ref"].rsplit("/", 1)[1] for entry in message["oneOf"]]
        return {self.document["components"]["messages"][name]["payload"]["properties"]["type"]["const"]: name
                for name in names}

    def validator(self, name: str, strict: bool = True) -> jsonschema.Draft7Validator:
        if (name, strict) not in self.validators:
            self.validators[name, strict] = jsonschema.Draft7Validator(
                {"$ref": f"{STRICT_URI if strict else DOCUMENT_URI}#/components/messages/{name}/payload"},
                registry=self.registry)
        return self.validators[name, strict]

    def errors(self, channel: str, operation: str, message) -> str | None:
        """Why `message` does not fit; None when it does."""
        kind = message.get("type") if isinstance(message, dict) else None
        name = self.names[channel][operation].get(kind)
        if name is None:
            return f"{channel} {operation}: type {kind!r} is not in the schema"
        error = best_match(self.validator(name).iter_errors(message))
        return None if error is None else f"{channel} {operation} {kind}: {error.message} at {list(error.absolute_path)}"

    def check(self, channel: str, operation: str, message) -> None:
        problem = self.errors(channel, operation, message)
        assert problem is None, f"{problem}\n{json.dumps(message)[:2000]}"


PROTOCOL = Protocol(asyncapi.document())


def check_hidden_cards(message: dict) -> None:
    """A view holds the receiving seat's hand only: its length is that seat's count, a spectator's is empty."""
    view = message["view"]
    if view is None:
        return
    assert view["seat"] == message["your_seat"]
    if view["seat"] is None:
        assert view["hand"] == [] and view["legal_moves"] == []
    else:
        assert len(view["hand"]) == view["hand_counts"][view["seat"]]


class CheckedSocket(Socket):
    """A socket whose every message, received or sent, is checked against the document."""

    def __init__(self, application, path: str, headers) -> None:
        super().__init__(application, path, headers)
        self.channel = next(channel for prefix, channel in CHANNELS.items() if path.startswith(prefix))

    async def receive(self, timeout: float = TIMEOUT) -> dict:
        message = await super().receive(timeout)
        PROTOCOL.check(self.channel, "subscribe", message)
        if message["type"] == "view":
            check_hidden_cards(message)
        return message

    async def send(self, message) -> None:
        PROTOCOL.check(self.channel, "publish", message)
        await super().send(message)

    async def send_refused(self, message) -> None:
        """Send what the document says a client must not send (the server must refuse it too)."""
        assert PROTOCOL.errors(self.channel, "publish", message) is not None, message
        await super().send(message)

    async def answer(self, kind: str = "error", **where) -> dict:
        return await self.next(kind, where=lambda message: all(message.get(k) == v for k, v in where.items()))


@pytest_asyncio.fixture
async def open_socket(application):
    """`await open_socket(path, headers)`: a CheckedSocket, connected; all are closed after the test."""
    opened: list[CheckedSocket] = []

    async def open_one(path: str, headers) -> CheckedSocket:
        socket = CheckedSocket(application, path, await headers)
        opened.append(socket)
        assert await socket.connect(), f"{path} refused the handshake"
        return socket

    yield open_one
    for socket in opened:
        with contextlib.suppress(Exception):  # already closed by the server
            await socket.disconnect()


@pytest.fixture
def dave(make_user):
    return make_user("dave", display_name="Dave")


def received_types(*sockets: CheckedSocket) -> set[str]:
    return {message["type"] for socket in sockets for message in socket.received}


def table_path(table, invite: str | None = None) -> str:
    return f"/ws/tables/{table.pk}/" + (f"?invite={invite}" if invite else "")


# --- the document --------------------------------------------------------------------------
def test_the_document_is_valid_asyncapi_2_6():
    meta = json.loads(ASYNCAPI_2_6.read_text())
    registry = Registry().with_resource(meta["$id"], DRAFT7.create_resource(meta)).crawl()
    document = json.loads(json.dumps(asyncapi.document()))  # as served: plain JSON

    errors = [f"{list(error.absolute_path)}: {error.message}"
              for error in jsonschema.Draft7Validator(meta, registry=registry).iter_errors(document)]

    assert errors == []
    assert document["asyncapi"] == "2.6.0"


def test_every_payload_and_schema_is_a_json_schema_whose_refs_resolve():
    document = asyncapi.document()
    components = document["components"]
    schemas = [*components["schemas"].values(), *(message["payload"] for message in components["messages"].values())]
    for schema in schemas:
        jsonschema.Draft7Validator.check_schema(schema)
    resolver = PROTOCOL.registry.resolver(base_uri=DOCUMENT_URI)

    def refs(value):
        if isinstance(value, dict):
            if "$ref" in value:
                yield value["$ref"]
            for item in value.values():
                yield from refs(item)
        elif isinstance(value, list):
            for item in value:
                yield from refs(item)

    found = set(refs(document))
    for target in found:
        assert resolver.lookup(target).contents is not None
    assert "#/components/schemas/View" in found


def test_every_message_type_is_on_a_channel_and_every_example_fits():
    document = asyncapi.document()
    listed = {entry["$ref"] for item in document["channels"].values() for operation in ("publish", "subscribe")
              for entry in item[operation]["message"]["oneOf"]}
    assert listed == {f"#/components/messages/{name}" for name in document["components"]["messages"]}
    for name, message in document["components"]["messages"].items():
        for example in message.get("examples", []):
            error = best_match(PROTOCOL.validator(name).iter_errors(example["payload"]))
            assert error is None, f"{name} example {example['name']}: {error.message}"


def test_the_client_messages_are_what_the_consumers_accept():
    names = PROTOCOL.names
    assert set(names["/ws/tables/{table_id}/"]["publish"]) == set(TableConsumer.message_types)
    assert set(names["/ws/lobby/"]["publish"]) == set(LobbyConsumer.message_types)
    assert set(names["/ws/me/"]["publish"]) == set(MyMatchesConsumer.message_types)
    for consumer in (TableConsumer, LobbyConsumer, MyMatchesConsumer):
        assert all(callable(getattr(consumer, f"on_{kind}")) for kind in consumer.message_types)


def test_its_constants_are_the_codes_of_the_site():
    assert set(asyncapi.CLOSE_CODES) == {base.CLOSE_NOT_AUTHENTICATED, base.CLOSE_NOT_FOUND, base.CLOSE_FLOODING,
                                         base.CLOSE_UNAVAILABLE}
    assert (asyncapi.MAX_MESSAGE_BYTES, asyncapi.RATE_PER_SECOND, asyncapi.BURST) == (
        base.MAX_MESSAGE_BYTES, base.RATE_PER_SECOND, base.BURST)
    assert list(PHRASES) == asyncapi.PHRASES
    assert actions.chat.MAX_TEXT_CHARS == asyncapi.MAX_TEXT_CHARS
    assert set(asyncapi.RULES) == {"septica", "familie", "americana"} and all(rules_for(slug) for slug in asyncapi.RULES)
    assert list(TableStatus.values) == asyncapi.STATUSES
    assert (list(BotLevel.values), list(BotStyle.values)) == (asyncapi.BOT_LEVELS, asyncapi.BOT_STYLES)
    assert list(ChallengeStatus.values) == asyncapi.CHALLENGE_STATUSES


def test_the_published_schema_lets_clients_ignore_new_keys_and_says_which_cards_a_view_holds():
    pong = {"type": "pong", "new": 1}
    assert best_match(PROTOCOL.validator("pong", strict=False).iter_errors(pong)) is None
    assert best_match(PROTOCOL.validator("pong").iter_errors(pong)) is not None  # the tests' strict copy
    view = asyncapi.document()["components"]["schemas"]["View"]
    assert "only the receiving socket's own seat's cards" in view["description"]
    assert "hand_counts" in view["description"]


def test_it_is_served_to_anyone_as_json_at_api_websocket_json():
    response = Client().get("/api/websocket.json")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    served = response.json()
    assert served["servers"]["site"]["variables"]["host"]["default"] == "testserver"
    assert served["servers"]["site"]["protocol"] == "ws"
    assert served["channels"] == json.loads(json.dumps(asyncapi.document()["channels"]))
    assert Client().post("/api/websocket.json").status_code == 405


# --- the consumers' real messages ------------------------------------------------------------
async def moves_everywhere(sockets: list[CheckedSocket], seq: int) -> list[dict]:
    """Every socket's view at `seq` (or later)."""
    return [await socket.next("view", where=lambda message: message["seq"] >= seq) for socket in sockets]


@pytest.mark.asyncio
async def test_a_table_exchange_fits_the_schema(alice, bob, charlie, dave, open_socket, headers_for):
    table = await database_sync_to_async(start_table)(alice, [bob], options={"match": "points-8"})
    seated = {0: await open_socket(table_path(table), headers_for(alice)),
              1: await open_socket(table_path(table), headers_for(bob))}
    watcher = await open_socket(table_path(table), headers_for(charlie))
    anonymous = await open_socket(table_path(table), headers_for(None))
    everyone = [*seated.values(), watcher, anonymous]
    for socket in everyone:
        await socket.next("view")
        assert (await socket.next("chat_history"))["phrases"]
    await watcher.next("presence")

    # Legal moves from the view, whoever is to move.
    rng = random.Random(3)
    await seated[0].send({"type": "sync"})
    view = await seated[0].next("view")
    for _ in range(5):
        mover = seated[view["to_move"]]
        await mover.send({"type": "sync"})
        mine = await mover.next("view")
        await mover.send({"type": "move", "seq": mine["seq"], "move": pick_move(mine["view"], rng)})
        view = (await moves_everywhere(everyone, mine["seq"] + 1))[0]
    seq = view["seq"]
    mover, other = seated[view["to_move"]], seated[1 - view["to_move"]]

    # Refusals: a stale seq, a card not held, out of turn, a bad shape, a seq that is no number.
    await mover.send({"type": "move", "seq": seq - 1, "move": {"type": "take"}})
    assert (await mover.answer(status=409))["seq"] == seq
    hand = (await sync(mover))["hand"]
    not_held = next(code for code in ("AS", "KS", "QS", "JS", "TS", "9S") if code not in hand)
    await mover.send({"type": "move", "seq": seq, "move": {"type": "play", "card": not_held}})
    illegal = await mover.answer(status=400)
    assert illegal["code"] and "params" in illegal and illegal["seq"] == seq
    await other.send({"type": "move", "seq": seq, "move": {"type": "take"}})
    assert (await other.answer())["status"] == 403
    await mover.send_refused({"type": "move", "seq": seq})
    assert (await mover.answer())["status"] == 400
    await mover.send_refused({"type": "move", "seq": str(seq), "move": {"type": "take"}})
    assert (await mover.answer())["status"] == 400
    await mover.send_refused({"type": "sync", "seq": "seven"})
    assert (await mover.answer())["status"] == 400

    # Messages that are no message: not JSON, no object, no type, an unknown type, binary, too big.
    for text in ("{not json", "[1, 2]", '{"type": 5}', "[" * 40 + "]" * 40):
        await anonymous.send_text(text)
        assert (await anonymous.answer())["status"] == 400
    await anonymous.send_refused({"type": "dance"})
    assert "Unknown message type" in (await anonymous.answer())["error"]
    await anonymous.communicator.send_to(bytes_data=b"\x00\x01")
    assert (await anonymous.answer())["status"] == 400
    await anonymous.send_text(json.dumps({"type": "ping", "pad": "x" * base.MAX_MESSAGE_BYTES}))
    assert (await anonymous.answer())["status"] == 413

    # Ping and sync.
    await anonymous.send({"type": "ping"})
    await anonymous.next("pong")
    await watcher.send({"type": "sync", "seq": seq})
    assert (await watcher.next("view"))["seq"] == seq

    # Chat: text and phrases, in both rooms; refused lines.
    await seated[0].send({"type": "chat", "text": "  Hai noroc!  "})
    await seated[1].send({"type": "chat", "phrase": "good_game"})
    for socket in seated.values():
        lines = [(await socket.next("chat"))["line"] for _ in range(2)]
        assert sorted(line["words"] for line in lines) == ["Good game", "Hai noroc!"]
    await watcher.send({"type": "chat", "text": "Bob holds the seven!"})
    assert (await anonymous.next("chat"))["line"]["room"] == "spectators"
    await watcher.send_refused({"type": "chat", "text": "   "})
    assert (await watcher.answer(about="chat"))["code"] == "empty_line"
    await seated[0].send_refused({"type": "chat", "text": "hi", "phrase": "thanks"})
    assert (await seated[0].answer(about="chat"))["code"] == "text_or_phrase"
    await seated[0].send_refused({"type": "chat", "phrase": "goodbye"})
    assert (await seated[0].answer(about="chat"))["code"] == "unknown_phrase"
    await anonymous.send({"type": "chat", "phrase": "hello"})
    assert (await anonymous.answer(about="chat"))["status"] == 401  # "Log in to chat.", as over HTTP
    late = await open_socket(table_path(table), headers_for(dave))
    history = await late.next("chat_history")
    assert [line["words"] for line in history["lines"]] == ["Bob holds the seven!"]

    # The throttle: more than a burst at once.
    for _ in range(base.BURST + 5):
        await late.send({"type": "ping"})
    answers = []
    while len(answers) < base.BURST + 5:
        answer = await late.receive()
        if answer["type"] in ("pong", "error"):
            answers.append(answer)
    assert {answer.get("status") for answer in answers} == {None, 429}

    # Resigning ends a match of two: the seed and the result reach everyone.
    await seated[0].send({"type": "move", "seq": 0, "move": {"type": "resign"}})
    for socket in everyone:
        over = await socket.next("view", where=lambda message: message["status"] == "finished")
        assert over["seed"] and over["result"]["resigned"] == [0]
    assert received_types(*everyone, late) == {"view", "presence", "chat_history", "chat", "pong", "error"}


async def sync(socket: CheckedSocket) -> dict:
    await socket.send({"type": "sync"})
    return (await socket.next("view"))["view"]


@pytest.mark.asyncio
@pytest.mark.parametrize(("rules", "players", "options", "seed"), [
    ("septica", 3, {"match": "points-8"}, 37),
    ("septica", 4, {"match": "points-8", "teams": True}, 6),
    ("familie", 3, {}, 42),
    ("americana", 2, {"jokers": True}, 0),
    ("americana", 3, {"jokers": True, "pairs": True, "jacks_draw": True}, 8),
])
async def test_every_view_of_a_whole_match_fits_the_schema(
        rules, players, options, seed, alice, bob, charlie, dave, open_socket, headers_for):
    people = [alice, bob, charlie, dave][:players]
    table = await database_sync_to_async(start_table)(people[0], people[1:], rules=rules, players=players,
                                                      options=options)
    await database_sync_to_async(deal_again_from)(table, seed)
    sockets = [await open_socket(table_path(table), headers_for(person)) for person in people]
    sockets.append(await open_socket(table_path(table), headers_for(None)))
    for socket in sockets:
        await socket.next("view")

    await database_sync_to_async(play_moves)(table, seed=seed)

    for socket in sockets:
        over = await socket.next("view", where=lambda message: message["status"] == "finished")
        assert over["view"]["finished"] and over["result"]["winners"] is not None


@pytest.mark.asyncio
async def test_leaving_and_private_tables_fit_the_schema(
        alice, bob, charlie, moderator, open_socket, headers_for):  # noqa: F811
    table = await database_sync_to_async(start_table)(alice, [bob, charlie], players=3, options={"match": "points-8"},
                                                      private=True)
    await database_sync_to_async(deal_again_from)(table, 37)
    await database_sync_to_async(play_moves)(table, 12, seed=37)
    mine = await open_socket(table_path(table), headers_for(alice))
    theirs = await open_socket(table_path(table), headers_for(bob))
    watcher = await open_socket(table_path(table, table.invite_code), headers_for(None))
    assert (await mine.next("view"))["invite_url"]
    assert "invite_url" not in await watcher.next("view")
    assert (await watcher.next("chat_history"))["room"] is None

    assert await database_sync_to_async(actions.abort)(table.pk, alice) == "asked"  # past the second trick
    request = (await theirs.next("view", where=lambda message: message["abort_request"]))["abort_request"]
    assert request["you_may_answer"] and request["asked_by_seat"] == 0
    await database_sync_to_async(actions.answer_abort)(table.pk, bob, False)
    await theirs.next("view", where=lambda message: message["abort_request"] is None)

    other = await database_sync_to_async(start_table)(alice, [bob], options={"match": "points-8"})
    socket = await open_socket(table_path(other), headers_for(bob))
    await socket.next("view")
    await database_sync_to_async(abort_table)(moderator, other.pk, "Testing the schema.")
    aborted = await socket.next("view", where=lambda message: message["status"] == "aborted")
    assert aborted["abort_reason"] and aborted["abort_by"] == "moderator"


@pytest.mark.asyncio
async def test_refused_sockets_send_an_error_that_fits_before_their_close_code(
        alice, bob, charlie, open_socket, headers_for, settings):
    private = await database_sync_to_async(start_table)(alice, [bob], private=True)
    outsider = await open_socket(table_path(private), headers_for(charlie))
    assert (await outsider.answer())["status"] == 404
    assert await outsider.close_code() == base.CLOSE_NOT_FOUND

    missing = await open_socket("/ws/tables/999999/", headers_for(alice))
    assert await missing.close_code() == base.CLOSE_NOT_FOUND

    bad_token = await open_socket(f"/ws/tables/{private.pk}/?token=sep_not-a-token", no_headers())
    assert (await bad_token.answer())["status"] == 401
    assert await bad_token.close_code() == base.CLOSE_NOT_AUTHENTICATED

    nobody = await open_socket("/ws/me/", headers_for(None))
    assert (await nobody.answer())["status"] == 401
    assert await nobody.close_code() == base.CLOSE_NOT_AUTHENTICATED

    settings.LOBBY_ANONYMOUS_SOCKETS_PER_ADDRESS = 1
    first = await open_socket("/ws/lobby/", headers_for(None))
    await first.next("lobby")
    one_too_many = await open_socket("/ws/lobby/", headers_for(None))
    assert (await one_too_many.answer())["status"] == 429
    assert await one_too_many.close_code() == base.CLOSE_FLOODING


@pytest.mark.asyncio
async def test_the_analysis_ready_message_fits_the_schema_and_reaches_every_socket_of_the_table(
        alice, bob, open_socket, headers_for, settings, sent_tasks):
    from games import tasks

    settings.ANALYSIS_ROUNDS, settings.ANALYSIS_DECISIONS_PER_RUN, settings.ANALYSIS_SLOTS = 4, 1000, 100
    table = await database_sync_to_async(start_table)(alice, [bob])
    await database_sync_to_async(deal_again_from)(table, 3)
    await database_sync_to_async(play_moves)(table, seed=3)
    sockets = [await open_socket(table_path(table), headers_for(person)) for person in (alice, None)]
    for socket in sockets:
        await socket.next("view")

    assert await database_sync_to_async(tasks.analyse_match)(table.pk, 0)

    for socket in sockets:
        assert await socket.next("analysis_ready") == {"type": "analysis_ready", "table": table.pk}


async def no_headers() -> list:
    return []


@pytest.mark.asyncio
async def test_the_lobby_both_ways_fits_the_schema(alice, bob, charlie, open_socket, headers_for):
    bots = [actions.BotSpec(seat=1, level=BotLevel.EXPERT, style=BotStyle.AGGRESSIVE)]
    await database_sync_to_async(actions.create_table)(alice, rules="septica", players=3, bots=bots,
                                                       options={"match": "points-8"})
    plain = await open_socket("/ws/lobby/", headers_for(None))
    changes = await open_socket("/ws/lobby/?changes=1", headers_for(alice))
    mine = await open_socket("/ws/lobby/", headers_for(bob))
    for socket in (plain, changes, mine):
        first = await socket.next("lobby")
        assert first["tables"][0]["seats"][1]["bot"]["level"] == BotLevel.EXPERT

    table = await database_sync_to_async(actions.create_table)(bob, rules="americana", players=2, rated=False)
    assert len((await plain.next("lobby", where=lambda message: len(message["tables"]) == 2))["tables"]) == 2
    assert (await changes.next("lobby_changes", where=lambda message: table.pk in message["order"]))["order"][0] == table.pk
    assert (await mine.next("lobby", where=lambda message: len(message["tables"]) == 2))["tables"][0]["your_seat"] == 0

    await database_sync_to_async(actions.join_table)(table.pk, charlie)
    await changes.next("lobby_changes", where=lambda message: table.pk not in message["order"])
    await plain.next("lobby", where=lambda message: len(message["tables"]) == 1)

    await changes.send({"type": "ping"})
    await changes.next("pong")
    await changes.send_refused({"type": "move", "seq": 0, "move": {"type": "take"}})
    assert (await changes.answer())["status"] == 400
    assert received_types(plain, changes, mine) == {"lobby", "lobby_changes", "pong", "error"}


@pytest.mark.asyncio
async def test_my_matches_and_its_challenges_fit_the_schema(alice, bob, open_socket, headers_for):
    finished = await database_sync_to_async(start_table)(alice, [bob], options={"match": "points-8"})
    await database_sync_to_async(play_moves)(finished)
    mine = await open_socket("/ws/me/", headers_for(alice))
    theirs = await open_socket("/ws/me/", headers_for(bob))
    assert (await mine.next("my_matches"))["tables"][0]["status"] == "finished"
    await theirs.next("my_matches")

    challenge = await database_sync_to_async(create_challenge)(alice, [bob], rules="familie", players=2, options={})
    received = await theirs.next("my_matches", where=lambda message: message["challenges"]["received"])
    assert received["challenges"]["received"][0]["your_answer"] == "pending"
    assert (await mine.next("my_matches", where=lambda m: m["challenges"]["made"]))["challenges"]["made"]

    await database_sync_to_async(accept_challenge)(challenge.pk, bob)
    started = await mine.next("my_matches", where=lambda message: message["your_move"] == 1)
    assert started["challenges"]["made"][0]["invites"][0]["status"] == "accepted"

    rematch = await database_sync_to_async(actions.rematch)(finished.pk, alice)
    invited = await theirs.next("my_matches", where=lambda message: message["invitations"])
    assert invited["invitations"][0]["id"] == rematch.pk

    await theirs.send({"type": "ping"})
    await theirs.next("pong")
    await theirs.send_refused({"type": "sync"})
    assert (await theirs.answer())["status"] == 400
