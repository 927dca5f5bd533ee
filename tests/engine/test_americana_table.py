"""The expert's bare americana table plays exactly the engine's rules and the medium bot's choices."""

from __future__ import annotations

import random

import pytest

from games.engine import rules_for
from games.engine.bots import americana
from games.engine.bots.americana_table import Table
from games.engine.bots.style import STYLES_BY_NAME
from games.engine.cards import shuffle

TABLES = [
    (2, {}),
    (3, {"jokers": True, "pairs": True, "jacks_draw": True}),
    (4, {"jacks_draw": True}),
]


class NoNoise(random.Random):
    """The medium bot breaks ties with tiny random numbers; without them it takes the first best move."""

    def random(self) -> float:
        return 0.0


class EngineShuffle:
    """Shuffles the pile back into the stock as the engine would at this point of the game."""

    def __init__(self, game) -> None:
        state = game.to_state()
        self.seed, self.deal, self.reshuffles = state["seed"], state["deal"], state["reshuffles"]

    def shuffle(self, cards: list[str]) -> None:
        self.reshuffles += 1
        cards[:] = reversed(shuffle(list(cards), self.seed, self.deal, self.reshuffles))


def key(move: dict) -> tuple:
    return (move["type"], move.get("card"), move.get("suit"))


def same_table(table: Table, game) -> None:
    state = game.to_state()
    attack = state["attack"]
    assert table.hands == state["hands"]
    assert table.stock == list(reversed(state["stock"]))
    assert table.pile == state["pile"]
    assert (table.suit, table.attack, table.owed, table.turn, table.passes) == (
        state["suit"],
        attack and attack["kind"],
        attack["count"] if attack and attack["kind"] == "draw" else 0,
        state["to_move"],
        state["passes"],
    )


def random_play(players, options, seed, moves=400):
    """(game, move) pairs along play that mixes random and medium moves, through several deals."""
    rng = random.Random(seed)
    game = rules_for("americana").new_game(players=players, options={**options, "target": 501}, seed=seed)
    for _ in range(moves):
        if game.finished:
            return
        legal = game.legal_moves()
        move = rng.choice(legal) if rng.random() < 0.5 else americana_move(game, "expert")
        yield game, move
        game = game.play(move)


def americana_move(game, style: str) -> dict:
    view = game.view(game.to_move)
    return americana.choose(americana.spot_from_view(view), view["legal_moves"], STYLES_BY_NAME[style], NoNoise())


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_the_table_offers_the_engines_legal_moves_and_plays_them_alike(players, options):
    ends = 0
    for seed in range(3):
        for game, move in random_play(players, options, seed):
            table = Table.from_game(game, EngineShuffle(game))  # type: ignore[arg-type]
            same_table(table, game)
            assert table.legal() == [key(legal) for legal in game.legal_moves()]
            table.apply(key(move))
            after = game.play(move)
            if after.deal != game.deal or after.finished:
                ends += 1
                last = after.to_state()["last_deal"]
                charged, out = last["charged"], last["out"]
                assert table.over and table.out == out
                for seat in range(players):
                    others = (sum(charged) - charged[seat]) / (players - 1)
                    assert table.score(seat, 50) == pytest.approx((out == seat) + (others - charged[seat]) / 50)
            else:
                assert not table.over
                same_table(table, after)
    assert ends > 3


@pytest.mark.parametrize(("players", "options"), TABLES)
@pytest.mark.parametrize("style", ["expert", "cautious", "aggressive"])
def test_the_table_chooses_what_the_medium_bot_chooses(players, options, style):
    for seed in range(2):
        for game, _move in random_play(players, options, seed, moves=250):
            table = Table.from_game(game, random.Random(seed))
            assert table.choose(STYLES_BY_NAME[style]) == key(americana_move(game, style))


def test_a_played_out_table_ends_its_deal():
    game = rules_for("americana").new_game(players=2, seed=3)
    table = Table.from_game(game, random.Random(1))
    table.rollout(STYLES_BY_NAME["expert"], random.Random(2), noise=0.1, limit=2000)
    assert table.over
    assert table.out is None or not table.hands[table.out]
