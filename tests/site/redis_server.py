"""A Redis server of a test's own, on a port no one else uses (never the shared 6379).

The port is a free one picked when the server is made, not a fixed number:
CI runs the embedded and the PostgreSQL + Redis suites side by side, and
each starts and stops Redis servers of its own.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time

import redis


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def url_for(self, database: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        if self.answers():
            return
        subprocess.run(
            ["redis-server", "--daemonize", "yes", "--port", str(self.port), "--save", "", "--appendonly", "no"],
            check=True, stdout=subprocess.DEVNULL,
        )
        self.wait(until=True)

    def stop(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.port), "shutdown", "nosave"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        self.wait(until=False)

    def answers(self) -> bool:
        try:
            return redis.Redis(port=self.port, socket_connect_timeout=0.2, socket_timeout=0.2, retry=None).ping()
        except redis.RedisError:
            return False

    def wait(self, until: bool, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while self.answers() != until:
            if time.monotonic() > deadline:
                raise RuntimeError(f"Redis on {self.port} did not {'start' if until else 'stop'}")
            time.sleep(0.05)


def have_redis_server() -> bool:
    return shutil.which("redis-server") is not None
