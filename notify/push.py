"""Web push: the site's VAPID keys, and sending one notification to a person's devices.

The key is `VAPID_PRIVATE_KEY` (a raw P-256 key in base64url, or a PEM). Unset
(the embedded setup), one is made the first time it is needed and kept in
VAR_DIR/vapid.json; the file is written whole under a temporary name and
linked into place, so two processes starting at once end up with the same key.

What leaves the server is the payload `{"title", "body", "url", "tag"}`,
encrypted for each subscription (aes128gcm), sent only to an address
notify/addresses.py approves, with short timeouts (PUSH_CONNECT_TIMEOUT_SECONDS,
PUSH_READ_TIMEOUT_SECONDS). A subscription the push service answers 404 or 410
for is gone from the browser: its row is deleted; so is one that went
unanswered twice in a row. Logs name subscriptions by id only, never their
endpoint or keys.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import json
import logging
import os
import tempfile
import time
from dataclasses import dataclass

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.db.models import F
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from . import addresses
from .models import Notification, PushSubscription

logger = logging.getLogger(__name__)

GONE = (404, 410)
# A device whose push service did not answer this many deliveries in a row is dropped as a gone one.
UNANSWERED_MAX = 2
# How long a push service keeps a message for a device that is offline.
TIME_TO_LIVE_SECONDS = 12 * 3600
SENT_CLAIM_SECONDS = 2 * 86400


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# --- the keys ------------------------------------------------------------------------
@functools.cache
def vapid() -> Vapid:
    """The site's VAPID key pair (read once a process)."""
    configured = settings.VAPID_PRIVATE_KEY
    key = _from_setting(configured) if configured else _from_file(settings.VAR_DIR / "vapid.json")
    if settings.VAPID_PUBLIC_KEY and _public_of(key) != settings.VAPID_PUBLIC_KEY:
        raise ImproperlyConfigured("VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY.")
    return key


def public_key() -> str:
    """The application server key a browser subscribes with (uncompressed point, base64url)."""
    return _public_of(vapid())


def _public_of(key: Vapid) -> str:
    point = key.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(point)


def _from_setting(text: str) -> Vapid:
    try:
        if text.startswith("-----BEGIN"):
            return Vapid.from_pem(text.encode())
        return Vapid.from_string(text)
    except Exception:
        raise ImproperlyConfigured("VAPID_PRIVATE_KEY is neither a base64url P-256 key nor a PEM.") from None


def _from_file(path) -> Vapid:
    if not path.exists():
        _write_new_key(path)
    return Vapid.from_string(json.loads(path.read_text())["private_key"])


def _write_new_key(path) -> None:
    key = Vapid()
    key.generate_keys()
    raw = key.private_key.private_numbers().private_value.to_bytes(32, "big")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".vapid-")
    try:
        with os.fdopen(fd, "w") as file:
            json.dump({"private_key": b64url(raw), "public_key": _public_of(key)}, file)
        os.chmod(temporary, 0o600)
        with contextlib.suppress(FileExistsError):  # another process won: its key is the key
            os.link(temporary, path)
    finally:
        os.unlink(temporary)


# --- sending ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Sent:
    delivered: int = 0
    gone: int = 0
    failed: int = 0
    over_bound: bool = False


def payload(notification: Notification) -> str:
    return json.dumps({"title": notification.title, "body": notification.body,
                       "url": notification.url, "tag": notification.tag})


