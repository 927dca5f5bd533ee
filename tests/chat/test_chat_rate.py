"""The chat's rate, counted from the lines stored: the same on every server, with the cache or without."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.actions.chat import say
from games.errors import TooManyRequests
from games.models import ChatLine

pytestmark = pytest.mark.django_db


def test_the_limit_holds_when_the_counts_of_the_cache_are_gone(alice, playing):
    for number in range(5):
        say(alice, playing.pk, text=f"line {number}")
    cache.clear()  # another server's cache, or Redis come back empty

    with pytest.raises(TooManyRequests) as refused:
        say(alice, playing.pk, text="one too many")

    assert refused.value.extra["code"] == "chat_rate"
    assert ChatLine.objects.count() == 5


def test_the_windows_slide_and_a_refused_line_counts_in_none(alice, playing):
    for number in range(5):
        say(alice, playing.pk, text=f"line {number}")
    with pytest.raises(TooManyRequests):
        say(alice, playing.pk, text="too soon")
    # The five lines are now eleven seconds old: the ten-second window holds none of them.
    ChatLine.objects.update(created_at=ChatLine.objects.first().created_at - timedelta(seconds=11))

    say(alice, playing.pk, text="after the burst")

    assert ChatLine.objects.count() == 6


def test_sixty_lines_in_ten_minutes_and_then_no_more(alice, playing):
    for number in range(60):
        say(alice, playing.pk, phrase="thanks")
        if number % 5 == 4:  # each burst of five pushed out of the ten-second window, kept in the ten minutes
            ChatLine.objects.filter(author=alice).update(created_at=ChatLine.objects.first().created_at - timedelta(seconds=11))

    with pytest.raises(TooManyRequests) as refused:
        say(alice, playing.pk, phrase="thanks")

    assert "60 in 10 minutes" in refused.value.message
    assert ChatLine.objects.count() == 60


def test_a_line_is_one_read_and_one_insert_in_one_transaction(alice, playing):
    say(alice, playing.pk, phrase="noroc")  # the statements made once per process are made

    with CaptureQueriesContext(connection) as statements:
        line = say(alice, playing.pk, phrase="well_played")

    said = [query["sql"] or "a prepared statement" for query in statements]
    # The test's own transaction makes the line's a savepoint.
    assert len(said) == 4 and said[0].startswith("SAVEPOINT") and said[-1].startswith("RELEASE SAVEPOINT"), said
    stored = ChatLine.objects.get(pk=line.pk)
    assert (stored.author, stored.table_id, stored.room, stored.phrase, stored.text) == (
        alice, playing.pk, "players", "well_played", "")
    assert stored.created_at == line.created_at
