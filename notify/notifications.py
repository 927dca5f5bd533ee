"""Telling a person something: a row for the notifications page, and (after commit) its delivery.

Callers word the notification in its reader's language before calling
`notify` (this app imports nothing of games/, so it cannot word a table or a
match itself). The row is always made: the notifications page lists
everything. Web push goes out only to people who left that kind on for push
(`wants`), from a task queued once the caller's transaction commits.
"""

from __future__ import annotations

import logging

from django.db import transaction

from septica_site.celery import app

from .models import Channel, Notification, NotificationKind, NotificationOptOut, PushSubscription

logger = logging.getLogger(__name__)

TITLE_MAX = Notification._meta.get_field("title").max_length
BODY_MAX = Notification._meta.get_field("body").max_length
DELIVER_PUSH_TASK = "notify.deliver_push"  # notify/tasks.py


def notify(user, kind: str, *, title: str, body: str = "", url: str = "", tag: str = "") -> Notification | None:
    """Record a notification for `user` (a person, never a bot); None when there is nobody to tell.

    An unread notification with the same tag (the same table) is replaced,
    as the device replaces it: the page lists what is news, not every move.
    """
    if user is None or not user.is_active:
        return None
    if tag:
        Notification.objects.filter(user=user, tag=tag, read_at__isnull=True).delete()
    notification = Notification.objects.create(
        user=user, kind=kind, title=title[:TITLE_MAX], body=body[:BODY_MAX], url=url, tag=tag
    )
    if wants(user, kind, Channel.PUSH) and has_push(user):
        notification_id = notification.pk
        transaction.on_commit(lambda: queue_push(notification_id))
    return notification


def take_back(user_ids, tag: str) -> int:
    """Forget the unread notifications tagged `tag` of these people (what they told of is over); how many.

    A push already delivered stays on the device: the Push API recalls nothing."""
    return Notification.objects.filter(user_id__in=list(user_ids), tag=tag, read_at__isnull=True).delete()[0]


def wants(user, kind: str, channel: str) -> bool:
    """Whether `user` left `kind` on for `channel`.

    The e-mail of "your move" is the person's older switch `email_on_your_move`,
    kept as it is so that its form, its API and its tests keep working.
    """
    if kind == NotificationKind.YOUR_MOVE and channel == Channel.EMAIL:
        return bool(user.email_on_your_move)
    return not NotificationOptOut.objects.filter(user=user, kind=kind, channel=channel).exists()


def has_push(user) -> bool:
    return PushSubscription.objects.filter(user=user).exists()


def queue_push(notification_id: int) -> None:
    """Queue the delivery task; never raises (the notification is stored and shown in the page)."""
    try:
        app.send_task(DELIVER_PUSH_TASK, (notification_id,))
    except Exception:
        logger.warning("could not queue the push of notification %s", notification_id, exc_info=True)
