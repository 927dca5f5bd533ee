"""A Celery worker (and beat) inside the server process, for the embedded setup.

With no REDIS_URL the broker is kombu's in-memory transport, which only
reaches consumers in the same process, so the workers have to live here. They
are the same worker code a separate `celery worker` runs, just on threads: one
for the default queue, one for the pushes and e-mails (as production runs
`celery worker -Q notify` apart).
"""

from __future__ import annotations

import logging
import threading

from celery.beat import EmbeddedService
from celery.worker import WorkController
from django.conf import settings

from .celery import app

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_worker: WorkController | None = None
_notify_worker: WorkController | None = None
_beat: EmbeddedService | None = None


class _EmbeddedWorkController(WorkController):
    def __init__(self, *args, **kwargs):
        self.ready = threading.Event()
        super().__init__(*args, **kwargs)

    def on_consumer_ready(self, consumer):
        self.ready.set()


def start(concurrency: int = 4, notify_concurrency: int = 2, timeout: float = 30.0) -> WorkController:
    """Start the workers and beat threads once per process; return the bots' worker.

    Two workers: one for the default queue (bots' turns, deadlines, analyses),
    one for the pushes and e-mails (settings.NOTIFY_QUEUE), whose threads may
    wait seconds on other hosts without a bot waiting behind them."""
    global _worker, _notify_worker, _beat
    with _lock:
        if _worker is not None:
            return _worker
        app.loader.import_default_modules()
        app.finalize()
        # One after the other: a worker binds the queues it consumes when its consumer starts,
        # and the app holds one selection of queues at a time.
        worker = _started(app.conf.task_default_queue, "embedded", concurrency, timeout)
        notify_worker = _started(settings.NOTIFY_QUEUE, "embedded-notify", notify_concurrency, timeout)
        beat = EmbeddedService(app, thread=True, schedule_filename=_schedule_path())
        beat.start()
        _worker, _notify_worker, _beat = worker, notify_worker, beat
        logger.info("Embedded Celery workers and beat are running on the in-memory broker.")
        return worker


def _started(queue: str, name: str, concurrency: int, timeout: float) -> WorkController:
    worker = _EmbeddedWorkController(
        app=app,
        hostname=f"{name}@{threading.get_native_id()}",
        queues=[queue],
        pool="threads",
        concurrency=concurrency,
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
        loglevel="WARNING",
    )
    threading.Thread(target=worker.start, name=f"celery-{name}-worker", daemon=True).start()
    if not worker.ready.wait(timeout):
        raise RuntimeError(f"The {name} Celery worker did not start.")
    return worker


def stop() -> None:
    """Stop beat and the workers (warm: running tasks finish; countdowns not yet due are dropped).

    For the end of a test run: a countdown falling due after the test
    database is gone would fail against a database without its tables."""
    global _worker, _notify_worker, _beat
    with _lock:
        workers, beat = (_worker, _notify_worker), _beat
        _worker, _notify_worker, _beat = None, None, None
    if beat is not None:
        beat.stop()
    for worker in workers:
        if worker is not None:
            worker.stop()


def is_running() -> bool:
    return all(worker is not None and worker.ready.is_set() for worker in (_worker, _notify_worker))


def _schedule_path() -> str:
    from django.conf import settings

    return str(settings.VAR_DIR / "celerybeat-schedule")
