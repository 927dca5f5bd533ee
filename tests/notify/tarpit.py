"""A host that takes connections and never answers (or, trickling, answers a byte at a time;
or, flooding, answers without end): a push endpoint that holds a sender as long as it lets it."""

from __future__ import annotations

import contextlib
import socket
import threading


class Tarpit:
    def __init__(self, trickle: bool = False, flood: bool = False):
        self.trickle = trickle
        self.flood = flood
        self.closed = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=128)
        self.held: list[socket.socket] = []
        self.accepted = threading.Semaphore(0)
        self.thread = threading.Thread(target=self._accept, daemon=True)

    def __enter__(self) -> Tarpit:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        """Close everything, so a sender still waiting fails at once."""
        self.closed.set()
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        self.thread.join(timeout=5)
        for connection in self.held:
            with contextlib.suppress(OSError):
                connection.close()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.held.append(connection)
            self.accepted.release()
            if self.trickle or self.flood:
                talk = self._trickle if self.trickle else self._flood
                threading.Thread(target=talk, args=(connection,), daemon=True).start()

    def _trickle(self, connection: socket.socket) -> None:
        with contextlib.suppress(OSError):
            connection.sendall(b"HTTP/1.1 ")  # its status never comes
            while not self.closed.wait(0.05):
                connection.sendall(b"a")

    def _flood(self, connection: socket.socket) -> None:
        """Accept the push at once, then send an answer that never ends, as fast as it is read."""
        with contextlib.suppress(OSError):
            connection.recv(65536)
            connection.sendall(b"HTTP/1.1 201 Created\r\nContent-Length: 10000000000\r\n\r\n")
            while not self.closed.is_set():
                connection.sendall(b"x" * 65536)

    def wait_for_connections(self, count: int, timeout: float) -> bool:
        return all(self.accepted.acquire(timeout=timeout) for _ in range(count))

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}{path}"
