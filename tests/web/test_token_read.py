"""A bearer token's one read (accounts/token_read.py) gives the token and its person
exactly as the ORM does, on SQLite and on PostgreSQL, and nothing for a revoked one."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import ApiToken
from accounts.token_read import active_token
from tests.web.test_move_rows import fields_of, time_zones_of


@pytest.mark.django_db
def test_the_token_and_its_person_come_as_the_orm_reads_them(alice):
    token, secret = ApiToken.issue(alice, "script")
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=token.created_at)

    with CaptureQueriesContext(connection) as reads:
        found = active_token(secret)

    orm = ApiToken.objects.select_related("user").get(pk=token.pk)
    assert len(reads) == 1
    assert fields_of(found) == fields_of(orm) and fields_of(found.user) == fields_of(orm.user)
    assert time_zones_of(found) == time_zones_of(orm) and time_zones_of(found)
    assert found.user.username == "alice"


@pytest.mark.django_db
def test_a_revoked_or_unknown_secret_finds_nothing(alice):
    token, secret = ApiToken.issue(alice, "script")
    assert active_token(secret + "x") is None
    token.revoke()
    assert active_token(secret) is None


@pytest.mark.django_db
def test_a_call_with_a_token_reads_it_once(client, alice):
    _, secret = ApiToken.issue(alice, "script")
    ApiToken.objects.update(last_used_at=None)
    client.get("/api/me", HTTP_AUTHORIZATION=f"Bearer {secret}")  # the first use writes last_used_at

    with CaptureQueriesContext(connection) as reads:
        answer = client.get("/api/me", HTTP_AUTHORIZATION=f"Bearer {secret}")

    assert answer.json()["username"] == "alice"
    assert len(reads) == 1, [query["sql"] for query in reads]
