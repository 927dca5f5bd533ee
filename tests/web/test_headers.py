"""Security headers as a browser receives them: every page carries a strict
Content-Security-Policy and holds no inline script for it to block, and no
answer that shows a hand may be stored by a browser or a proxy (a shared
computer's back button, a cache between the site and its players)."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games import actions
from games.models import Match
from tests.play import finished_match, seated_table

pytestmark = pytest.mark.django_db

# (path, who asks): every kind of page a person meets.
PAGES = [
    ("/", None),
    ("/play/", "alice"),
    ("/play/new/", "alice"),
    ("/matches/", "alice"),
    ("/rules/", None),
    ("/rules/septica/", None),
    ("/rules/americana/", None),
    ("/rules/familie/", None),
    ("/rules/which-game/", None),
    ("/tutorial/", None),
    ("/tutorial/septica/1/", None),
    ("/tutorial/americana/2/", None),
    ("/accounts/login/", None),
    ("/accounts/signup/", None),
    ("/accounts/profile/", "alice"),
    ("/accounts/tokens/", "alice"),
    ("/accounts/password/reset/", None),
    ("/accounts/password/change/", "alice"),
    ("/accounts/email/", "alice"),
    ("/accounts/2fa/", "alice"),
    ("/accounts/reauthenticate/", "alice"),
    ("/api/docs/", None),
    ("/admin/login/", None),
]


def policy_of(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"{response.request['PATH_INFO']} has no Content-Security-Policy"
    directives = {}
    for part in header.split(";"):
        name, *sources = part.split()
        directives[name] = sources
    return directives


class InlineCode(HTMLParser):
    """Everything a policy without 'unsafe-inline' would block in a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "script" and not attributes.get("src") and attributes.get("type") != "application/json":
            self.found.append(f"an inline <script> (line {self.getpos()[0]})")
        if tag == "style":
            self.found.append(f"a <style> element (line {self.getpos()[0]})")
        for name, value in attributes.items():
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}> (line {self.getpos()[0]})")
            if name == "style":
                self.found.append(f"a style attribute on <{tag}> (line {self.getpos()[0]})")
            if name in {"href", "src", "action", "formaction"} and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"a javascript: URL on <{tag}> (line {self.getpos()[0]})")


