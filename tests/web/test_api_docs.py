"""The JSON API is documented on a page of the site."""

from __future__ import annotations

import re

import pytest
from django.urls import get_resolver, reverse

from api import urls as api_urls
from games import asyncapi

pytestmark = pytest.mark.django_db


def api_paths() -> set[str]:
    """Every JSON API route, as the page writes it: /api/tables/<id>/moves, /api/leaderboard/<rules>."""
    paths = set()
    for pattern in api_urls.urlpatterns:
        route = re.sub(r"<int:\w+>", "<id>", str(pattern.pattern))
        paths.add("/api/" + re.sub(r"<(?:\w+:)?(\w+)>", r"<\1>", route))
    return paths - {"/api/docs/"}


def test_the_docs_page_mentions_every_endpoint(client):
    response = client.get(reverse("api_docs"))

    page = response.content.decode().replace("&lt;", "<").replace("&gt;", ">")
    assert response.status_code == 200
    missing = [path for path in api_paths() if f"<code>{path}</code>" not in page and f" {path}</code>" not in page]
    assert not missing, f"undocumented endpoints: {missing}"
    assert "/tables/<id>/replay.json" in page


def test_the_docs_page_explains_both_ways_to_log_in_and_every_error(client):
    page = client.get(reverse("api_docs")).content.decode()

    assert "Authorization: Bearer" in page and "X-CSRFToken" in page
    assert reverse("api_tokens") in page
    for status in ("400", "401", "403", "404", "409"):
        assert f"<code>{status}</code>" in page


def test_the_docs_page_has_a_curl_example_that_plays_a_move(client):
    page = client.get(reverse("api_docs")).content.decode()

    assert "curl -s -X POST" in page
    assert "/api/tables/42/moves" in page
    assert "{&quot;seq&quot;: 7, &quot;move&quot;: {&quot;type&quot;: &quot;play&quot;" in page or (
        '{"seq": 7, "move": {"type": "play"' in page
    )


def test_the_docs_page_lives_at_api_docs_beside_the_json_api():
    assert reverse("api_docs") == "/api/docs/"
    assert get_resolver().resolve("/api/docs/").url_name == "api_docs"
    assert get_resolver().resolve("/api/tables").url_name == "api_tables"


def test_each_rule_sets_moves_and_view_keys_are_described(client):
    page = client.get(reverse("api_docs")).content.decode()

    for word in ("septica", "familie", "americana", "legal_moves", "hand_counts", "attack", "removed", "top"):
        assert word in page.lower()
    for move_type in ("play", "end", "take", "pass", "draw"):
        assert f"&quot;type&quot;: &quot;{move_type}&quot;" in page or f'"type": "{move_type}"' in page


@pytest.mark.parametrize("language", ["en", "ro"])
def test_the_docs_page_names_exactly_the_close_codes_the_sockets_send(client, language):
    """A client that waits for a documented close code the server never sends (4403 was one) waits in vain."""
    page = client.get(reverse("api_docs"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    live = page[page.index('id="live"'):page.index('id="ws-table"')]

    assert {int(code) for code in re.findall(r"\b44\d\d\b|\b4503\b", live)} == set(asyncapi.CLOSE_CODES)
    assert reverse("api_websocket_schema") in live


def test_the_docs_page_lists_what_my_matches_sends(client):
    page = client.get(reverse("api_docs")).content.decode()
    me = page[page.index('id="ws-me"'):]
    me = me[:me.index("</section>")]

    for key in ("tables", "invitations", "your_move", "challenges"):
        assert f'"{key}"' in me.replace("&quot;", '"')
