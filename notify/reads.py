"""What the notifications page, its API and the menu read."""

from __future__ import annotations

from django.utils import timezone

from septica_site.row_ids import fits_a_row

from .models import Notification

LISTED = 50


def latest(user) -> list[Notification]:
    return list(Notification.objects.filter(user=user)[:LISTED])


def unread_count(user) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def mark_read(user, ids: list[int] | None = None) -> int:
    """Mark `ids` (all, when None) of `user`'s notifications read; how many were unread."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=[number for number in ids if fits_a_row(number)])
    return unread.update(read_at=timezone.now())


def notification_json(notification: Notification) -> dict:
    return {"id": notification.pk, "kind": notification.kind, "title": notification.title,
            "body": notification.body, "url": notification.url, "tag": notification.tag,
            "created_at": notification.created_at.isoformat(), "read": notification.read_at is not None}
