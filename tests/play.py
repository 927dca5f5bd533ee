"""Helpers for tests that play matches through the site: start a table,
pick legal moves, and watch every answer for cards the viewer may not see."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator

from django.db import connection
from django.test import Client

from games import actions
from games.engine import rules_for
from games.engine.cards import is_card_code
from games.models import Match, Seat, Table


def start_table(creator, others, rules="septica", players=2, options=None, seconds_per_move=86400, **extra) -> Table:
    table = actions.create_table(
        creator, rules=rules, players=players, options=options or {}, seconds_per_move=seconds_per_move, **extra
    )
    for user in others:
        actions.join_table(table.pk, user, invite_code=table.invite_code)
    table.refresh_from_db()
    return table


def seated_table(creator, others, rules="septica", options=None, private=False) -> Table:
    return start_table(creator, others, rules=rules, players=1 + len(others), options=options, private=private)


def play_moves(table: Table, count: int | None = None, seed: int = 1) -> Match:
    """Random legal moves for whichever seat is to move, through `actions.play_move`,
    until the match ends (or `count` moves). Plays a card when it can, so matches end sooner."""
    rng = random.Random(seed)
    users = {seat.number: seat.user for seat in Seat.objects.filter(table=table).select_related("user")}
    match = Match.objects.get(pk=table.pk)
    game = match.game()
    played = 0
    while not game.finished and (count is None or played < count):
        move = pick_move({"legal_moves": game.legal_moves()}, rng)
        match, game = actions.play_move(table.pk, users[game.to_move], match.seq, move)
        played += 1
    table.refresh_from_db()
    match.refresh_from_db()
    return match


def bobs_move(alice, bob, **table_options) -> tuple[Table, Match]:
    """A started two-player table where it is now Bob's move."""
    table = start_table(alice, [bob], **table_options)
    bob_seat = Seat.objects.get(table=table, user=bob).number
    match = Match.objects.get(pk=table.pk)
    while match.to_move != bob_seat:
        match = play_moves(table, 1, seed=match.seq)
    return table, match


def finished_match(creator, others, rules="septica", options=None, private=False, seed=1) -> Match:
    return play_moves(seated_table(creator, others, rules, options, private), seed=seed)


def deal_again_from(table: Table, seed: int) -> None:
    """The table's started match dealt from `seed` as if it had drawn that seed (its hash too),
    so that a test gets the same match every run and its replay still checks out."""
    game = rules_for(table.rules).new_game(players=table.players, options=table.options, seed=seed)
    Match.objects.filter(pk=table.pk).update(
        seed=str(seed), seed_sha256=Match.hash_seed(seed), state=game.to_state(), to_move=game.to_move
    )


def fix_deck(table: Table, seed: int = 7, decks=None) -> None:
    """Replace a started match's deal with a known one (for scripted tests)."""
    match = table.match
    match.refresh_from_db()
    game = rules_for(table.rules).new_game(players=table.players, options=table.options, seed=seed, decks=decks)
    Match.objects.filter(pk=match.pk).update(state=game.to_state(), to_move=game.to_move)


def card_codes_in(value) -> Iterator[str]:
    if isinstance(value, str):
        if is_card_code(value):
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_codes_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_codes_in(item)


class HiddenCardWatch:
    """Checks that no answer shows a card hidden from its viewer.

    A card is hidden from a seat when it sits in another hand or in the stock,
    unless everybody saw it earlier in this deal (played, turned up, taken
    out): those are collected from the spectator's view after every move.
    """

    def __init__(self) -> None:
        self.deal = None
        self.public: set[str] = set()

    def saw_spectator_view(self, view: dict) -> None:
        if view["deal"] != self.deal:
            self.deal, self.public = view["deal"], set()
        self.public.update(card_codes_in(view))

    def check(self, answer: dict, seat: int | None, state: dict) -> None:
        hidden = set(state["stock"])
        for other, hand in enumerate(state["hands"]):
            if other != seat:
                hidden.update(hand)
        leaked = (set(card_codes_in(answer)) & hidden) - self.public
        assert not leaked, f"seat {seat} was shown hidden cards {sorted(leaked)}"


def pick_move(view: dict, rng: random.Random) -> dict:
    """A random legal move, playing a card when it can (as people do), so matches end sooner."""
    plays = [move for move in view["legal_moves"] if move["type"] == "play"]
    return rng.choice(plays or view["legal_moves"])


def post_move(client: Client, table_id: int, seq: int, move: dict):
    return client.post(f"/api/tables/{table_id}/moves", data=json.dumps({"seq": seq, "move": move}),
                       content_type="application/json")


def post_at_once(user, table_id: int, seq: int, move: dict, times: int = 20) -> list[int]:
    """`times` clients of `user` post the same move at the same moment (one thread each): their statuses, sorted."""
    clients = [Client() for _ in range(times)]
    for client in clients:
        client.force_login(user)
    statuses, start = [], threading.Barrier(times, timeout=30)

    def post(client):
        start.wait()
        try:
            statuses.append(post_move(client, table_id, seq, move).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return sorted(statuses)
