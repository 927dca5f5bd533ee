"""Second-factor guesses count where failed passwords do (django-axes): per
account and per address, the same limit, the same lock-out page and cool-off.
Codes are computed as an authenticator app does (tests/second_factor.py)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from allauth.mfa.models import Authenticator as Factor
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import F
from django.test import Client
from django.urls import reverse

from tests.second_factor import Authenticator, log_in, set_up_totp, totp_code

# allauth counts in the cache, which outlives a test (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("account_limits_unused")

HERE = "10.0.0.1"
ELSEWHERE = "10.9.9.9"
LOCKED = "Too many failed log-in attempts"
INCORRECT = "Incorrect code."


@pytest.fixture
def app(alice, password) -> Authenticator:
    """Alice's authenticator app, set up in a session that then ends."""
    client = Client()
    log_in(client, "alice", password)
    return set_up_totp(client, password)


def wrong_codes(app: Authenticator, count: int) -> list[str]:
    live = {totp_code(app.secret, ahead) for ahead in (-1, 0, 1)}
    return [code for code in (f"{n:06d}" for n in range(count + 3)) if code not in live][:count]


def at_second_factor(password: str, address: str = HERE) -> Client:
    client = Client(REMOTE_ADDR=address)
    response = client.post(reverse("login"), {"login": "alice", "password": password})
    assert response.status_code == 302 and response.url.startswith(reverse("mfa_authenticate")), response
    return client


def type_code(client: Client, code: str):
    return client.post(reverse("mfa_authenticate"), {"code": code})


def logged_in(client: Client) -> str | None:
    return client.get(reverse("api_me")).json().get("username")


def cool_off_passes() -> None:
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))


def test_thirty_wrong_codes_meet_the_limit_and_the_right_one_waits_out_the_cool_off(app, password):
    client = at_second_factor(password)

    answers = [type_code(client, code) for code in wrong_codes(app, 30)]

    limit = settings.AXES_FAILURE_LIMIT
    for answer in answers[:limit - 1]:
        assert answer.status_code == 200 and INCORRECT in answer.content.decode()
    for answer in answers[limit - 1:]:
        assert answer.status_code == 429 and LOCKED in answer.content.decode()
    refused = type_code(client, app.code())
    assert refused.status_code == 429 and LOCKED in refused.content.decode()
    assert logged_in(client) is None

    cool_off_passes()

    assert type_code(client, app.code()).status_code == 302
    assert logged_in(client) == "alice"


def test_wrong_codes_lock_the_account_even_from_another_address(app, password):
    client = at_second_factor(password, address=HERE)
    for code in wrong_codes(app, settings.AXES_FAILURE_LIMIT):
        type_code(client, code)

    response = Client(REMOTE_ADDR=ELSEWHERE).post(reverse("login"), {"login": "alice", "password": password})

    assert response.status_code == 429 and LOCKED in response.content.decode()


def test_wrong_codes_lock_the_address_for_other_accounts(app, password, bob):
    client = at_second_factor(password, address=HERE)
    for code in wrong_codes(app, settings.AXES_FAILURE_LIMIT):
        type_code(client, code)

    response = Client(REMOTE_ADDR=HERE).post(reverse("login"), {"login": "bob", "password": password})

    assert response.status_code == 429


def test_failed_passwords_and_wrong_codes_share_one_count(app, password):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        Client(REMOTE_ADDR=HERE).post(reverse("login"), {"login": "alice", "password": "not-it"})
    client = at_second_factor(password)

    response = type_code(client, wrong_codes(app, 1)[0])

    assert response.status_code == 429 and LOCKED in response.content.decode()


def test_a_used_recovery_code_is_refused_again_and_counts(app, password):
    unused = Factor.objects.get(user__username="alice", type=Factor.Type.RECOVERY_CODES).wrap().get_unused_codes()
    first = at_second_factor(password)
    assert type_code(first, unused[0]).status_code == 302
    assert logged_in(first) == "alice"

    client = at_second_factor(password)
    answers = [type_code(client, unused[0]) for _ in range(settings.AXES_FAILURE_LIMIT)]

    assert INCORRECT in answers[0].content.decode()
    assert answers[-1].status_code == 429 and LOCKED in answers[-1].content.decode()
    assert type_code(client, unused[1]).status_code == 429
    assert logged_in(client) is None


def test_a_failed_passkey_counts(app, password):
    client = at_second_factor(password)
    client.get(reverse("mfa_authenticate"))  # the page starts the passkey ceremony
    forged = {
        "id": "AAAA", "rawId": "AAAA", "type": "public-key",
        "response": {"clientDataJSON": "e30", "authenticatorData": "AAAA", "signature": "AAAA"},
    }
    answers = [client.post(reverse("mfa_authenticate"), {"credential": json.dumps(forged)})
               for _ in range(settings.AXES_FAILURE_LIMIT)]

    assert answers[0].status_code == 200
    assert answers[-1].status_code == 429 and LOCKED in answers[-1].content.decode()
    assert type_code(client, app.code()).status_code == 429


def test_the_right_code_resets_the_count_as_a_password_does(app, password):
    limit = settings.AXES_FAILURE_LIMIT
    client = at_second_factor(password)
    for code in wrong_codes(app, limit - 1):
        type_code(client, code)
    assert type_code(client, app.code()).status_code == 302

    again = at_second_factor(password)
    answers = [type_code(again, code) for code in wrong_codes(app, limit - 1)]

    assert all(answer.status_code == 200 for answer in answers)
    assert type_code(again, app.code()).status_code == 302
    assert logged_in(again) == "alice"


def test_wrong_codes_when_asked_again_count_too(app, password):
    client = at_second_factor(password)
    assert type_code(client, app.code()).status_code == 302

    answers = [client.post(reverse("mfa_reauthenticate"), {"code": code})
               for code in wrong_codes(app, settings.AXES_FAILURE_LIMIT)]

    assert answers[-1].status_code == 429 and LOCKED in answers[-1].content.decode()
    assert client.post(reverse("mfa_reauthenticate"), {"code": app.code()}).status_code == 429
