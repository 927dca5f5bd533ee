"""The Celery task behind "your move" e-mails (games/emails.py).

Celery finds it through `games/tasks.py`, which imports this module.
"""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task

from . import emails

__all__ = ["your_move_email"]


@shared_task(
    name="games.your_move_email",
    ignore_result=True,
    autoretry_for=(OSError, SMTPException),
    retry_backoff=30,
    max_retries=3,
)
def your_move_email(match_id: int, seq: int, queued_at: float | None = None) -> bool:
    """E-mail whoever is to move at `seq`, if they still are and are away."""
    return emails.send_if_away(match_id, seq, queued_at)
