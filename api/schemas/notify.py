"""Notifications and web push (notify/api.py)."""

from __future__ import annotations

from typing import Literal

from ninja import Schema
from pydantic import Field

from notify.models import NotificationKind

from .common import Sometimes, Time


class PushKey(Schema):
    public_key: str = Field(description="The VAPID applicationServerKey: an uncompressed P-256 point, base64url.")


class PushKeys(Schema):
    p256dh: str = Field(description="65 bytes (an uncompressed P-256 point), base64url.")
    auth: str = Field(description="16 bytes, base64url.")


class PushSubscriptionToSave(Schema):
    """The browser's PushSubscription.toJSON(); the same endpoint again replaces its keys."""

    endpoint: str = Field(description="An https URL at the browser's push service.")
    keys: PushKeys
    expirationTime: Sometimes[int | None] = None  # noqa: N815 (the browser's name)


class PushSubscriptionToDelete(Schema):
    endpoint: str = Field(min_length=1)


class PushSubscriptionSaved(Schema):
    id: int
    created_at: Time


class PushSubscriptionDeleted(Schema):
    deleted: int = Field(description="1, or 0 when you had no such device.")


class Notification(Schema):
    id: int
    kind: Literal[tuple(NotificationKind.values)]
    title: str
    body: str
    url: str
    tag: str = Field(description="Names the subject (a table): a newer notification replaces the older.")
    created_at: Time
    read: bool


class Notifications(Schema):
    unread: int
    notifications: list[Notification] = Field(description="The latest, newest first.")


class NotificationsToMark(Schema):
    ids: Sometimes[list[int]] = Field(None, description="Left out: all of them.")


class Marked(Schema):
    marked: int
    unread: int
