"""Web push: the site's VAPID keys, and sending one notification to a person's devices.

The key is `VAPID_PRIVATE_KEY` (a raw P-256 key in base64url, or a PEM). Unset
(the embedded setup), one is made the first time it is needed and kept in
VAR_DIR/vapid.json; the file is written whole under a temporary name and
linked into place, so two processes starting at once end up with the same key.

What leaves the server is the payload `{"title", "body", "url", "tag"}`,
encrypted for each subscription (aes128gcm). A subscription the push service
answers 404 or 410 for is gone from the browser: its row is deleted. Logs name
subscriptions by id only, never their endpoint or keys.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import json
import logging
import os
import tempfile
from dataclasses import dataclass

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from .models import Notification, PushSubscription

logger = logging.getLogger(__name__)

GONE = (404, 410)
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


def payload(notification: Notification) -> str:
    return json.dumps({"title": notification.title, "body": notification.body,
                       "url": notification.url, "tag": notification.tag})


def send(notification: Notification) -> Sent:
    """Push `notification` to each device of its person that it has not reached yet.

    Claimed per (notification, subscription) in the cache, so a task run
    twice sends nothing the second time; a claim whose send failed for a
    reason that may pass is let go, for the task's retry.
    """
    delivered = gone = failed = 0
    data = payload(notification)
    for subscription in PushSubscription.objects.filter(user_id=notification.user_id):
        claim = _claim_key(notification, subscription)
        if not cache.add(claim, 1, timeout=SENT_CLAIM_SECONDS):
            continue
        status = _push(subscription, data)
        if status in GONE:
            subscription.delete()
            gone += 1
        elif status is not None and status < 300:
            PushSubscription.objects.filter(pk=subscription.pk).update(last_sent_at=timezone.now())
            delivered += 1
        else:
            cache.delete(claim)
            failed += 1
    return Sent(delivered, gone, failed)


def _claim_key(notification: Notification, subscription: PushSubscription) -> str:
    # created_at too: on SQLite a rolled-back id comes back for another notification.
    return f"septica:push-sent:{notification.pk}:{notification.created_at.timestamp():.6f}:{subscription.pk}"


def _push(subscription: PushSubscription, data: str) -> int | None:
    """The push service's status for one message, None when it could not be reached."""
    info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
    try:
        response = webpush(info, data, vapid_private_key=vapid(), vapid_claims={"sub": settings.VAPID_SUBJECT},
                           ttl=TIME_TO_LIVE_SECONDS, timeout=settings.PUSH_TIMEOUT_SECONDS)
    except WebPushException as refused:
        status = refused.response.status_code if refused.response is not None else None
        logger.warning("push to subscription %s refused with %s", subscription.pk, status)
        return status
    except OSError as error:  # requests' connection errors among them
        logger.warning("push to subscription %s failed: %s", subscription.pk, type(error).__name__)
        return None
    return response.status_code
