"""A Celery worker outlives its Redis going away while it holds a countdown task.

Each test runs a real worker process on a Redis of its own (a free port, never
the shared one) that keeps its data over a restart, as a deployed Redis does.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.core.cache.backends.redis import RedisCache

from septica_site.celery import app
from septica_site.tasks import heartbeat
from tests.conftest import worker_environment

from .redis_server import RedisServer, have_redis_server

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not have_redis_server(), reason="needs redis-server to start a Redis of its own")

# celery and kombu as they come, with nothing of this project's.
STOCK_WORKER = """
import sys
from celery import Celery
stock = Celery("stock", broker=sys.argv[1])


@stock.task(name="septica_site.tasks.heartbeat")
def heartbeat(key=None):
    pass


stock.worker_main(["worker", "--pool", "threads", "--concurrency", "2", "--loglevel", "INFO",
                   "--without-gossip", "--without-mingle"])
"""


class PersistentRedis(RedisServer):
    """Saves its data when stopped and loads it when started again."""

    def __init__(self, directory: Path) -> None:
        super().__init__()
        self.directory = directory

    def start(self) -> None:
        subprocess.run(["redis-server", "--daemonize", "yes", "--port", str(self.port), "--save", "",
                        "--appendonly", "no", "--dir", str(self.directory)], check=True, stdout=subprocess.DEVNULL)
        self.wait(until=True)

    def stop(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.port), "shutdown", "save"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        self.wait(until=False)

    def discard(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.port), "shutdown", "nosave"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        self.wait(until=False)


def wait_for(condition, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())


class Worker:
    def __init__(self, command: list[str], env: dict, log: Path) -> None:
        self.log = log
        with open(log, "wb") as output:
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
                                            start_new_session=True)

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def alive(self) -> bool:
        return self.process.poll() is None

    def wait_for_log(self, words: str, count: int = 1, timeout: float = 30) -> None:
        assert wait_for(lambda: self.text().count(words) >= count or not self.alive(), timeout) and self.alive(), \
            f"no {words!r} in the worker's log:\n{self.text()[-3000:]}"

    def stop(self) -> None:
        if self.alive():
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


@pytest.fixture
def own_redis(tmp_path):
    server = PersistentRedis(tmp_path)
    server.start()
    yield server
    server.discard()


@pytest.fixture
def start_worker(tmp_path):
    workers: list[Worker] = []

    def start(command: list[str], **env: str) -> Worker:
        worker = Worker(command, worker_environment(**env), tmp_path / f"worker-{len(workers)}.log")
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()


def send_heartbeat(redis_url: str, key: str, countdown: float) -> None:
    with app.connection_for_write(redis_url) as connection:
        heartbeat.apply_async(kwargs={"key": key}, countdown=countdown, connection=connection)


def test_the_worker_carries_on_after_redis_goes_away_while_it_holds_a_countdown(own_redis, start_worker):
    worker = start_worker(
        [sys.executable, "-m", "celery", "-A", "septica_site", "worker", "--pool", "threads", "--concurrency", "2",
         "--loglevel", "INFO", "--without-gossip", "--without-mingle"],
        REDIS_URL=own_redis.url, LOG_LEVEL="INFO",
        # The countdown it held comes back once this has passed (deployed: an hour, and the
        # sweeper re-sends a lost bot turn or deadline meanwhile); short, so the test needn't wait.
        CELERY_VISIBILITY_TIMEOUT="1",
    )
    worker.wait_for_log("ready.")
    cache = RedisCache(own_redis.url, {})
    pending, fresh = f"septica:test-pending:{uuid.uuid4().hex}", f"septica:test-fresh:{uuid.uuid4().hex}"
    due = time.time() + 8
    send_heartbeat(own_redis.url, pending, countdown=8)
    worker.wait_for_log("received")

    own_redis.stop()
    worker.wait_for_log("Cannot connect to", timeout=15)  # it is retrying, not gone
    own_redis.start()
    worker.wait_for_log("Connected to", count=2, timeout=15)

    send_heartbeat(own_redis.url, fresh, countdown=0)
    assert wait_for(lambda: cache.get(fresh) is not None, 10), f"a new task never ran:\n{worker.text()[-3000:]}"
    assert wait_for(lambda: cache.get(pending) is not None, due - time.time() + 10), \
        f"the countdown held when Redis went away never ran:\n{worker.text()[-3000:]}"
    assert cache.get(pending) >= due - 0.5, "the countdown ran before it was due"
    assert worker.alive(), worker.text()[-3000:]
    assert "Unrecoverable error" not in worker.text()


def test_celery_and_kombu_alone_still_lose_the_worker(own_redis, start_worker):
    """Why septica_site.celery has RedisChannel: when this fails, an upgrade fixed
    the stock transport; drop RedisChannel and RedisTransport."""
    worker = start_worker([sys.executable, "-c", STOCK_WORKER, own_redis.url])
    worker.wait_for_log("ready.")
    for round_ in range(1, 4):  # which dead socket the worker notices first varies
        send_heartbeat(own_redis.url, f"septica:test-stock:{uuid.uuid4().hex}", countdown=60)
        worker.wait_for_log("received", count=round_)
        own_redis.stop()
        if wait_for(lambda: not worker.alive(), 10):
            break
        own_redis.start()
        worker.wait_for_log("Connected to", count=round_ + 1)
    assert not worker.alive(), f"the stock worker survived:\n{worker.text()[-3000:]}"
    assert "AttributeError" in worker.text(), worker.text()[-3000:]
