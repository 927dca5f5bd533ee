"""What the engine gives the bots beyond the contract: a game built from a seat's view and a guess of
what it hides (``rules.from_view``), and read-only state the bots read on their own guessed games."""

from __future__ import annotations

import random

import pytest

from games.engine import rules_for

TABLES = [
    ("septica", 2, {"match": "points-21"}),
    ("septica", 3, {}),
    ("septica", 4, {}),
    ("familie", 2, {}),
    ("familie", 5, {}),
    ("americana", 2, {"target": 301}),
    ("americana", 3, {"jokers": True, "jacks_draw": True, "pairs": True}),
]


def moments(rules, players, options, seed):
    """The games along a random match, seat to move, until it ends."""
    rng = random.Random(seed)
    game = rules_for(rules).new_game(players=players, options=options, seed=seed)
    for _ in range(600):
        if game.finished:
            return
        yield game
        game = game.play(rng.choice(game.legal_moves()))


def rebuilt(game, seat):
    """The game built back from ``seat``'s view and the cards that view hides, as they really are."""
    state = game.to_state()
    return game.rules.from_view(
        game.view(seat), state["hands"], state["stock"], state["seed"], pile=state.get("pile")
    )


@pytest.mark.parametrize(("rules", "players", "options"), TABLES)
def test_a_view_and_the_true_hidden_cards_give_back_the_very_game(rules, players, options):
    for seed in range(2):
        for game in moments(rules, players, options, seed):
            seat = random.Random(seed).randrange(players)
            again = rebuilt(game, seat)
            assert again.to_state() == game.to_state()
            assert again.view(seat) == game.view(seat)
            assert again.legal_moves() == game.legal_moves()


@pytest.mark.parametrize("rules", ["septica", "familie", "americana"])
def test_hidden_cards_that_do_not_fit_the_view_are_refused(rules):
    game = rules_for(rules).new_game(players=2, seed=3)
    state = game.to_state()
    view = game.view(0)
    hands = [list(view["hand"]), list(view["hand"])]  # the other seat given seat 0's own cards
    with pytest.raises(ValueError):
        game.rules.from_view(view, hands, state["stock"], 1, pile=state.get("pile"))
    with pytest.raises(ValueError):
        game.rules.from_view(view, state["hands"], state["stock"][1:], 1, pile=state.get("pile"))


@pytest.mark.parametrize("rules", ["septica", "familie", "americana"])
def test_a_spectators_view_or_another_rule_sets_cannot_be_completed(rules):
    game = rules_for(rules).new_game(players=2, seed=3)
    state = game.to_state()
    with pytest.raises(ValueError, match="seated"):
        game.rules.from_view(game.view(None), state["hands"], state["stock"], 1, pile=state.get("pile"))
    other = rules_for("familie" if rules != "familie" else "septica")
    with pytest.raises(ValueError, match="view"):
        other.from_view(game.view(0), state["hands"], state["stock"], 1, pile=state.get("pile"))


def test_an_americana_game_needs_its_whole_pile():
    game = rules_for("americana").new_game(players=2, seed=3)
    state = game.to_state()
    with pytest.raises(ValueError, match="pile"):
        game.rules.from_view(game.view(0), state["hands"], state["stock"], 1)


SAVED_AS = {
    "septica": ["hands", "stock", "trick", "leader", "holder", "points", "deal"],
    "familie": ["hands", "stock", "table", "holder", "passed", "points", "deal"],
    "americana": ["deal"],
}


def plain(value):
    return [plain(item) for item in value] if isinstance(value, tuple) else value


@pytest.mark.parametrize(("rules", "players", "options"), TABLES)
def test_the_read_only_state_is_what_the_saved_state_says(rules, players, options):
    for game in moments(rules, players, options, seed=5):
        state = game.to_state()
        for name in SAVED_AS[rules]:
            assert plain(getattr(game, name)) == state[name], name
        assert game.deal == game.view(None)["deal"]
        if rules == "septica":
            assert plain(game.last_deal) == state["last_deal"]
            assert list(game.cutters) == game.view(None)["cutters"]
            assert [game.sides[side] for side in game.side_of] == [
                next(side for side in game.sides if seat in side) for seat in range(players)
            ]


def test_septica_sides_are_the_teams():
    game = rules_for("septica").new_game(players=4, seed=1)
    assert game.sides == ((0, 2), (1, 3))
    assert game.side_of == (0, 1, 0, 1)
    assert rules_for("septica").new_game(players=3, seed=1).sides == ((0,), (1,), (2,))
    assert rules_for("septica").new_game(players=3, seed=1).cutters == "78"


def test_the_read_only_state_cannot_be_changed():
    game = rules_for("septica").new_game(players=2, seed=1)
    with pytest.raises(AttributeError):
        game.hands = ()
    with pytest.raises(TypeError):
        game.hands[0] += ("7H",)  # type: ignore[index]
