"""Site-wide periodic work."""

import time

from celery import shared_task
from django.core.cache import cache

HEARTBEAT_KEY = "septica:worker-heartbeat"
# The workers of the pushes and e-mails (settings.NOTIFY_QUEUE) beat apart: a deployment may lack them alone.
NOTIFY_HEARTBEAT_KEY = "septica:notify-worker-heartbeat"


@shared_task(ignore_result=True)
def heartbeat(key: str = HEARTBEAT_KEY) -> None:
    """Note that a worker is alive; /healthz shows how long ago one was.

    `key` lets a caller watch for its own beat: beat sends this task every
    30 seconds, and that periodic one must not be mistaken for theirs.
    """
    cache.set(key, time.time(), timeout=None)


def seconds_since_heartbeat(key: str = HEARTBEAT_KEY) -> float | None:
    last = cache.get(key)
    return None if last is None else round(time.time() - last, 1)
