"""The credential a socket was opened with, whether it still stands, and the news that it ended.

A socket stands on an API token (accounts/ws_auth.py puts the token's id in
its scope; a token wins over a session) or on a browser session. When a
credential ends, the person's sockets hear it at once on their group
`credentials.<user id>`, after commit, and each closes if the news is about
its own credential:

| what happened                | which sockets close                                 |
|------------------------------|-----------------------------------------------------|
| a token is revoked           | those opened with that token                        |
| a session logs out           | those of that session                               |
| the password changes         | all of the person's session sockets (Django ends    |
|                              | those sessions; the tokens stand)                   |
| a suspension, a ban, the     | all of the person's sockets (they may reconnect to  |
| account made inactive        | watch; moves are refused anyway)                    |

Channel layers deliver at most once, so every move also re-checks its
socket's credential in the database (`still_stands`, one indexed statement).
The announcements carry ids and a keyed hash of a session key: never a
session key, a token's secret or anything derived from a password.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import import_module

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model, user_logged_out
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import connections, router, transaction
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from games.after_commit import publish
from games.sql.prepared import cursor_for

from .models import ApiToken, token_revoked
from .ws_auth import TOKEN_ID_SCOPE_KEY

# What ended, in the announcements: which of the person's sockets it closes.
TOKEN, SESSION, SESSIONS, EVERYTHING = "token", "session", "sessions", "everything"
# Why, so that each socket says it in its own viewer's language.
REVOKED, LOGGED_OUT, PASSWORD_CHANGED, SUSPENDED, BANNED, DEACTIVATED = (
    "revoked", "logged-out", "password-changed", "suspended", "banned", "deactivated")


class CredentialEnded(Exception):
    """A socket's move found its token or session gone."""


def group(user_id: int) -> str:
    return f"credentials.{user_id}"


def session_digest(session_key: str) -> str:
    """What the announcements say of a session: keyed, so it cannot be turned back into the key."""
    return salted_hmac("accounts.credentials.session", session_key, algorithm="sha256").hexdigest()


@dataclass
class Credential:
    user_id: int
    token_id: int | None = None
    session_key: str | None = None  # stays in this process: announcements name its digest
    session_hash: str | None = None
    # A person made once per socket to compute session auth hashes with:
    # making a User costs more than the rest of the check.
    hasher: object | None = field(default=None, repr=False, compare=False)

    def ended_by(self, event: dict) -> bool:
        ended = event["ended"]
        if ended == EVERYTHING:
            return True
        if ended == TOKEN:
            return self.token_id is not None and self.token_id == event["token"]
        if self.session_key is None:
            return False
        return ended == SESSIONS or (ended == SESSION and constant_time_compare(self.session_hash, event["session"]))

    def refusal(self) -> str:
        """What a refused move says when the credential was found gone."""
        if self.token_id is not None:
            return _("This API token no longer works: it was revoked, or its account was closed.")
        return _("Your session has ended: log in again.")


