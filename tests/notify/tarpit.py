"""A host that takes connections and never answers (or, trickling, answers a byte at a time
and never finishes): a push endpoint that holds a sender for as long as it is willing to wait."""

from __future__ import annotations

import contextlib
import socket
import threading


class Tarpit:
    def __init__(self, trickle: bool = False):
        self.trickle = trickle
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
            if self.trickle:
                threading.Thread(target=self._trickle, args=(connection,), daemon=True).start()

    def _trickle(self, connection: socket.socket) -> None:
        with contextlib.suppress(OSError):
            connection.sendall(b"HTTP/1.1 ")  # its status never comes
            while not self.closed.wait(0.05):
                connection.sendall(b"a")

    def wait_for_connections(self, count: int, timeout: float) -> bool:
        return all(self.accepted.acquire(timeout=timeout) for _ in range(count))

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}{path}"
