"""HTTP through Django's WSGI handler inside the ASGI server, on a pool of threads of its own.

Django's ASGI handler costs a request over the site's sync middleware and views
a new thread (a single-thread executor made and shut down per request) and
two more hops between that thread and the event loop (the sync middleware
above allauth's and django-axes' async ones, then the view): bench/moves.py
measured them at more than the move's own reads and writes. asgiref's
WsgiToAsgi runs the whole request in one call on one thread; it runs every
request of a process on the same thread, though, so here its one sync call
goes to a pool of HTTP_THREADS threads that live as long as the process (each
keeps its database connection between requests only as the settings say;
the pool hands it back at the end of each).

What this relies on of asgiref's, WsgiToAsgiInstance's `run_wsgi_app` being
a SyncToAsync with its function in `func` and sending through `self.sync_send`,
is checked by tests/site/test_http_app.py.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from tempfile import SpooledTemporaryFile

from asgiref.sync import AsyncToSync, SyncToAsync
from asgiref.wsgi import WsgiToAsgi, WsgiToAsgiInstance

# An answer up to this size is sent from the event loop once the request's thread is done;
# WsgiToAsgi hands every message to the loop from the thread and waits for it (three
# times for the smallest answer). Larger answers (a big static file) stream as asgiref sends them.
BUFFERED_BYTES = 256 * 1024


def wsgi_run(instance_class=WsgiToAsgiInstance):
    """asgiref's function that runs the WSGI application for one request (see the module's note)."""
    return instance_class.__dict__["run_wsgi_app"].func


class BufferedWsgiToAsgiInstance(WsgiToAsgiInstance):
    """WsgiToAsgiInstance whose answers up to BUFFERED_BYTES leave from the event loop in one go."""

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError("WSGI wrapper received a non-HTTP scope")
        self.scope = scope
        with SpooledTemporaryFile(max_size=65536) as body:
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    raise ValueError("WSGI wrapper received a non-HTTP-request message")
                body.write(message.get("body", b""))
                if not message.get("more_body"):
                    break
            body.seek(0)
            held: list[dict] | None = []
            held_bytes = 0
            send_from_thread = AsyncToSync(send)

            def hold_or_send(message: dict) -> None:
                nonlocal held, held_bytes
                if held is None:
                    send_from_thread(message)
                    return
                held.append(message)
                held_bytes += len(message.get("body", b""))
                if held_bytes > BUFFERED_BYTES:
                    pending, held = held, None
                    for earlier in pending:
                        send_from_thread(earlier)

            self.sync_send = hold_or_send
            await self.run_wsgi_app(body)
            for message in held or ():
                await send(message)


class ThreadPoolWsgiToAsgi(WsgiToAsgi):
    """WsgiToAsgi whose requests run on `threads` threads at once."""

    def __init__(self, wsgi_application, threads: int) -> None:
        super().__init__(wsgi_application)
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="septica-http")
        executor = self.executor

        class Instance(BufferedWsgiToAsgiInstance):
            run_wsgi_app = SyncToAsync(wsgi_run(), thread_sensitive=False, executor=executor)

        self.instance_class = Instance

    async def __call__(self, scope, receive, send):
        await self.instance_class(self.wsgi_application, self.duplicate_header_limit)(scope, receive, send)