def send(notification: Notification) -> Sent:
    """Push `notification` to each device of its person that it has not reached yet.

    Claimed per (notification, subscription) in the cache, so a task run
    twice sends nothing the second time; a claim whose send failed for a
    reason that may pass is let go, for the task's retry. A person gets at
    most PUSH_DELIVERIES_PER_MINUTE pushes a minute: the rest are only in the page.
    """
    subscriptions = list(PushSubscription.objects.filter(user_id=notification.user_id))
    if subscriptions and not within_bound(notification):
        logger.info("push of notification %s not sent: its person had their pushes for this minute", notification.pk)
        return Sent(over_bound=True)
    delivered = gone = failed = 0
    data = payload(notification)
    for subscription in subscriptions:
        claim = _claim_key(notification, subscription)
        if not _claimed(claim):
            continue
        status = _push(subscription, data)
        if status in GONE or (status is None and _unanswered_again(subscription)):
            subscription.delete()
            gone += 1
        elif status is not None and status < 300:
            PushSubscription.objects.filter(pk=subscription.pk).update(last_sent_at=timezone.now(), unanswered=0)
            delivered += 1
        else:
            if status is not None:
                PushSubscription.objects.filter(pk=subscription.pk).update(unanswered=0)
            with contextlib.suppress(Exception):  # unreachable, it holds no claim to let go
                cache.delete(claim)
            failed += 1
    return Sent(delivered, gone, failed)


def _claimed(claim: str) -> bool:
    """Whether this run may send (nobody sent it before); yes too when the cache cannot be
    reached, since a push sent twice costs less than one never sent."""
    try:
        return cache.add(claim, 1, timeout=SENT_CLAIM_SECONDS)
    except Exception:
        logger.warning("could not claim a push in the cache: sending it unclaimed", exc_info=True)
        return True


def _unanswered_again(subscription: PushSubscription) -> bool:
    """Count one more delivery without an answer; whether that makes it UNANSWERED_MAX in a row."""
    PushSubscription.objects.filter(pk=subscription.pk).update(unanswered=F("unanswered") + 1)
    unanswered = PushSubscription.objects.filter(pk=subscription.pk).values_list("unanswered", flat=True).first()
    return unanswered is not None and unanswered >= UNANSWERED_MAX


def within_bound(notification: Notification) -> bool:
    """Count this push against its person's minute; True while within PUSH_DELIVERIES_PER_MINUTE.

    Counted in the cache, so it holds across workers; a cache that cannot be
    reached lets the push go (a lost bound costs less than a lost push)."""
    user = notification.user
    minute = int(time.time() // 60)
    # date_joined too: on SQLite a rolled-back id comes back for another person.
    key = f"septica:push-minute:{user.pk}:{user.date_joined.timestamp():.6f}:{minute}"
    try:
        cache.add(key, 0, timeout=120)
        return cache.incr(key) <= settings.PUSH_DELIVERIES_PER_MINUTE
    except Exception:
        logger.warning("could not count the pushes of notification %s's person: sending it", notification.pk,
                       exc_info=True)
        return True


def _claim_key(notification: Notification, subscription: PushSubscription) -> str:
    # created_at too: on SQLite a rolled-back id comes back for another notification.
    return f"septica:push-sent:{notification.pk}:{notification.created_at.timestamp():.6f}:{subscription.pk}"


def _push(subscription: PushSubscription, data: str) -> int | None:
    """The push service's status for one message, None when it could not be reached or may not be."""
    try:
        destination = addresses.checked(subscription.endpoint)
    except addresses.Refused as refusal:
        logger.warning("push to subscription %s not sent: %s", subscription.pk, refusal)
        return None
    info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
    timeout = (settings.PUSH_CONNECT_TIMEOUT_SECONDS, settings.PUSH_READ_TIMEOUT_SECONDS)
    try:
        with addresses.session_to(destination) as session:
            response = webpush(info, data, vapid_private_key=vapid(), vapid_claims={"sub": settings.VAPID_SUBJECT},
                               ttl=TIME_TO_LIVE_SECONDS, timeout=timeout, requests_session=session)
    except WebPushException as refused:
        status = refused.response.status_code if refused.response is not None else None
        logger.warning("push to subscription %s refused with %s", subscription.pk, status)
        return status
    except OSError as error:  # requests' connection errors and timeouts among them
        logger.warning("push to subscription %s failed: %s", subscription.pk, type(error).__name__)
        return None
    return response.status_code
