"""Devices taking web push: checking what a browser hands over, and keeping or dropping it.

A subscription is a browser's: an https endpoint at its push service, its
P-256 public key (65 bytes, an uncompressed point) and a 16-byte auth
secret, all as the Push API's `PushSubscription.toJSON()` gives them. Anything
else is refused whole, with a code, and nothing is stored.
"""

from __future__ import annotations

import binascii
import ipaddress
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.db import transaction

from .models import PushSubscription
from .push import b64url_decode

ENDPOINT_MAX = PushSubscription._meta.get_field("endpoint").max_length
USER_AGENT_MAX = PushSubscription._meta.get_field("user_agent").max_length
# A person's devices beyond this many are dropped oldest first (a browser that resubscribes leaves its old one).
DEVICES_MAX = 20


class BadSubscription(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def subscribe(user, body: object, user_agent: str = "") -> PushSubscription:
    """Keep this device for `user` (the same endpoint again updates its keys)."""
    endpoint, p256dh, auth = checked(body)
    with transaction.atomic():
        subscription, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth,
                                         "user_agent": user_agent[:USER_AGENT_MAX]})
        kept = PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk")[:DEVICES_MAX]
        PushSubscription.objects.filter(user=user).exclude(pk__in=list(kept.values_list("pk", flat=True))).delete()
    return subscription


def unsubscribe(user, body: object) -> int:
    """Forget this device of `user`; how many were forgotten (0 or 1)."""
    endpoint = body.get("endpoint") if isinstance(body, dict) else None
    if not isinstance(endpoint, str) or not endpoint:
        raise BadSubscription("no_endpoint", "Send the subscription's endpoint.")
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted


def checked(body: object) -> tuple[str, str, str]:
    if not isinstance(body, dict):
        raise BadSubscription("bad_subscription", "Send the subscription as a JSON object: {endpoint, keys: {p256dh, auth}}.")
    keys = body.get("keys")
    if not isinstance(keys, dict):
        raise BadSubscription("bad_keys", "The subscription has no keys: send keys.p256dh and keys.auth.")
    return _endpoint(body.get("endpoint")), _p256dh(keys.get("p256dh")), _auth(keys.get("auth"))


def _endpoint(endpoint: object) -> str:
    if not isinstance(endpoint, str) or len(endpoint) > ENDPOINT_MAX:
        raise BadSubscription("bad_endpoint", f"The endpoint must be an https URL of at most {ENDPOINT_MAX} characters.")
    parts = urlsplit(endpoint)
    if parts.scheme != "https" or not parts.hostname or parts.username or parts.password:
        raise BadSubscription("bad_endpoint", "The endpoint must be an https URL at a push service.")
    if _is_local(parts.hostname):
        raise BadSubscription("bad_endpoint", "The endpoint must be at a push service on the internet.")
    return endpoint


def _is_local(hostname: str) -> bool:
    if hostname == "localhost" or hostname.endswith((".localhost", ".local", ".internal")):
        return True
    try:
        address = ipaddress.ip_address(hostname.strip("[]"))
    except ValueError:
        return False
    return not address.is_global


def _decoded(text: object, code: str, message: str) -> bytes:
    if not isinstance(text, str) or not text or len(text) > 200:
        raise BadSubscription(code, message)
    try:
        return b64url_decode(text)
    except (binascii.Error, ValueError):
        raise BadSubscription(code, message) from None


def _p256dh(text: object) -> str:
    message = "keys.p256dh must be the browser's P-256 public key: 65 bytes (an uncompressed point), base64url."
    raw = _decoded(text, "bad_p256dh", message)
    if len(raw) != 65 or raw[0] != 4:
        raise BadSubscription("bad_p256dh", message)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        raise BadSubscription("bad_p256dh", message) from None
    return text


def _auth(text: object) -> str:
    message = "keys.auth must be the subscription's 16-byte authentication secret, base64url."
    if len(_decoded(text, "bad_auth", message)) != 16:
        raise BadSubscription("bad_auth", message)
    return text
