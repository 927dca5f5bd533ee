"""Every page of the second factor renders inside the site for a person who set one up."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.second_factor import log_in, set_up_totp

pytestmark = pytest.mark.usefixtures("account_limits_unused")


@pytest.mark.parametrize(
    "name", ["mfa_index", "mfa_list_webauthn", "mfa_add_webauthn", "mfa_view_recovery_codes", "mfa_deactivate_totp"]
)
def test_a_second_factor_page_renders(client, alice, password, name):
    log_in(client, "alice", password)
    set_up_totp(client, password)

    response = client.get(reverse(name))

    assert response.status_code == 200
    assert b"<html" in response.content
