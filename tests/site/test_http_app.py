"""The HTTP adapter (septica_site/http_app.py): asgiref's WsgiToAsgi with its requests on a
pool of threads, so two requests run at once, and the one asgiref name it relies on."""

from __future__ import annotations

import asyncio
import inspect
import threading

from asgiref.testing import ApplicationCommunicator
from asgiref.wsgi import WsgiToAsgiInstance

from septica_site.http_app import ThreadPoolWsgiToAsgi, wsgi_run


def scope(path: str) -> dict:
    return {"type": "http", "http_version": "1.1", "method": "POST", "path": path, "root_path": "",
            "query_string": b"a=1", "headers": [(b"content-type", b"text/plain")], "client": ("10.0.0.7", 5000),
            "server": ("127.0.0.1", 8000), "scheme": "https"}


def test_asgiref_still_runs_the_wsgi_app_through_a_sync_to_async_with_its_function_in_func():
    run = wsgi_run(WsgiToAsgiInstance)

    assert callable(run) and run.__name__ == "run_wsgi_app"
    assert not asyncio.iscoroutinefunction(run)
    assert "self.sync_send(" in inspect.getsource(run)  # how it hands each message to the server


def test_two_requests_run_at_once_on_the_pools_threads_and_get_what_wsgi_gives():
    both_in = threading.Barrier(2, timeout=10)  # passes only when two requests are inside the app together
    seen = []

    def wsgi(environ, start_response):
        both_in.wait()
        seen.append((threading.current_thread().name, environ["PATH_INFO"], environ["REMOTE_ADDR"],
                     environ["wsgi.url_scheme"], environ["QUERY_STRING"], environ["wsgi.input"].read()))
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"done ", environ["PATH_INFO"].encode()]

    app = ThreadPoolWsgiToAsgi(wsgi, threads=2)

    async def request(path: str) -> tuple[int, bytes]:
        communicator = ApplicationCommunicator(app, scope(path))
        await communicator.send_input({"type": "http.request", "body": b"hello", "more_body": False})
        start = await communicator.receive_output(timeout=15)
        body = b""
        while True:
            message = await communicator.receive_output(timeout=15)
            body += message.get("body", b"")
            if not message.get("more_body"):
                return start["status"], body

    async def both():
        return await asyncio.gather(request("/one"), request("/two"))

    answers = asyncio.run(both())

    assert answers == [(200, b"done /one"), (200, b"done /two")]
    assert sorted(path for _, path, *_ in seen) == ["/one", "/two"]
    assert all(name.startswith("septica-http") for name, *_ in seen)
    assert {tuple(rest) for _, _, *rest in seen} == {("10.0.0.7", "https", "a=1", b"hello")}
    app.executor.shutdown()


async def answer_of(app, path: str) -> tuple[int, list[bytes], bytes]:
    communicator = ApplicationCommunicator(app, scope(path))
    await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await communicator.receive_output(timeout=15)
    assert start["type"] == "http.response.start"
    chunks = []
    while True:
        message = await communicator.receive_output(timeout=15)
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return start["status"], chunks, b"".join(chunks)


def test_a_small_answer_and_a_large_streamed_one_arrive_whole_and_in_order():
    parts = [bytes([65 + i % 26]) * 100_000 for i in range(8)]  # 800 kB: more than is held back

    def wsgi(environ, start_response):
        start_response("201 Created", [("Content-Type", "text/plain")])
        return iter(parts) if environ["PATH_INFO"] == "/large" else [b"small"]

    app = ThreadPoolWsgiToAsgi(wsgi, threads=2)

    small_status, _, small = asyncio.run(answer_of(app, "/small"))
    large_status, chunks, large = asyncio.run(answer_of(app, "/large"))

    assert (small_status, small) == (201, b"small")
    assert large_status == 201 and large == b"".join(parts) and len(chunks) == len(parts) + 1
    app.executor.shutdown()
