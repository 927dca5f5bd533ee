"""What the browser tests share: logging a person into a browser context,
and a two-player septica table with a known deal."""

from __future__ import annotations

from django.conf import settings
from django.test import Client
from django.urls import reverse

from games import actions
from games.engine import rules_for
from games.engine.cards import shuffle
from games.models import Match
from tests.second_factor import staff_client

STAFF_PASSWORD = "cards-on-the-table-7"  # the `password` fixture's, which make_user gives everyone
SEED = 20240917
OPTIONS = {"match": "points-21", "eights_cut": False, "teams": False}
# A fixed deck: the same deal every run.
DECK = shuffle([rank + suit for suit in "CDHS" for rank in "789TJQKA"], 1, 0, 0)


def log_in(context, server, user):
    """Give the browser context a session for `user` on `server` (staff's
    opened with a second factor, which the admin asks for)."""
    if user.is_staff or user.is_superuser:
        client = staff_client(user, STAFF_PASSWORD)
    else:
        client = Client()
        client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": server.url}])


def started_septica_table(alice, bob):
    table = actions.create_table(alice, rules="septica", players=2, options=OPTIONS, seconds_per_move=3600)
    actions.join_table(table.pk, bob)
    # Test-only setup, before any page is open: the same seats, a known deck.
    game = rules_for("septica").new_game(players=2, options=OPTIONS, seed=SEED, decks=[DECK])
    Match.objects.filter(pk=table.pk).update(state=game.to_state(), to_move=game.to_move)
    return table


def current_game(table):
    return (Match.objects.select_related("table").get(pk=table.pk)).game()


CSRF = "a" * 32  # any well-formed token: the cookie and the header only have to agree


def post_json(context, server, path: str, body: dict):
    context.add_cookies([{"name": "csrftoken", "value": CSRF, "url": server.url}])
    return context.request.post(f"{server.url}{path}", data=body, headers={"X-CSRFToken": CSRF})


def open_live_lobby(context, server):
    """The lobby page in `context`, once its live socket is open."""
    page = context.new_page()
    page.goto(f"{server.url}{reverse('lobby')}")
    page.wait_for_function("window.septicaLists && window.septicaLists.lobby")
    page.wait_for_timeout(300)  # the socket opens
    return page


def table_created_by(user, new_context, server, body: dict) -> int:
    """`user` creates a table through the JSON API in a browser context of their own; its id."""
    creator = new_context()
    log_in(creator, server, user)
    answer = post_json(creator, server, "/api/tables", body)
    assert answer.status == 201, answer.text()
    return answer.json()["id"]
