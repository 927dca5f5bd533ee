"""What a person is told and where: notifications in the page, the devices that take web push,
and the kinds of notification each person turned off on each channel.

This app knows people, words and addresses, not cards: games/ hands it a
notification already worded in its reader's language (notify/notifications.py),
so it imports nothing of games/.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class NotificationKind(models.TextChoices):
    YOUR_MOVE = "your_move", _("Your move")
    REMINDER = "reminder", _("Time running out")
    CHALLENGE = "challenge", _("Challenge received")
    FINISHED = "finished", _("Match finished")


class Channel(models.TextChoices):
    PUSH = "push", _("Notifications on this device (web push)")
    EMAIL = "email", _("E-mail")


class Notification(models.Model):
    """One thing a person was told, as the notifications page lists it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(_("kind"), max_length=12, choices=NotificationKind.choices)
    # Worded when made, in the reader's language then (accounts' preferred language, else the site's).
    title = models.CharField(_("title"), max_length=120)
    body = models.CharField(_("text"), max_length=300, blank=True)
    url = models.CharField(_("link"), max_length=200, blank=True)
    # One per subject: a newer one with the same tag replaces the older on the device ("table-12").
    tag = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="notification_list"),
            models.Index(fields=["user", "read_at"], name="notification_unread"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.title}"


class PushSubscription(models.Model):
    """A browser on a device that agreed to take web push for this person (the Push API's subscription)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)  # the browser's public key, base64url
    auth = models.CharField(max_length=40)  # its authentication secret, base64url
    user_agent = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_sent_at = models.DateTimeField(null=True, blank=True)
    # Deliveries in a row that got no answer (a timeout, a refused connection, an address
    # push may not reach); at UNANSWERED_MAX the device is dropped as a gone one is.
    unanswered = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user}"


class NotificationOptOut(models.Model):
    """A kind of notification a person turned off on one channel (no row: on)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_opt_outs")
    kind = models.CharField(max_length=12, choices=NotificationKind.choices)
    channel = models.CharField(max_length=8, choices=Channel.choices)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind", "channel"], name="one_opt_out_per_kind_and_channel")]

    def __str__(self) -> str:
        return f"{self.user}: no {self.kind} by {self.channel}"
