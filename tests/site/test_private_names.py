"""The private names of other libraries that the site uses still do what it uses them for.

Each library's are in one module, and these tests fail when an upgrade of
the (pinned) library removes or changes them:

- Django: septica_site/django_private.py (related caches, prefetched rows);
  the SQLite backend's transaction hooks (septica_site/db_backends/sqlite3/),
  tested by tests/site/test_sqlite_writers.py; `request._dont_enforce_csrf_checks`
  (accounts/middleware.py), tested here.
- Channels: septica_site/channels_private.py (the in-memory layer's sweep).
- channels_redis: septica_site/channels_redis_private.py (the loop layers, their shards' receive
  task, and the streams of a redis-py connection).
- kombu and celery: the Redis channel's second close (septica_site/celery.py),
  tested by tests/site/test_worker_survives_redis.py.
- django-allauth: the shape of its cache keys (septica_site/allauth_private.py),
  tested by tests/site/test_allauth_private.py.
- requests: `Response._content`, which notify/addresses.py fills with the first
  16 kB of a push service's answer read from a streamed response, tested here.

Also here, names that are not private but are undocumented insides the site
leans on: what `connection.cursor()` does to a cursor (games/sql/prepared.py
does the same to its own), a model instance's copy having its own relation
caches (games/consumers/snapshots.py), and asgiref naming the server's event
loop inside a sync call (games/after_commit/publish.py).
"""

from __future__ import annotations

import asyncio
import copy
import os

import pytest
import redis.asyncio
from asgiref.sync import SyncToAsync, sync_to_async
from channels.layers import InMemoryChannelLayer
from django.db import connection
from django.db.models import QuerySet
from django.http import HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.test.utils import CaptureQueriesContext

from games.models import Match, Seat, Table
from games.sql.prepared import cursor_for
from septica_site import channels_redis_private, django_private
from septica_site.channel_layers import RedisPubSubLayer
from septica_site.channels_private import InMemoryLayerWithSweepHook
from tests.play import start_table

from .redis_server import RedisServer, have_redis_server


# --- Django -------------------------------------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("holder", ["related manager's queryset", "bare queryset"])
def test_prefetched_rows_answer_all_without_a_query(alice, bob, holder, django_assert_num_queries):
    start_table(alice, [bob])
    table = Table.objects.get()
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("number"))

    django_private.cache_prefetched(table, "seats", seats, table.seats.all() if holder.startswith("related")
                                    else QuerySet(model=Seat))

    with django_assert_num_queries(0):
        answered = list(table.seats.all())
        assert table.seats.count() == 2
    assert [id(seat) for seat in answered] == [id(seat) for seat in seats]


@pytest.mark.django_db
def test_a_related_object_is_cached_on_both_sides_and_can_be_forgotten(alice, bob, django_assert_num_queries):
    start_table(alice, [bob])
    match = Match.objects.select_related("table").get()

    with django_assert_num_queries(0):
        table = django_private.cached_related(match, "table")
        assert table is match.table
        assert django_private.cached_related(table, "match") is match
    django_private.forget_related(match, "table")

    assert django_private.cached_related(match, "table") is None
    with django_assert_num_queries(1):
        assert match.table.pk == table.pk and match.table is not table


@pytest.mark.django_db
def test_a_copied_instance_has_relation_caches_of_its_own(alice, bob):
    start_table(alice, [bob])
    table = Table.objects.select_related("match").get()
    copied = copy.copy(table)

    other = copy.copy(table.match)
    copied.match = other

    assert table.match is not other and copied.match is other


@pytest.mark.django_db
def test_the_move_paths_cursor_is_wrapped_as_djangos_own_cursors_are(alice):
    seen = []

    def wrapper(execute, sql, params, many, context):
        seen.append(sql)
        return execute(sql, params, many, context)

    with CaptureQueriesContext(connection) as logged, connection.execute_wrapper(wrapper), cursor_for(connection) as cursor:
        cursor.execute("SELECT %s", [42])
        assert cursor.fetchone() == (42,)

    assert seen == ["SELECT %s"]
    assert len(logged.captured_queries) == 1  # logged, as Django's debug cursor logs a query


def test_a_request_marked_dont_enforce_csrf_checks_passes_the_csrf_middleware(rf):
    middleware = CsrfViewMiddleware(lambda request: HttpResponse())
    marked, plain = rf.post("/api/tables/"), rf.post("/api/tables/")
    marked._dont_enforce_csrf_checks = True

    assert middleware.process_view(marked, lambda request: None, (), {}) is None
    assert middleware.process_view(plain, lambda request: None, (), {}).status_code == 403


