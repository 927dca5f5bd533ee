"""/ws/lobby/ shares one lobby per change per server and language (issue 14, point 2).

Each viewer still gets exactly what GET /api/tables answers them: anonymous,
seated, holding a kept (rematch) seat, or outside every listed table, in
English and in Romanian. Anonymous lobby sockets are capped per address,
the address read as the HTTP side reads it.
"""

from __future__ import annotations

import contextlib

import orjson
import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from games import actions
from games.consumers import shared_lists
from games.models import Table
from tests.play import play_moves, start_table
from tests.realtime.conftest import ORIGIN, Socket, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

LANGUAGES = ("en", "ro")


def lobby_in_tables(alice, bob, charlie) -> None:
    """A rematch Alice opened (Bob's seat kept for him), a table of Charlie's with bots, one of Alice's."""
    finished = start_table(alice, [bob], options={"match": "points-8"})
    play_moves(finished)
    actions.rematch(finished.pk, alice)
    actions.create_table(
        charlie, rules="septica", players=3, bots=[actions.BotSpec(seat=2, level="expert", style="aggressive")],
    )
    actions.create_table(alice, rules="americana", players=2)


def kept_for_them(tables: list[dict]) -> bool:
    return any(seat["reserved_for_you"] for table in tables for seat in table["seats"])


def api_tables(user, language: str) -> list[dict]:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    response = client.get("/api/tables")
    assert response.status_code == 200
    return response.json()["tables"]


def headers(user, language: str) -> list:
    result = [ORIGIN, (b"accept-language", language.encode())]
    if user is not None:
        result.append((b"cookie", session_cookie(user)))
    return result


@pytest_asyncio.fixture
async def open_socket(application):
    """Open a socket from a given client address (the scope's "client", as daphne sets it)."""
    opened: list[Socket] = []

    async def open_one(path: str, headers, address: str = "127.0.0.1") -> Socket:
        socket = Socket(application, path, headers)
        socket.communicator.scope["client"] = (address, 50000 + len(opened))  # read when the application starts
        opened.append(socket)
        assert await socket.connect()
        return socket

    yield open_one
    for socket in opened:
        with contextlib.suppress(Exception):
            await socket.disconnect()


async def test_every_viewer_gets_what_the_api_answers_them_in_both_languages(alice, bob, charlie, make_user,
                                                                             open_socket):
    dave = await database_sync_to_async(make_user)("dave", display_name="Dave")
    await database_sync_to_async(lobby_in_tables)(alice, bob, charlie)
    viewers = {"anonymous": None, "alice (seated)": alice, "bob (seat kept)": bob, "charlie (seated)": charlie,
               "dave (outside)": dave}
    sockets = {}
    for name, user in viewers.items():
        for language in LANGUAGES:
            sockets[name, language] = await open_socket("/ws/lobby/", await database_sync_to_async(headers)(user, language))

    first = {}
    for (name, language), socket in sockets.items():
        first[name, language] = (await socket.next("lobby"))["tables"]
        assert first[name, language] == await database_sync_to_async(api_tables)(viewers[name], language), name
    # The viewers do differ: a kept seat, seats of one's own, the words of each language.
    assert kept_for_them(first["bob (seat kept)", "en"]) and not kept_for_them(first["dave (outside)", "en"])
    assert [table["your_seat"] for table in first["alice (seated)", "ro"]] == [0, None, 0]
    assert first["dave (outside)", "ro"] == first["anonymous", "ro"] != first["anonymous", "en"]

    new_table = await database_sync_to_async(actions.create_table)(bob, rules="septica", players=2)

    for (name, language), socket in sockets.items():
        pushed = await socket.next("lobby", where=lambda message: message["tables"][0]["id"] == new_table.pk)
        assert pushed["tables"] == await database_sync_to_async(api_tables)(viewers[name], language), (name, language)


