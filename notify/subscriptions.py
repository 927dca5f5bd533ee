"""Devices taking web push: checking what a browser hands over, and keeping or dropping it.

A subscription is a browser's: an https endpoint at its push service, its
P-256 public key (65 bytes, an uncompressed point) and a 16-byte auth
secret, all as the Push API's `PushSubscription.toJSON()` gives them. Anything
else, or an endpoint push may not reach (notify/addresses.py), is refused
whole, with a code, and nothing is stored. A person's devices beyond
PUSH_DEVICES_MAX are dropped oldest first (a browser that resubscribes leaves
its old one behind).
"""

from __future__ import annotations

import binascii
import hmac

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction

from . import addresses
from .models import PushSubscription
from .push import b64url_decode

ENDPOINT_MAX = PushSubscription._meta.get_field("endpoint").max_length
USER_AGENT_MAX = PushSubscription._meta.get_field("user_agent").max_length


class BadSubscription(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def subscribe(user, body: object, user_agent: str = "") -> PushSubscription:
    """Keep this device for `user` (the same endpoint again updates its keys).

    An endpoint another account holds moves to `user` only from the browser
    that made it (the same auth secret: one browser signing into another
    account); anyone else who learned the endpoint is refused."""
    endpoint, p256dh, auth = checked(body)
    with transaction.atomic():
        held = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if held is not None and held.user_id != user.pk and not hmac.compare_digest(held.auth, auth):
            raise BadSubscription("endpoint_taken", "This endpoint is another account's device: subscribe again "
                                  "from that browser (it makes a new endpoint) to take push here.")
        subscription, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth, "unanswered": 0,
                                         "user_agent": user_agent[:USER_AGENT_MAX]})
        kept = PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk")[:settings.PUSH_DEVICES_MAX]
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
    try:
        addresses.checked(endpoint)
    except addresses.Refused as refusal:
        raise BadSubscription("bad_endpoint", str(refusal)) from None
    return endpoint


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
