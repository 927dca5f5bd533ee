"""The expiry of a request to abort a match: a task at its end, sent by name after commit.

The task (games/tasks.py `expire_abort_request`) is idempotent: it stores the
expiry only of a request still open and past its time. Every answer and ask
checks expiry too, so a lost or late task only delays the stored status, never
what the table shows (the presenters hide an expired request at once).
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings

from septica_site.celery import app

logger = logging.getLogger(__name__)

EXPIRE_TASK = "games.tasks.expire_abort_request"


def schedule_expiry(request_id: int, expires_at: datetime, seconds: int) -> None:
    """Queue the request's expiry; a countdown longer than a live table's is left to the next read or answer."""
    if seconds > settings.DEADLINE_COUNTDOWN_MAX_SECONDS:
        return
    try:
        app.send_task(EXPIRE_TASK, (request_id,), eta=expires_at, retry=False)
    except Exception:  # the request is stored: the next answer or ask expires it just the same
        logger.warning("could not queue the expiry of abort request %s", request_id, exc_info=True)