async def test_a_change_is_read_once_per_language_and_a_connect_reads_nothing_new(alice, bob, open_socket):
    await database_sync_to_async(actions.create_table)(alice, rules="septica", players=2)
    hub = shared_lists.hub(get_channel_layer())
    first = {language: [] for language in LANGUAGES}
    for language in LANGUAGES:
        for _ in range(10):
            first[language].append(await open_socket("/ws/lobby/", headers(None, language)))
    first["en"].append(await open_socket("/ws/lobby/", await database_sync_to_async(headers)(alice, "en")))
    for sockets in first.values():
        for socket in sockets:
            await socket.next("lobby")
    assert hub.builds == 2  # one per language, shared by 21 sockets

    table = await database_sync_to_async(actions.create_table)(bob, rules="septica", players=2)
    for sockets in first.values():
        for socket in sockets:
            await socket.next("lobby", where=lambda message: message["tables"][0]["id"] == table.pk)
    assert hub.builds == 4

    late = await open_socket("/ws/lobby/", headers(None, "ro"))
    assert (await late.next("lobby"))["tables"][0]["id"] == table.pk
    assert hub.builds == 4  # the lobby was fresh: the connect read nothing


async def test_anonymous_lobby_sockets_are_capped_per_address(alice, open_socket, settings):
    settings.LOBBY_ANONYMOUS_SOCKETS_PER_ADDRESS = 3
    admitted = [await open_socket("/ws/lobby/", headers(None, "en"), "198.51.100.7") for _ in range(3)]
    for socket in admitted:
        await socket.next("lobby")

    over = await open_socket("/ws/lobby/", headers(None, "en"), "198.51.100.7")

    refusal = await over.next("error")
    assert refusal["status"] == 429 and "Too many lobby connections" in refusal["error"]
    assert await over.close_code() == 4429
    assert not [message for message in over.received if message["type"] == "lobby"]
    # Others are not held back: another address, and a person logged in from the same one.
    await (await open_socket("/ws/lobby/", headers(None, "en"), "198.51.100.8")).next("lobby")
    signed_in = await database_sync_to_async(headers)(alice, "en")
    await (await open_socket("/ws/lobby/", signed_in, "198.51.100.7")).next("lobby")
    # A closed socket frees its place.
    await admitted[0].disconnect()
    await (await open_socket("/ws/lobby/", headers(None, "en"), "198.51.100.7")).next("lobby")


def forwarded(client: str) -> list:
    # As one nginx sends it: a header the visitor wrote, then the address it saw.
    return [*headers(None, "en"), (b"x-forwarded-for", f"198.51.100.250, {client}".encode())]


async def test_x_forwarded_for_escapes_nothing_unless_behind_a_proxy(open_socket, settings):
    settings.LOBBY_ANONYMOUS_SOCKETS_PER_ADDRESS = 2
    for number in range(2):
        await (await open_socket("/ws/lobby/", forwarded(f"203.0.113.{number}"), "10.0.0.1")).next("lobby")

    spoofed = await open_socket("/ws/lobby/", forwarded("203.0.113.9"), "10.0.0.1")

    assert await spoofed.close_code() == 4429


async def test_behind_a_proxy_each_forwarded_address_has_its_own_cap(open_socket, settings):
    # What BEHIND_PROXY=1 sets (septica_site/settings.py), as the log-in lock-out reads addresses.
    settings.BEHIND_PROXY = True
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    settings.LOBBY_ANONYMOUS_SOCKETS_PER_ADDRESS = 2
    for number in range(4):
        await (await open_socket("/ws/lobby/", forwarded(f"203.0.113.{number // 2}"), "10.0.0.1")).next("lobby")

    third = await open_socket("/ws/lobby/", forwarded("203.0.113.1"), "10.0.0.1")

    assert await third.close_code() == 4429


def open_tables(count: int, make_user) -> list[int]:
    return [actions.create_table(make_user(f"host{n}"), rules="septica", players=2).pk for n in range(count)]


async def test_every_socket_ends_with_the_newest_lobby_after_a_burst_of_changes(make_user, open_socket):
    sockets = [await open_socket("/ws/lobby/", headers(None, "en"), f"198.51.100.{n}") for n in range(40)]
    for socket in sockets:
        await socket.next("lobby")

    opened = await database_sync_to_async(open_tables)(5, make_user)

    for socket in sockets:
        newest = await socket.next("lobby", where=lambda message: len(message["tables"]) == 5)
        assert sorted(table["id"] for table in newest["tables"]) == sorted(opened)


def read_after(before: shared_lists.SharedLobby, changed: set[int]) -> tuple[shared_lists.SharedLobby, int]:
    """The lobby read again after `before`, only `changed` named, and the number of queries that took."""
    with translation.override("en"), CaptureQueriesContext(connection) as queries:
        lobby = shared_lists.read_lobby("en", before.number + 1, before.changes + 1, before, frozenset(changed))
    return lobby, len(queries)


