"""What the browser tests share: logging a person into a browser context,
a two-player septica table with a known deal, and tables of any size whose
player to move holds a hand of any size (built through the engine's decks
and saved states, never by playing to them)."""

from __future__ import annotations

from django.conf import settings
from django.test import Client
from django.urls import reverse

from games import actions
from games.engine import rules_for
from games.engine.cards import shuffle
from games.engine.familie import CARD_VALUES
from games.engine.septica import POINT_CARDS
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


def seated_table(people, rules: str, options: dict | None = None):
    """A table of `rules` with every seat taken by `people` (the first creates it, at seat 0)."""
    table = actions.create_table(people[0], rules=rules, players=len(people), options=options or {},
                                 seconds_per_move=3600)
    for person in people[1:]:
        actions.join_table(table.pk, person)
    return table


def show_game(table, game) -> None:
    """Test-only: the table's match is now at `game` (a page shows it on its next load)."""
    Match.objects.filter(pk=table.pk).update(state=game.to_state(), to_move=game.to_move)


def game_with_hand(rules: str, players: int, size: int, options: dict | None = None, seat: int = 0):
    """A game of `rules` where `seat` is to move, holding `size` cards, with at least one card it may
    play and (when it holds two or more) one it may not. None when the rule set never gives that hand."""
    engine = rules_for(rules)
    start = engine.new_game(players=players, options=options or {}, seed=SEED)
    build = {"americana": _americana_state, "septica": _last_trick_state, "familie": _last_trick_state}[rules]
    state = build(start.to_state(), seat, size)
    return None if state is None else engine.from_state(state)


def _americana_state(state: dict, seat: int, size: int) -> dict | None:
    """`seat` holds `size` cards (as after drawing), the others one card each; the rest is stock."""
    players = state["players"]
    cards = [card for hand in state["hands"] for card in hand] + state["stock"] + state["pile"]
    top = next(card for card in cards if card[0] in "3456" and card[1] == "C")
    rest = [card for card in cards if card != top]
    fits = [card for card in rest if card[1] == "C" and card[0] not in "27AJ"][:1]
    stuck = [card for card in rest if card[1] != "C" and card[0] not in "27AJX" and card[0] != top[0]]
    mine = (fits + stuck[:1] + [card for card in rest if card not in fits + stuck[:1]])[:size]
    if len(mine) < size or len(rest) - size < players - 1:
        return None
    others = [card for card in rest if card not in mine]
    hands = [[] for _ in range(players)]
    hands[seat] = mine
    for other in range(players):
        if other != seat:
            hands[other] = [others.pop()]
    return {**state, "hands": hands, "stock": others, "pile": [top], "suit": "C", "attack": None,
            "to_move": seat, "passes": 0}


def _last_trick_state(state: dict, seat: int, size: int) -> dict | None:
    """Septica or familie at the last trick of the deal: every hand down to its first `size` cards,
    the stock empty, the other cards taken by `seat`'s left-hand neighbour, and `seat` to lead."""
    hands = state["hands"]
    if size > len(hands[seat]):
        return None
    taker = (seat + 1) % state["players"]
    taken = [card for hand in hands for card in hand[size:]] + state["stock"]
    points = [0] * state["players"]
    if state["rules"] == "septica":
        points[taker] = len(POINT_CARDS.intersection(taken))
        log = [*state["log"], ["take", taker, taken, points[taker]]]
        turn = {"turn": seat, "leader": seat, "holder": seat, "phase": "play"}
    else:
        points[taker] = sum(CARD_VALUES[card] for card in taken)
        log = [*state["log"], {"seat": taker, "type": "trick", "cards": taken, "points": points[taker]}]
        turn = {"to_move": seat, "leader": seat, "holder": seat, "phase": "lead", "passed": []}
    return {**state, "hands": [hand[:size] for hand in hands], "stock": [], "points": points, "log": log, **turn}
