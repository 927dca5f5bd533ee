"""The shape of django-allauth's cache keys that septica_site/allauth_private.py
relies on (the site's cache keeps those keys in memory while Redis is away):
these fail when an upgrade of the pinned allauth changes them."""

from __future__ import annotations

import pytest
from allauth.core.internal.ratelimit import Rate, get_cache_key
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import TOTP
from django.test import RequestFactory

from septica_site.allauth_private import RATE_LIMIT_KEYS, USED_TOTP_CODE_KEYS


@pytest.mark.parametrize("per", ["ip", "key"])
def test_allauths_limit_counts_are_under_the_rate_limit_keys(per):
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR="10.0.0.1")

    key = get_cache_key(request, app="allauth.account", action="login", rate=Rate(5, 60, per), key="alice")

    assert key.startswith(RATE_LIMIT_KEYS)


def test_a_taken_totp_code_is_marked_under_the_used_code_keys(alice):
    totp = TOTP(Authenticator(user=alice, type=Authenticator.Type.TOTP, data={}))

    assert totp._get_used_cache_key("123456").startswith(USED_TOTP_CODE_KEYS)