async def test_a_change_reads_only_the_table_it_names_and_the_lobby_is_what_the_api_answers(make_user, bob, charlie):
    await database_sync_to_async(a_change_reads_only_the_table_it_names)(make_user, bob, charlie)


def a_change_reads_only_the_table_it_names(make_user, bob, charlie) -> None:
    tables = open_tables(30, make_user)
    with translation.override("en"):
        before = shared_lists.read_lobby("en", 1, 0)
    assert before.shared == api_tables(None, "en")

    actions.join_table(tables[5], bob)  # full: it leaves the lobby
    joined_later = actions.create_table(charlie, rules="septica", players=3).pk
    actions.join_table(joined_later, bob)
    opened = actions.create_table(make_user("newcomer"), rules="americana", players=2).pk
    # The change that opened `opened` is not named yet: a table the lobby did not list is read all the same.
    after, queries = read_after(before, {tables[5], joined_later})

    assert after.shared == api_tables(None, "en")
    assert [table["id"] for table in after.shared][:2] == [opened, joined_later]
    assert queries <= 5  # the listing's ids, the two tables, their seats, the reliabilities: not a read per table
    kept = {table.pk: table for table, _, _ in before.rows}
    assert all(table is kept[table.pk] for table, *_ in after.rows if table.pk not in (opened, joined_later))
    assert after.people == {row.user_id for _, seats, _ in after.rows for row in seats if row.user_id}


async def test_a_table_closed_between_the_listing_and_its_read_is_left_out(make_user):
    await database_sync_to_async(a_table_closed_between_the_listing_and_its_read_is_left_out)(make_user)


def a_table_closed_between_the_listing_and_its_read_is_left_out(make_user) -> None:
    tables = open_tables(3, make_user)
    with translation.override("en"):
        before = shared_lists.read_lobby("en", 1, 0)
    actions.leave_table(tables[1], Table.objects.get(pk=tables[1]).created_by)  # its maker leaves: it closes

    after, _ = read_after(before, set())  # the change not heard yet: the table is no longer listed

    assert [table["id"] for table in after.shared] == [tables[2], tables[0]] == [t["id"] for t in api_tables(None, "en")]


async def test_a_person_renamed_at_a_table_nobody_changed_shows_once_the_lobby_is_read_whole(make_user, open_socket):
    tables = await database_sync_to_async(open_tables)(3, make_user)
    socket = await open_socket("/ws/lobby/", headers(None, "en"))
    await socket.next("lobby")
    hub = shared_lists.hub(get_channel_layer())

    def rename_the_first_host(name: str) -> None:
        host = Table.objects.get(pk=tables[0]).created_by
        host.display_name = name
        host.save(update_fields=["display_name"])

    def shown(message: dict, name: str) -> bool:
        return any(table["created_by"] == name for table in message["tables"])

    await database_sync_to_async(rename_the_first_host)("Renamed")
    await database_sync_to_async(actions.join_table)(tables[2], await database_sync_to_async(make_user)("joiner"))
    # Within FRESH_SECONDS a change reads only its own table: the other tables are as they were read.
    pushed = await socket.next("lobby", where=lambda message: len(message["tables"]) == 2)
    assert not shown(pushed, "Renamed")

    hub.newest["en"].whole_at -= shared_lists.FRESH_SECONDS  # as if FRESH_SECONDS had passed since the whole read
    late_host = await database_sync_to_async(make_user)("late host")
    opened = await database_sync_to_async(actions.create_table)(late_host, rules="septica", players=2)
    pushed = await socket.next("lobby", where=lambda message: message["tables"][0]["id"] == opened.pk)
    assert shown(pushed, "Renamed")

    # A change that names no table (the layer's resync after a lost connection) reads every table.
    await database_sync_to_async(rename_the_first_host)("Renamed again")
    hub.changed()
    assert shown(await socket.next("lobby", where=lambda message: shown(message, "Renamed again")), "Renamed again")


def applied(tables: list[dict], changes: dict) -> list[dict]:
    """What the lobby page makes of a `lobby_changes` message (static/js/lobby.js)."""
    known = {table["id"]: table for table in tables}
    known.update({table["id"]: table for table in changes["tables"]})
    return [known[table_id] for table_id in changes["order"]]


