from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .names import SKELETON_MAX_LENGTH, name_keys


class User(AbstractUser):
    """A player. The username is for logging in; the display name is shown at tables."""

    email = models.EmailField(_("e-mail address"), unique=True)
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    preferred_language = models.CharField(
        _("preferred language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("Leave empty to follow your browser."),
    )
    email_on_your_move = models.BooleanField(
        _("e-mail me when it is my move"),
        default=True,
        help_text=_("At most one e-mail per table an hour, and only while you are not at the table."),
    )
    # How the table page plays (accounts.preferences); guests keep the same in their browser.
    one_tap = models.BooleanField(
        _("play a card with one tap"),
        default=True,
        help_text=_("Off: tap a card to pick it, then tap Play."),
    )
    auto_take = models.BooleanField(
        _("take the cards by myself after a moment"),
        default=False,
        help_text=_("When taking (Ia) is all that is left for you to do."),
    )
    chat_text = models.BooleanField(
        _("show what people write at the table"),
        default=True,
        help_text=_("Off: the table's chat shows only its quick phrases."),
    )
    sounds = models.BooleanField(
        _("sounds at the table"),
        default=False,
        help_text=_("A card played, your turn, a trick taken."),
    )
    # Set only by moderators (games.moderation), which also logs why.
    suspended_until = models.DateTimeField(_("suspended until"), null=True, blank=True, editable=False)
    banned = models.BooleanField(_("banned"), default=False, editable=False)
    # Set only by moderators (games.actions.moderation), which also logs why.
    chat_muted_until = models.DateTimeField(_("muted from chat until"), null=True, blank=True, editable=False)
    # Whether any device of this person takes web push, kept by notify/signals.py: the move
    # path reads it with the seat's row, where a query for subscriptions would cost every move.
    takes_push = models.BooleanField(default=False, editable=False)
    # Skeletons of the two names (accounts.names), kept by save(): a new name
    # that looks like anyone's is found with one indexed look-up.
    username_key = models.CharField(max_length=SKELETON_MAX_LENGTH, db_index=True, editable=False, default="")
    display_name_key = models.CharField(
        max_length=SKELETON_MAX_LENGTH, db_index=True, editable=False, default="", blank=True)

    class Meta(AbstractUser.Meta):
        constraints = [
            # Logging in by e-mail and password reset look addresses up
            # case-insensitively, so two accounts must never differ only in case.
            models.UniqueConstraint(
                Lower("email"),
                name="accounts_user_email_ci_unique",
                violation_error_message=_("An account with this e-mail address already exists."),
            ),
            models.UniqueConstraint(
                Lower("username"),
                name="accounts_user_username_ci_unique",
                violation_error_message=_("A user with that username already exists."),
            ),
        ]

    def __str__(self) -> str:
        return self.display_name or self.username

    def save(self, *args, **kwargs):
        self.username_key, self.display_name_key = name_keys(self.username, self.display_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"username", "display_name"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "username_key", "display_name_key"}
        super().save(*args, **kwargs)

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username

    @property
    def play_refusal(self) -> str | None:
        """Why a moderator stopped this person from creating, joining and moving; None when nothing stops them."""
        if self.banned:
            return _("This account is banned from playing.")
        if self.suspended_until is not None and self.suspended_until > timezone.now():
            return _("This account is suspended from playing until %(until)s UTC.") % {
                "until": self.suspended_until.astimezone(UTC).strftime("%Y-%m-%d %H:%M")}
        return None


TOKEN_PREFIX = "sep_"


def hash_token_secret(secret: str) -> str:
    # The secret is 256 random bits, so a fast unsalted hash is enough: there
    # is nothing to brute-force, and every API call must look it up quickly.
    return hashlib.sha256(secret.encode()).hexdigest()


# Sent with `token` once revoke() has changed the row (an update() sends no
# post_save): accounts/credentials.py closes the sockets opened with it.
token_revoked = Signal()


class ApiTokenQuerySet(models.QuerySet):
    def active(self):
        return self.filter(revoked_at__isnull=True)


class ApiToken(models.Model):
    """A personal token for scripts: ``Authorization: Bearer <secret>``.

    Only the SHA-256 of the secret is stored; the secret is shown once.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=60)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    hint = models.CharField(max_length=12, editable=False, help_text=_("The start of the secret, to recognise it."))
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True)

    # Scripts may call many times a second; a minute is precise enough for
    # "last used" and spares a write on every call.
    USE_RESOLUTION = timedelta(minutes=1)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…)"

    @classmethod
    def issue(cls, user, name: str) -> tuple[ApiToken, str]:
        """Create a token; return it with its secret, which is never stored."""
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = cls.objects.create(user=user, name=name, key_hash=hash_token_secret(secret), hint=secret[:10])
        return token, secret

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    def revoke(self) -> bool:
        """Revoke the token; False when it already was."""
        now = timezone.now()
        revoked = ApiToken.objects.filter(pk=self.pk, revoked_at__isnull=True).update(revoked_at=now)
        if revoked:
            self.revoked_at = now
            token_revoked.send(sender=ApiToken, token=self)
        return bool(revoked)

    def note_use(self) -> None:
        """Record that the token was just used, writing at most once per USE_RESOLUTION."""
        now = timezone.now()
        if self.last_used_at is not None and now - self.last_used_at < self.USE_RESOLUTION:
            return
        stale = models.Q(last_used_at__isnull=True) | models.Q(last_used_at__lt=now - self.USE_RESOLUTION)
        ApiToken.objects.filter(stale, pk=self.pk).update(last_used_at=now)
        self.last_used_at = now
