"""The bots never peek, over hundreds of positions of each rule set.

At a position along a random match, the cards the seat to move cannot see
(the other hands and the stock) are dealt out again among themselves, hand
sizes kept. The seat's view must not change, and neither may the Expert's
or the Master's choice for that view and random seed, nor the analysis's
judgement of a move made there: what they decide comes from the view alone,
wherever the hidden cards really are.
"""

from __future__ import annotations

import random

import pytest

from games.engine import rules_for
from games.engine.bots import choose_move
from games.engine.bots.analysis import judge

TABLES = [
    ("septica", 2, {}),
    ("septica", 3, {}),
    ("septica", 4, {}),
    ("familie", 3, {}),
    ("familie", 5, {}),
    ("americana", 2, {}),
    ("americana", 3, {"jokers": True, "jacks_draw": True, "pairs": True}),
    ("americana", 4, {}),
]
POSITIONS = 110  # per table: more than 300 for each rule set
EXPERT_ROUNDS = 6  # sampled deals, with no time budget, so a choice depends on the view and the seed only
MASTER_POSITIONS = POSITIONS
JUDGED_POSITIONS = 60  # per table: more than 100 for each rule set


def positions(rules: str, players: int, options: dict, count: int):
    """`count` games along random matches with at least two choices for the seat to move."""
    found, seed = 0, 0
    while found < count:
        rng = random.Random(seed)
        game = rules_for(rules).new_game(players=players, options=options, seed=seed)
        while not game.finished and found < count:
            if len(game.legal_moves()) > 1 and rng.random() < 0.3:
                found += 1
                yield game
            game = game.play(rng.choice(game.legal_moves()))
        seed += 1


def hidden_dealt_again(game, seat: int, rng: random.Random):
    """The same game with the cards `seat` cannot see dealt out again among the others' hands and the stock."""
    state = game.to_state()
    others = [number for number in range(len(state["hands"])) if number != seat]
    hidden = [card for number in others for card in state["hands"][number]] + list(state["stock"])
    rng.shuffle(hidden)
    for number in others:
        size = len(state["hands"][number])
        state["hands"][number], hidden = hidden[:size], hidden[size:]
    state["stock"] = hidden
    return rules_for(state["rules"]).from_state(state), state


def views_with_hidden_cards_moved(rules: str, players: int, options: dict, count: int):
    """Each position's view from the seat to move, and the same view of the game with the hidden cards
    dealt again; asserts they are equal and that nearly every position's hidden cards really moved, so
    the choices compared differ in where the hidden cards really are."""
    moved = 0
    for number, game in enumerate(positions(rules, players, options, count)):
        seat = game.to_move
        view = game.view(seat)
        before = game.to_state()
        elsewhere, state = hidden_dealt_again(game, seat, random.Random(number))
        moved += (state["hands"], state["stock"]) != (before["hands"], before["stock"])
        shown_elsewhere = elsewhere.view(seat)
        assert shown_elsewhere == view
        yield number, view, shown_elsewhere
    assert moved >= count * 0.9


TABLE_IDS = [f"{rules}-{players}" for rules, players, _ in TABLES]


@pytest.mark.parametrize(("rules", "players", "options"), TABLES, ids=TABLE_IDS)
def test_the_analysis_judges_the_same_wherever_the_hidden_cards_are(rules, players, options):
    for number, view, shown_elsewhere in views_with_hidden_cards_moved(rules, players, options, JUDGED_POSITIONS):
        made = random.Random(number).choice(view["legal_moves"])
        judged = [judge(shown, made, random.Random(number), budget_ms=None, rounds=EXPERT_ROUNDS)
                  for shown in (view, shown_elsewhere)]
        assert judged[0] == judged[1]


@pytest.mark.parametrize(("level", "count"), [("expert", POSITIONS), ("master", MASTER_POSITIONS)])
@pytest.mark.parametrize(("rules", "players", "options"), TABLES, ids=TABLE_IDS)
def test_the_expert_and_the_master_decide_the_same_wherever_the_hidden_cards_are(rules, players, options, level,
                                                                                  count):
    for number, view, shown_elsewhere in views_with_hidden_cards_moved(rules, players, options, count):
        chosen = [choose_move(shown, level, "balanced", random.Random(number), budget_ms=None,
                              rounds=EXPERT_ROUNDS) for shown in (view, shown_elsewhere)]
        assert chosen[0] == chosen[1]