# --- Channels -----------------------------------------------------------------------
class CountedSweeps(InMemoryLayerWithSweepHook):
    def __init__(self, *args, due: bool = True, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.due, self.asked = due, 0

    def sweep_due(self) -> bool:
        self.asked += 1
        return self.due


@pytest.mark.asyncio
@pytest.mark.parametrize("due", [True, False])
async def test_channels_own_group_send_sweeps_through_the_hook(due):
    layer = CountedSweeps(expiry=-1, due=due)  # every message expired at once
    unread = await layer.new_channel()
    await layer.group_add("table-1", unread)
    await layer.send(unread, {"type": "match.changed", "seq": 1})

    await InMemoryChannelLayer.group_send(layer, "table-1", {"type": "match.changed", "seq": 2})

    assert layer.asked == 1
    assert (unread in layer.groups.get("table-1", {})) is not due, "a sweep drops a channel whose message expired"


@pytest.mark.asyncio
async def test_channels_own_receive_sweeps_through_the_hook():
    layer = CountedSweeps()
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "match.changed", "seq": 1})

    assert await asyncio.wait_for(layer.receive(channel), 1) == {"type": "match.changed", "seq": 1}
    assert layer.asked == 1


# --- channels_redis -----------------------------------------------------------------
@pytest.mark.asyncio
async def test_group_channels_and_shards_are_the_loop_layers_own():
    hosts = [f"redis://127.0.0.1:{port}/0" for port in (6391, 6392, 6395)]  # never connected to
    layer = RedisPubSubLayer(hosts=hosts, prefix="private-names")
    try:
        loop_layer = channels_redis_private.loop_layer(layer)
        assert channels_redis_private.loop_layer(layer) is loop_layer
        indexes = set()
        for group in ("lobby", "match.1", "match.2", "match.3", "user.17", "user.18"):
            channel = channels_redis_private.group_channel("private-names", group)
            assert channel == loop_layer._get_group_channel_name(group)
            index = channels_redis_private.shard_index(channel, len(hosts))
            assert loop_layer._shards[index] is loop_layer._get_shard(channel)
            indexes.add(index)
        assert len(indexes) > 1, "the groups spread over the shards"
        client = channels_redis_private.shard_client(loop_layer, 2)
        assert isinstance(client, redis.asyncio.Redis) and client is channels_redis_private.shard_client(loop_layer, 2)
        assert channels_redis_private.pubsub_connections(loop_layer) == []  # nothing subscribed yet
        assert channels_redis_private.local_groups(loop_layer) == []
    finally:
        await layer.flush()


@pytest.fixture(scope="module")
def own_redis():
    if not have_redis_server():
        pytest.skip("needs redis-server to start a Redis of its own")
    server = RedisServer()
    server.start()
    yield server
    server.stop()


async def received(layer, channel: str) -> dict:
    return await asyncio.wait_for(layer.receive(channel), 5)


@pytest.mark.asyncio
async def test_a_loop_layers_groups_channels_and_clients_work_as_the_redis_layer_uses_them(own_redis):
    layer = RedisPubSubLayer(hosts=[own_redis.url], prefix=f"private-names-{os.getpid()}")
    try:
        channel = await layer.new_channel()
        await layer.group_add("match.7", channel)
        loop_layer = channels_redis_private.loop_layer(layer)

        assert channels_redis_private.local_groups(loop_layer) == ["match.7"]
        assert channels_redis_private.deliver_locally(loop_layer, "match.7", layer.serialize({"type": "a"})) == 1
        assert channels_redis_private.deliver_locally(loop_layer, "match.8", layer.serialize({"type": "b"})) == 0
        assert await received(layer, channel) == {"type": "a"}

        await layer.group_send_many([("match.7", {"type": "pipelined"})])  # on the shard's own client
        assert await received(layer, channel) == {"type": "pipelined"}
        await asyncio.to_thread(layer.group_send_many_blocking, [("match.7", {"type": "blocking"})])
        assert await received(layer, channel) == {"type": "blocking"}
    finally:
        await layer.flush()


@pytest.mark.asyncio
async def test_when_the_pub_sub_connection_comes_back_the_local_groups_read_again(own_redis):
    layer = RedisPubSubLayer(hosts=[own_redis.url], prefix=f"private-names-{os.getpid()}",
                             resync_message="games.after_commit.publish.resync_message")
    try:
        channel = await layer.new_channel()
        await layer.group_add("match.7", channel)
        (pubsub,) = channels_redis_private.pubsub_connections(channels_redis_private.loop_layer(layer))

        await pubsub.disconnect()  # as a dropped connection: the layer's reader connects again

        assert await received(layer, channel) == {"type": "table.changed", "table": 7}
        await layer.group_send("match.7", {"type": "after"})  # subscribed again, too
        assert await received(layer, channel) == {"type": "after"}
    finally:
        await layer.flush()


