"""Notifications and web push: notify/api.py's views."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from notify import api as views

from ..schemas.notify import (
    Marked,
    Notifications,
    NotificationsToMark,
    PushKey,
    PushSubscriptionDeleted,
    PushSubscriptionSaved,
    PushSubscriptionToDelete,
    PushSubscriptionToSave,
)
from ..site import PUBLIC, SIGNED_IN, SiteRouter

router = SiteRouter()
NOTIFICATIONS = ["Notifications"]


@router.operation("GET", "/push/key", name="api_push_key", summary=_("The key a browser subscribes to web push with"),
                  access=PUBLIC, tags=NOTIFICATIONS, ok={200: PushKey}, head=True)
def push_key(request):
    return views.key(request)


@router.operation("POST", "/push/subscriptions", name="api_push_subscriptions",
                  summary=_("Take web push on this device"), access=SIGNED_IN, tags=NOTIFICATIONS,
                  ok={201: PushSubscriptionSaved}, refusals=[400],
                  rule_codes=["bad_endpoint", "endpoint_taken", "bad_p256dh", "bad_auth"],
                  body=PushSubscriptionToSave)
def subscribe(request):
    return views.push_subscriptions(request)


@router.operation("DELETE", "/push/subscriptions", name="api_push_subscriptions",
                  summary=_("Stop web push on a device"), access=SIGNED_IN, tags=NOTIFICATIONS,
                  ok={200: PushSubscriptionDeleted}, refusals=[400], body=PushSubscriptionToDelete)
def unsubscribe(request):
    return views.push_subscriptions(request)


@router.operation("GET", "/notifications", name="api_notifications",
                  summary=_("Your latest notifications and how many are unread"), access=SIGNED_IN,
                  tags=NOTIFICATIONS, ok={200: Notifications}, head=True)
def notifications(request):
    return views.notifications(request)


@router.operation("POST", "/notifications/read", name="api_notifications_read",
                  summary=_("Mark notifications read"), access=SIGNED_IN, tags=NOTIFICATIONS, ok={200: Marked},
                  refusals=[400], body=NotificationsToMark)
def mark_read(request):
    return views.read(request)