def of_scope(scope) -> Credential | None:
    """The credential a socket's scope stands on; None for an anonymous visitor."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return None
    token_id = scope.get(TOKEN_ID_SCOPE_KEY)
    if token_id is not None:
        return Credential(user.pk, token_id=token_id)
    session = scope.get("session")
    session_key = session.session_key if session is not None else None
    if session_key is None:
        return None  # authenticated by neither: nothing to watch (never made by the site's middleware)
    return Credential(user.pk, session_key=session_key, session_hash=session_digest(session_key))


def why_in_words(why: str) -> str:
    words = {
        REVOKED: _("This API token was revoked."),
        LOGGED_OUT: _("You logged out."),
        PASSWORD_CHANGED: _("Your password changed: log in again."),
        SUSPENDED: _("This account was suspended from playing; reconnect to watch."),
        BANNED: _("This account was banned from playing; reconnect to watch."),
        DEACTIVATED: _("This account was closed."),
    }
    return words.get(why, _("Your log-in has ended."))


# --- the check on every move (a database thread) ---------------------------------------
def still_stands(credential: Credential) -> bool:
    """Whether the token is still active, or the session still exists with the same session auth hash,
    and the person is still active: one statement, looked up by primary keys."""
    if credential.token_id is not None:
        return _token_stands(credential)
    return _session_stands(credential)


def _token_stands(credential: Credential) -> bool:
    using = router.db_for_read(ApiToken)
    with cursor_for(connections[using]) as cursor:
        cursor.execute(_token_sql(using), [credential.token_id, credential.user_id])
        return cursor.fetchone() is not None


@cache
def _token_sql(using: str) -> str:
    quote = connections[using].ops.quote_name
    token, user = ApiToken._meta, get_user_model()._meta
    return (
        f"SELECT 1 FROM {quote(token.db_table)} t JOIN {quote(user.db_table)} u"
        f" ON u.{quote(user.pk.column)} = t.{quote(token.get_field('user').column)}"
        f" WHERE t.{quote(token.pk.column)} = %s AND u.{quote(user.pk.column)} = %s"
        f" AND t.{quote(token.get_field('revoked_at').column)} IS NULL AND u.{quote(user.get_field('is_active').column)}"
    )


def _session_stands(credential: Credential) -> bool:
    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    if issubclass(store_class, DatabaseSessionStore):
        password, data = _password_and_session_data(store_class, credential)
        session = store_class().decode(data) if data is not None else {}
    else:  # sessions kept elsewhere (a cache, cookies): their store, then the person
        session = store_class(credential.session_key).load()
        password = get_user_model().objects.filter(pk=credential.user_id, is_active=True).values_list(
            "password", flat=True).first()
    if password is None or session.get(SESSION_KEY) != str(credential.user_id):
        return False
    if credential.hasher is None:
        credential.hasher = get_user_model()(pk=credential.user_id)
    credential.hasher.password = password
    return _hash_matches(session.get(HASH_SESSION_KEY), credential.hasher)


def _password_and_session_data(store_class, credential: Credential) -> tuple[str | None, str | None]:
    using = router.db_for_read(get_user_model())
    with cursor_for(connections[using]) as cursor:
        cursor.execute(_session_sql(using, store_class.get_model_class()),
                       [credential.session_key, timezone.now(), credential.user_id])
        row = cursor.fetchone()
    return (row[0], row[1]) if row is not None else (None, None)


@cache
def _session_sql(using: str, session_model) -> str:
    quote = connections[using].ops.quote_name
    user, session = get_user_model()._meta, session_model._meta
    return (
        f"SELECT u.{quote(user.get_field('password').column)}, s.{quote(session.get_field('session_data').column)}"
        f" FROM {quote(user.db_table)} u LEFT JOIN {quote(session.db_table)} s"
        f" ON s.{quote(session.pk.column)} = %s AND s.{quote(session.get_field('expire_date').column)} > %s"
        f" WHERE u.{quote(user.pk.column)} = %s AND u.{quote(user.get_field('is_active').column)}"
    )


def _hash_matches(session_hash, user) -> bool:
    """As django.contrib.auth.get_user verifies a session: the current secret, then the fallbacks."""
    if not session_hash:
        return False
    return constant_time_compare(session_hash, user.get_session_auth_hash()) or any(
        constant_time_compare(session_hash, fallback) for fallback in user.get_session_auth_fallback_hash())


# --- the announcements -----------------------------------------------------------------
def ended_on_commit(user_id: int, ended: str, why: str, *, token: int | None = None, session: str | None = None):
    """After commit, the person's sockets hear that a credential ended; `session` is a `session_digest`."""
    message = {"type": "credentials.ended", "ended": ended, "why": why, "token": token, "session": session}
    transaction.on_commit(lambda: publish.publish([(group(user_id), message)]))


@receiver(token_revoked)
def _token_revoked(sender, token, **kwargs) -> None:
    ended_on_commit(token.user_id, TOKEN, REVOKED, token=token.pk)


@receiver(user_logged_out)
def _logged_out(sender, request, user, **kwargs) -> None:
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if user is not None and session_key is not None:
        ended_on_commit(user.pk, SESSION, LOGGED_OUT, session=session_digest(session_key))


# The fields of a person whose change ends credentials, read before a save that may change them.
WATCHED_FIELDS = ("password", "is_active", "banned", "suspended_until")


@receiver(pre_save, sender=settings.AUTH_USER_MODEL)
def _remember_watched_fields(sender, instance, raw, update_fields, **kwargs) -> None:
    instance.credentials_before_save = None
    if raw or instance.pk is None or (update_fields is not None and not set(update_fields) & set(WATCHED_FIELDS)):
        return  # a new person, a fixture, or a save of other fields (a log-in's last_login)
    instance.credentials_before_save = sender.objects.filter(pk=instance.pk).values(*WATCHED_FIELDS).first()


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def _person_saved(sender, instance, created, **kwargs) -> None:
    before = getattr(instance, "credentials_before_save", None)
    instance.credentials_before_save = None
    if created or before is None:
        return
    if before["is_active"] and not instance.is_active:
        ended_on_commit(instance.pk, EVERYTHING, DEACTIVATED)
    elif instance.banned and not before["banned"]:
        ended_on_commit(instance.pk, EVERYTHING, BANNED)
    elif instance.suspended_until != before["suspended_until"] and instance.play_refusal is not None:
        ended_on_commit(instance.pk, EVERYTHING, SUSPENDED)
    elif instance.password != before["password"]:
        ended_on_commit(instance.pk, SESSIONS, PASSWORD_CHANGED)
