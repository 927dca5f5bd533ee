"""The analysis of a finished match: its task, queued by name, and "analysis ready" to the table's readers.

Sent after the commit that ended the match (games/actions/on_commit.py) and
after each stored chunk (games/actions/analysis.py). Each run of the task
judges a few decisions and queues the rest behind whatever the workers
already have, so bots' turns never wait behind a whole analysis. A task that
cannot be queued is left to the sweeper (games/tasks.py `sweep_analyses`):
nobody waits at a table for it.
"""

from __future__ import annotations

import logging

from django.conf import settings

from septica_site.celery import app

from . import publish

logger = logging.getLogger(__name__)

ANALYSE_TASK = "games.tasks.analyse_match"  # games/tasks.py


def queue(match_id: int, from_seq: int = 0, countdown: float | None = None) -> None:
    """Queue the judging of the match's decisions from `from_seq`; never raises (the match is stored)."""
    # A queue of their own (ANALYSIS_QUEUE) lets a deployment judge on workers the bots do not share.
    routing = {"queue": settings.ANALYSIS_QUEUE} if settings.ANALYSIS_QUEUE else {}
    try:
        app.send_task(ANALYSE_TASK, (match_id, from_seq), countdown=countdown, retry=False, **routing)
    except Exception:
        logger.warning("could not queue the analysis of match %s from seq %s", match_id, from_seq, exc_info=True)


def ready(match_id: int) -> None:
    """The table's sockets hear that the analysis is there to read."""
    publish.publish([(publish.match_group(match_id), {"type": "analysis.ready", "table": match_id})])
