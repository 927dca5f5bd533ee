"""Logging in with a second factor as a person would: the password on the
log-in page, then a TOTP code, computed here as an authenticator app does
(RFC 6238: HMAC-SHA1 over the 30-second step, 6 digits)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import struct
import time

from django.test import Client
from django.urls import reverse

STEP = 30


def totp_code(secret: str, steps_ahead: int = 0) -> str:
    counter = int(time.time() // STEP) + steps_ahead
    digest = hmac.new(base64.b32decode(secret, casefold=True), struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 1_000_000:06d}"


class Authenticator:
    """A person's authenticator app: the secret, and which codes were typed
    already (the site takes each code once; the step before and after are
    accepted too, so three logins fit in one step without waiting)."""

    def __init__(self, secret: str):
        self.secret = secret
        self.typed: set[str] = set()

    def code(self) -> str:
        for ahead in (0, 1, -1):
            code = totp_code(self.secret, ahead)
            if code not in self.typed:
                self.typed.add(code)
                return code
        raise AssertionError("three logins in one 30-second step: no unused code left")


def log_in(client: Client, username: str, password: str):
    return client.post(reverse("login"), {"login": username, "password": password})


def set_up_totp(client: Client, password: str) -> Authenticator:
    """On the set-up page (after typing the password again, as it asks): read
    the secret it shows, type the app's code."""
    page = client.get(reverse("mfa_activate_totp"))
    if page.status_code == 302 and page.url.startswith(reverse("account_reauthenticate")):
        again = client.post(reverse("account_reauthenticate"), {"password": password})
        assert again.status_code == 302, again.content.decode()[:2000]
        page = client.get(reverse("mfa_activate_totp"))
    assert page.status_code == 200, page
    app = Authenticator(page.context["form"].secret)
    done = client.post(reverse("mfa_activate_totp"), {"code": totp_code(app.secret)})
    assert done.status_code == 302, done.content.decode()[:2000]
    return app


def confirm_with_code(client: Client, app: Authenticator):
    """Type a code where the site asks for it again (before the admin)."""
    return client.post(reverse("mfa_reauthenticate"), {"code": app.code()})


def staff_client(user, password: str) -> Client:
    """A browser where ``user`` logged in with password and TOTP (set up on first use)."""
    client = Client()
    app: Authenticator | None = getattr(user, "_tests_authenticator", None)
    response = log_in(client, user.username, password)
    assert response.status_code == 302, response.content.decode()[:2000]
    if app is None:
        app = user._tests_authenticator = set_up_totp(client, password)
        confirmed = confirm_with_code(client, app)
        assert confirmed.status_code == 302, confirmed.content.decode()[:2000]
    else:
        assert response.url.startswith(reverse("mfa_authenticate")), response.url
        entered = client.post(reverse("mfa_authenticate"), {"code": app.code()})
        assert entered.status_code == 302, entered.content.decode()[:2000]
    return client
