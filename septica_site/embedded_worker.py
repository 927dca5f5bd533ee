"""A Celery worker (and beat) inside the server process, for the embedded setup.

With no REDIS_URL the broker is kombu's in-memory transport, which only
reaches consumers in the same process, so the worker has to live here. It is
the same worker code a separate `celery worker` runs, just on threads.
"""

from __future__ import annotations

import logging
import threading

from celery.beat import EmbeddedService
from celery.worker import WorkController

from .celery import app

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_worker: WorkController | None = None
_beat: EmbeddedService | None = None


class _EmbeddedWorkController(WorkController):
    def __init__(self, *args, **kwargs):
        self.ready = threading.Event()
        super().__init__(*args, **kwargs)

    def on_consumer_ready(self, consumer):
        self.ready.set()


def start(concurrency: int = 4, timeout: float = 30.0) -> WorkController:
    """Start the worker and beat threads once per process; return the worker."""
    global _worker, _beat
    with _lock:
        if _worker is not None:
            return _worker
        app.loader.import_default_modules()
        app.finalize()
        worker = _EmbeddedWorkController(
            app=app,
            hostname=f"embedded@{threading.get_native_id()}",
            pool="threads",
            concurrency=concurrency,
            without_heartbeat=True,
            without_mingle=True,
            without_gossip=True,
            loglevel="WARNING",
        )
        threading.Thread(target=worker.start, name="celery-embedded-worker", daemon=True).start()
        if not worker.ready.wait(timeout):
            raise RuntimeError("The embedded Celery worker did not start.")
        beat = EmbeddedService(app, thread=True, schedule_filename=_schedule_path())
        beat.start()
        _worker, _beat = worker, beat
        logger.info("Embedded Celery worker and beat are running on the in-memory broker.")
        return worker


def stop() -> None:
    """Stop beat and the worker (warm: running tasks finish; countdowns not yet due are dropped).

    For the end of a test run: a countdown falling due after the test
    database is gone would fail against a database without its tables."""
    global _worker, _beat
    with _lock:
        worker, beat, _worker, _beat = _worker, _beat, None, None
    if beat is not None:
        beat.stop()
    if worker is not None:
        worker.stop()


def is_running() -> bool:
    return _worker is not None and _worker.ready.is_set()


def _schedule_path() -> str:
    from django.conf import settings

    return str(settings.VAR_DIR / "celerybeat-schedule")
