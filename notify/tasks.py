"""Celery tasks of the notify app (found by the Celery app's autodiscovery, sent by name)."""

from __future__ import annotations

from celery import shared_task

from . import push
from .models import Notification


@shared_task(name="notify.deliver_push", ignore_result=True, acks_late=True)
def deliver_push(notification_id: int) -> int:
    """Push one notification to its person's devices; the number it reached (0 when run again)."""
    notification = Notification.objects.filter(pk=notification_id).first()
    if notification is None:
        return 0
    return push.send(notification).delivered