@pytest.mark.asyncio
async def test_a_shard_reads_its_pub_sub_connection_with_the_receive_loop_it_is_given(own_redis):
    layer = RedisPubSubLayer(hosts=[own_redis.url], prefix=f"private-names-{os.getpid()}")
    handed: list = []

    async def receive(pubsub, deliver) -> None:
        handed.append((pubsub, deliver))
        while True:
            subscriber = pubsub()
            message = await subscriber.get_message(timeout=0.1) if subscriber and subscriber.subscribed else None
            if message is not None and message["type"] == "message":
                deliver(message)
            await asyncio.sleep(0)

    try:
        loop_layer = channels_redis_private.loop_layer(layer)
        channels_redis_private.receive_with(loop_layer, receive)
        channels_redis_private.receive_with(loop_layer, receive)  # once is enough: nothing changes
        channel = await layer.new_channel()
        await layer.group_add("match.7", channel)
        await layer.group_send("match.7", {"type": "heard"})

        assert await received(layer, channel) == {"type": "heard"}
        assert len(handed) == 1
        (connection,) = channels_redis_private.pubsub_connections(loop_layer)
        reader, writer = channels_redis_private.connection_streams(connection)
        assert isinstance(reader, asyncio.StreamReader) and isinstance(writer, asyncio.StreamWriter)
    finally:
        await layer.flush()


# --- asgiref --------------------------------------------------------------------------
@pytest.mark.asyncio
async def test_a_sync_call_knows_the_event_loop_that_called_it():
    def loop_named():
        return SyncToAsync.threadlocal.main_event_loop, SyncToAsync.threadlocal.main_event_loop_pid

    assert await sync_to_async(loop_named, thread_sensitive=False)() == (asyncio.get_running_loop(), os.getpid())


# --- autobahn ---------------------------------------------------------------------------
def autobahn_calls(module, names: set[str]) -> list[tuple[int, str, str]]:
    """Every call of `names` in `module`'s source: its line, the name, and the log method it feeds (or what else)."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(module))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    calls = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
            keyword = parents[node]
            log_call = parents.get(keyword) if isinstance(keyword, ast.keyword) else None
            if log_call is not None and isinstance(log_call.func, ast.Attribute) and ast.unparse(log_call.func.value) == "self.log":
                calls.append((node.lineno, node.func.id, log_call.func.attr))
            else:
                calls.append((node.lineno, node.func.id, ast.unparse(keyword)))
    return calls


def test_autobahns_helpers_made_lazy_feed_only_its_log_lines_but_the_timings_string():
    from autobahn.websocket import protocol

    from septica_site import autobahn_private

    log_methods = {"debug", "info", "warn", "error", "failure", "trace"}
    for module in autobahn_private.MODULES:
        for line, name, use in autobahn_calls(module, {"hltype", "hlval", "pformat"}):
            if use in log_methods:
                continue
            # The one exception: Timings.__str__ returns pformat of its dict, which stays eager.
            assert (module, name, use) == (protocol, "pformat", "return pformat(self._timings)"), (module, line, use)
    assert any(name == "pformat" and use == "debug" for _line, name, use in autobahn_calls(protocol, {"pformat"}))


def test_the_lazy_helpers_are_installed_and_print_as_autobahns_own():
    import pprint

    from autobahn import util
    from autobahn.twisted import websocket as twisted_websocket
    from autobahn.websocket import protocol

    import septica_site.asgi  # noqa: F401  (installs them, as in every server)
    from septica_site import autobahn_private

    assert protocol.pformat is autobahn_private.pformat
    assert protocol.hltype is twisted_websocket.hltype is autobahn_private.hltype
    assert protocol.hlval is twisted_websocket.hlval is autobahn_private.hlval
    settings_log = [("openHandshakeTimeout", 5, "WebSocketServerFactory"), ("autoPingInterval", 0, "X")]
    lazy = protocol.pformat(settings_log)
    assert isinstance(lazy, autobahn_private.LazyWords)
    assert str(lazy) == f"{lazy}" == pprint.pformat(settings_log)
    assert str(protocol.hltype(protocol.WebSocketProtocol.sendData)) == util.hltype(protocol.WebSocketProtocol.sendData)
    assert f"{protocol.hlval(42)}" == util.hlval(42)
    timings = protocol.Timings()
    timings.track("onOpen")
    assert isinstance(str(timings), str) and "onOpen" in str(timings)  # __str__ must still return a string


def test_daphne_builds_its_requests_from_the_module_global_that_serve_replaces():
    """septica_site/daphne_requests.py: daphne's factory names `WebRequest` at each connection, and the
    request it makes leaves a POST's body to the site (Twisted's form parsing off)."""
    import inspect

    from daphne import http_protocol
    from twisted.web import http

    from septica_site import daphne_requests

    assert "protocol.requestFactory = WebRequest" in inspect.getsource(http_protocol.HTTPFactory.buildProtocol)
    assert "parsePOSTFormSubmission" in inspect.signature(http.Request.__init__).parameters
    assert issubclass(daphne_requests.WebRequestWithRawBody, http_protocol.WebRequest)


def test_a_requests_response_answers_with_the_content_set_on_it():
    """notify/addresses.py: a push's answer is read (to a bound) from the raw stream and set as
    `_content`; pywebpush then reads `.status_code`, `.content` and `.text` as from any response."""
    import io

    import requests

    response = requests.Response()
    response.status_code = 201
    response.raw = io.BytesIO(b"never read")
    response._content = b"created"
    assert response.content == b"created"
    assert response.text == "created"
    assert response.ok
