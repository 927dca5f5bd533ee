"""game_from_view: a complete game guessed from one seat's view."""

from __future__ import annotations

import random

import pytest

from games.engine import rules_for
from games.engine.bots.registry import game_from_view

TABLES = [
    ("septica", 2, {}),
    ("septica", 3, {}),
    ("septica", 4, {}),
    ("septica", 6, {"teams": False}),
    ("familie", 2, {}),
    ("familie", 5, {}),
    ("americana", 2, {}),
    ("americana", 3, {"jokers": True, "jacks_draw": True, "pairs": True}),
    ("americana", 4, {}),
]


def views_along_random_play(rules, players, options, seed, every=0.25):
    rng = random.Random(seed)
    game = rules_for(rules).new_game(players=players, options=options, seed=seed)
    for _ in range(500):
        if game.finished:
            return
        if rng.random() < every:
            yield game, game.view(game.to_move)
        game = game.play(rng.choice(game.legal_moves()))


def cards_of(game) -> list[str]:
    state = game.to_state()
    cards = [card for hand in state["hands"] for card in hand] + list(state["stock"])
    if state["rules"] == "americana":
        return sorted(cards + list(state["pile"]))
    played = (
        [entry[2] for entry in state["log"] if entry[0] == "play"]
        if state["rules"] == "septica"
        else [entry["card"] for entry in state["log"] if entry["type"] == "play"]
    )
    return sorted(cards + played + list(state.get("removed", [])))


@pytest.mark.parametrize(("rules", "players", "options"), TABLES)
def test_a_guessed_game_shows_its_seat_exactly_the_view_it_was_built_from(rules, players, options):
    for seed in range(2):
        for _game, view in views_along_random_play(rules, players, options, seed):
            guess = game_from_view(view, random.Random(seed))
            assert guess.view(view["seat"]) == view
            assert cards_of(guess) == sorted(rules_for(rules).full_deck(players, guess.options))


@pytest.mark.parametrize(("rules", "players", "options"), TABLES)
def test_a_guessed_game_plays_on_with_the_same_legal_moves(rules, players, options):
    for game, view in views_along_random_play(rules, players, options, seed=11):
        guess = game_from_view(view, random.Random(3))
        assert guess.legal_moves() == game.legal_moves()
        move = guess.legal_moves()[0]
        guess.play(move)  # the guess is a working game


def test_different_guesses_give_other_seats_different_cards():
    game = rules_for("septica").new_game(players=2, seed=5)
    view = game.view(0)
    guesses = {tuple(game_from_view(view, random.Random(seed)).to_state()["hands"][1]) for seed in range(10)}
    assert len(guesses) > 1


def test_americana_guesses_keep_the_buried_cards_where_the_log_puts_them():
    rng = random.Random(4)
    for seed in range(60):
        game = rules_for("americana").new_game(players=2, seed=seed)
        for _ in range(80):
            if game.finished:
                break
            view = game.view(game.to_move)
            truth = game.to_state()
            guess = game_from_view(view, rng).to_state()
            buried = [entry["card"] for entry in view["log"] if entry["type"] == "bury"]
            played = {entry["card"] for entry in view["log"] if entry["type"] == "play"}
            reshuffled = any(entry["type"] == "reshuffle" for entry in view["log"])
            for card in buried:
                if card in played or reshuffled:
                    continue
                where_true = [s for s, hand in enumerate(truth["hands"]) if card in hand]
                where_guess = [s for s, hand in enumerate(guess["hands"]) if card in hand]
                assert where_true == where_guess
                if card in truth["stock"]:
                    assert truth["stock"].index(card) == guess["stock"].index(card)
            game = game.play(rng.choice(game.legal_moves()))


def test_a_spectator_view_cannot_be_completed():
    game = rules_for("familie").new_game(players=3, seed=1)
    with pytest.raises(ValueError):
        game_from_view(game.view(None), random.Random(1))


def test_americana_guesses_keep_a_hand_clear_of_what_its_player_showed_it_lacked():
    """Seat 1 drew on a heart four: it held no heart, no four and no seven, bar the card it drew."""
    dealt = ["4H", "KS", "5C", "QS", "6C", "TD", "8C", "3D", "9C", "8S", "9H"]
    deck = dealt + [card for card in rules_for("americana").full_deck(2, {"jokers": False}) if card not in dealt]
    game = rules_for("americana").new_game(players=2, decks=[deck])
    game = game.play({"type": "play", "card": "4H"})
    assert game.legal_moves() == [{"type": "draw"}]
    game = game.play({"type": "draw"})
    view = game.view(0)
    fitted = 0
    for seed in range(40):
        hand = game_from_view(view, random.Random(seed)).to_state()["hands"][1]
        assert len(hand) == 6
        fitting = [card for card in hand if card[1] == "H" or card[0] in "47"]
        assert len(fitting) <= 1  # only the card drawn since may fit
        fitted += len(fitting)
    assert fitted > 0  # the drawn card may be anything