async def test_a_socket_asking_for_changes_is_sent_only_them_and_ends_with_what_the_api_answers(
        alice, bob, charlie, make_user, open_socket):
    await database_sync_to_async(lobby_in_tables)(alice, bob, charlie)
    viewers = {"anonymous": None, "alice (seated)": alice, "bob (seat kept)": bob, "charlie (seated)": charlie}
    following, plain = {}, await open_socket("/ws/lobby/", headers(None, "en"))
    for name, user in viewers.items():
        for language in LANGUAGES:
            following[name, language] = await open_socket(
                "/ws/lobby/?changes=1", await database_sync_to_async(headers)(user, language))
    tables = {key: (await socket.next("lobby"))["tables"] for key, socket in following.items()}
    listed = len(tables["anonymous", "en"])
    await plain.next("lobby")

    async def everyone_sees_what_the_api_answers() -> None:
        for (name, language), socket in following.items():
            answer = await database_sync_to_async(api_tables)(viewers[name], language)
            while tables[name, language] != answer:  # a change may come in more than one push
                changes = await socket.next("lobby_changes")
                assert len(changes["tables"]) <= 1 < len(changes["order"])  # one table's news, not the list
                tables[name, language] = applied(tables[name, language], changes)

    new_table = await database_sync_to_async(actions.create_table)(bob, rules="septica", players=3)
    await everyone_sees_what_the_api_answers()
    assert len(tables["anonymous", "en"]) == listed + 1
    # A plain socket is still sent the whole list.
    assert len((await plain.next("lobby"))["tables"]) == listed + 1

    await database_sync_to_async(actions.join_table)(new_table.pk, charlie)
    await everyone_sees_what_the_api_answers()
    assert [table["your_seat"] for table in tables["charlie (seated)", "en"] if table["id"] == new_table.pk] == [1]

    await database_sync_to_async(actions.leave_table)(new_table.pk, bob)  # its maker leaves: it is closed
    await everyone_sees_what_the_api_answers()
    assert new_table.pk not in [table["id"] for table in tables["anonymous", "ro"]]
    assert len(tables["anonymous", "ro"]) == listed
    for socket in following.values():
        assert not [message for message in socket.received if message["type"] == "lobby"][1:]  # the whole list once


async def test_changes_name_the_order_and_carry_only_the_tables_that_differ():
    one, two, three = ({"id": number, "seats_taken": 1} for number in (1, 2, 3))

    assert shared_lists.encode_changes([one, two], [one, two]) is None
    moved = orjson.loads(shared_lists.encode_changes([one, two], [two, one]).utf8)
    assert moved == {"type": "lobby_changes", "order": [2, 1], "tables": []}
    changed = orjson.loads(shared_lists.encode_changes([one, two], [three, {**two, "seats_taken": 2}]).utf8)
    assert changed == {"type": "lobby_changes", "order": [3, 2], "tables": [three, {"id": 2, "seats_taken": 2}]}
    assert applied([one, two], changed) == [three, {"id": 2, "seats_taken": 2}]


async def test_the_changes_since_each_older_lobby_are_made_once_for_all_its_sockets(monkeypatch):
    def lobby(number: int, tables: list[dict]) -> shared_lists.SharedLobby:
        return shared_lists.SharedLobby("en", number, number, 0.0, 0.0, [], tables, frozenset())

    # Read again after FRESH_SECONDS without a change: the same tables, another lobby.
    older, same_again, newest = lobby(1, [{"id": 1}]), lobby(2, [{"id": 1}]), lobby(3, [{"id": 2}, {"id": 1}])
    made = []
    encode_changes = shared_lists.encode_changes
    monkeypatch.setattr(shared_lists, "encode_changes", lambda *lists: made.append(1) or encode_changes(*lists))

    # Sockets holding one or the other, in turn, as the hub reaches them.
    texts = [newest.shared_changes_since(held) for held in [older, same_again] * 50]

    assert len(made) == 2
    assert {tuple(orjson.loads(text.utf8)["order"]) for text in texts} == {(2, 1)}


async def test_the_shared_lobby_text_is_sent_as_its_own_utf8():
    text = shared_lists.encode([{"words": "Șeptică la masa lui Ștefan"}])

    assert isinstance(text, str)
    assert text.encode("utf8") == str(text).encode("utf-8") == text.utf8  # what daphne writes is the plain text's UTF-8
    assert text.encode("utf-16") == str(text).encode("utf-16")
