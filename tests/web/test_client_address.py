"""Behind a proxy, every per-address limit counts the visitor's own address:
the one the proxy appended to X-Forwarded-For, the same for pages, the API and
websockets, and never an address the visitor wrote into the header."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import reverse

from septica_site.client_address import request_address, scope_address

pytestmark = pytest.mark.usefixtures("account_limits_unused")

PROXY = "127.0.0.1"
behind_one_proxy = override_settings(BEHIND_PROXY=True, ALLAUTH_TRUSTED_PROXY_COUNT=1)


def log_in(client, username, password, forwarded_for):
    return client.post(
        reverse("login"), {"login": username, "password": password}, REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=forwarded_for,
    )


@behind_one_proxy
def test_behind_a_proxy_one_visitors_failures_lock_only_their_address(client, alice, bob, charlie, password):
    log_in(client, "alice", "wrong-password", "203.0.113.5")
    log_in(client, "alice", "wrong-password", "203.0.113.5")
    log_in(client, "bob", "wrong-password", "203.0.113.5")
    log_in(client, "bob", "wrong-password", "203.0.113.5")
    log_in(client, "bob", "wrong-password", "203.0.113.5")

    assert log_in(client, "charlie", password, "203.0.113.5").status_code == 429
    assert log_in(client, "charlie", password, "198.51.100.9").url == reverse("home")


@behind_one_proxy
def test_an_address_written_into_the_header_by_the_visitor_is_not_believed(client, rf):
    spoofed = rf.get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.5")

    assert request_address(spoofed) == "203.0.113.5"


def test_without_behind_proxy_the_header_is_ignored(rf):
    request = rf.get("/", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="203.0.113.5")

    assert request_address(request) == "192.0.2.1"


@behind_one_proxy
def test_a_websocket_has_the_address_its_request_would_have():
    scope = {"client": (PROXY, 50000), "headers": [(b"x-forwarded-for", b"1.2.3.4, 203.0.113.5")]}

    assert scope_address(scope) == "203.0.113.5"


@override_settings(BEHIND_PROXY=True, ALLAUTH_TRUSTED_PROXY_COUNT=2)
def test_with_two_proxies_the_address_the_first_one_saw_counts(rf):
    request = rf.get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.5, 10.0.0.7")

    assert request_address(request) == "203.0.113.5"


def test_a_request_with_no_address_has_none(rf):
    request = rf.get("/")
    del request.META["REMOTE_ADDR"]

    assert request_address(request) is None  # not a made-up address: axes keeps addresses in an inet column