def inline_code_in(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


@pytest.fixture
def people(alice, bob):
    return {"alice": alice, "bob": bob}


@pytest.fixture
def playing_table(alice, bob):
    return seated_table(alice, [bob])


def page_paths(playing_table, finished) -> list[tuple[str, str | None]]:
    return [*PAGES, (f"/tables/{playing_table.pk}/", "alice"), (f"/tables/{finished.pk}/replay/", "alice")]


def get_as(client, people, path: str, who: str | None):
    client.logout()
    if who:
        client.force_login(people[who])
    response = client.get(path, follow=True)
    assert response.status_code == 200, f"{path}: {response.status_code}"
    return response


def test_every_page_carries_a_strict_policy(client, people, playing_table, alice, bob):
    finished = finished_match(alice, [bob])
    for path, who in page_paths(playing_table, finished):
        policy = policy_of(get_as(client, people, path, who))

        assert policy["default-src"] == ["'self'"], path
        assert policy["script-src"] == ["'self'"], path
        assert policy["object-src"] == ["'none'"], path
        assert policy["base-uri"] == ["'self'"], path
        assert policy["frame-ancestors"] == ["'none'"], path
        assert policy["form-action"] == ["'self'"], path
        assert sorted(policy["img-src"]) == ["'self'", "data:"], path
        assert policy["style-src"] == ["'self'"], path
        # The page's own websockets, named too for browsers older than CSP 3's "'self' covers ws:".
        assert sorted(policy["connect-src"]) == ["'self'", "ws://testserver"], path


def test_a_page_over_https_allows_its_secure_websocket(client):
    policy = policy_of(client.get("/", secure=True, follow=True))

    assert sorted(policy["connect-src"]) == ["'self'", "wss://testserver"]


def test_no_page_holds_code_the_policy_would_block(client, people, playing_table, alice, bob):
    finished = finished_match(alice, [bob])
    for path, who in page_paths(playing_table, finished):
        html = get_as(client, people, path, who).content.decode()

        assert inline_code_in(html) == [], path


# --- Cache-Control: no-store -------------------------------------------------------------
def assert_not_stored(response, what: str):
    directives = {part.strip() for part in response.headers.get("Cache-Control", "").split(",")}
    assert "no-store" in directives, f"{what} may be stored: Cache-Control {response.headers.get('Cache-Control')!r}"


def post_json(client, path: str, body: dict | None = None):
    return client.post(path, json.dumps(body or {}), content_type="application/json")


def test_the_table_page_and_its_api_answers_are_never_stored(client, alice, bob, charlie):
    table = seated_table(alice, [bob])
    match = Match.objects.get(pk=table.pk)
    mover = alice if table.seats.get(user=alice).number == match.to_move else bob
    client.force_login(mover)

    page = client.get(f"/tables/{table.pk}/")
    detail = client.get(f"/api/tables/{table.pk}")
    move = detail.json()["view"]["legal_moves"][0]
    moved = post_json(client, f"/api/tables/{table.pk}/moves", {"seq": match.seq, "move": move})
    back = post_json(client, f"/api/tables/{table.pk}/back")

    assert [page.status_code, detail.status_code, moved.status_code, back.status_code] == [200, 200, 200, 200]
    assert "hand" in detail.json()["view"]
    for response, what in [(page, "the table page"), (detail, "GET /api/tables/<id>"), (moved, "a move's answer"),
                           (back, "taking a seat back")]:
        assert_not_stored(response, what)


def test_joining_leaving_and_a_rematch_are_never_stored(client, alice, bob, charlie):
    open_table = actions.create_table(charlie, rules="septica", players=3, seconds_per_move=86400)
    finished = finished_match(alice, [bob])
    client.force_login(alice)

    joined = post_json(client, f"/api/tables/{open_table.pk}/join")
    left = post_json(client, f"/api/tables/{open_table.pk}/leave")
    rematch = post_json(client, f"/api/tables/{finished.pk}/rematch")
    my_matches = client.get("/api/me/matches")

    assert [joined.status_code, left.status_code, rematch.status_code, my_matches.status_code] == [200, 200, 201, 200]
    for response, what in [(joined, "joining"), (left, "leaving"), (rematch, "a rematch"),
                           (my_matches, "/api/me/matches")]:
        assert_not_stored(response, what)


def test_an_api_error_is_never_stored_either(client, alice):
    client.force_login(alice)

    missing = client.get("/api/tables/987654")

    assert missing.status_code == 404
    assert_not_stored(missing, "an /api/ error")


def test_the_replay_of_a_finished_match_is_never_stored(client, alice, bob):
    finished = finished_match(alice, [bob])

    page = client.get(reverse("replay", args=[finished.pk]))
    steps = client.get(reverse("replay_json", args=[finished.pk]))

    assert [page.status_code, steps.status_code] == [200, 200]
    assert_not_stored(page, "the replay page")
    assert_not_stored(steps, "the replay's steps")


def test_a_tutorial_step_and_its_moves_are_never_stored(client):
    page = client.get("/tutorial/septica/5/")
    moved = post_json(client, "/tutorial/septica/5/move", {"done": [], "move": {"type": "play", "card": "9C"}})

    assert [page.status_code, moved.status_code] == [200, 200]
    assert moved.json()["view"]["hand"]
    assert_not_stored(page, "a tutorial step")
    assert_not_stored(moved, "a tutorial move's answer")


def test_every_page_for_a_signed_in_person_is_never_stored(client, alice):
    client.force_login(alice)

    for path in ["/", "/play/", "/matches/", "/accounts/profile/", "/accounts/tokens/", "/rules/septica/"]:
        assert_not_stored(client.get(path, follow=True), path)


def test_the_favicon_is_cached_for_a_signed_in_person_too(client, alice):
    client.force_login(alice)

    answer = client.get("/favicon.ico")

    assert answer.status_code == 200
    assert "no-store" not in answer.get("Cache-Control", "")
    assert "max-age=604800" in answer["Cache-Control"]
