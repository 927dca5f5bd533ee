"""Passkeys where the browser has them: a staff member adds one (Chromium's
virtual authenticator stands in for the phone or the laptop's sensor: real
WebAuthn ceremonies, real signatures), then logs in with it alone and opens
the admin. The pages keep the site's Content-Security-Policy."""

from __future__ import annotations

import pytest
from allauth.mfa.models import Authenticator
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def passkeys_on_http(settings):
    # The test server is plain http on localhost, which browsers treat as secure for WebAuthn.
    settings.MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = True


def with_virtual_authenticator(context, page):
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True, "automaticPresenceSimulation": True,
    }})
    return cdp, added["authenticatorId"]


def test_staff_add_a_passkey_and_open_the_admin_with_it_alone(live_server, new_context, make_user, password,
                                                               passkeys_on_http):
    make_user("mod", is_staff=True)
    context = new_context(viewport={"width": 1280, "height": 900}, bypass_csp=False)
    page = context.new_page()
    cdp, authenticator_id = with_virtual_authenticator(context, page)

    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username or e-mail").fill("mod")
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.locator("main")).to_contain_text("Welcome back")

    page.goto(f"{live_server.url}/accounts/2fa/webauthn/add/")
    if "/reauthenticate/" in page.url:  # adding a key asks for the password again
        page.locator("main input[type=password]").fill(password)
        page.locator("main button[type=submit]").first.click()
        page.wait_for_url("**/2fa/webauthn/add/**")
    page.locator("main input[name=name]").fill("laptop")
    page.locator("main input[name=passwordless]").check()
    page.locator("#mfa_webauthn_add").click()
    page.wait_for_url(lambda url: "/webauthn/add/" not in url)
    assert Authenticator.objects.filter(user__username="mod", type=Authenticator.Type.WEBAUTHN).count() == 1
    assert len(cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator_id})["credentials"]) == 1

    context.clear_cookies()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("button", name="Use a passkey").click()
    expect(page.locator("main")).to_contain_text("Welcome back")

    page.goto(f"{live_server.url}/admin/")
    expect(page.locator("#site-name, h1").first).to_be_visible()
    assert page.url == f"{live_server.url}/admin/"
