"""The engine under odd input, for every rule set.

- A move may be any mapping: an ``OrderedDict``, a ``MappingProxyType``, a
  ``UserDict`` or a mapping of the caller's own applies exactly like the plain
  dict; anything that is not a legal move is ``IllegalMove`` with a ``code``
  and ``params``, never another exception.
- A mapping that breaks when it is read is the caller's bug and surfaces as
  its own error: the engine does not dress it up as an illegal move.
- ``from_state`` refuses a state no game could reach with a ``ValueError``
  saying what is wrong, instead of loading it and failing later.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections import OrderedDict, UserDict
from collections.abc import Iterator, Mapping
from types import MappingProxyType

import pytest

from games.engine import RULESETS, IllegalMove, rules_for

SLUGS = ("septica", "familie", "americana")


class MoveMapping(Mapping):
    """A mapping that is not a dict, as a caller might hand over."""

    def __init__(self, move: Mapping) -> None:
        self._move = dict(move)

    def __getitem__(self, key: str) -> object:
        return self._move[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._move)

    def __len__(self) -> int:
        return len(self._move)


class DictSubclass(dict):
    pass


WRAPPERS = [
    pytest.param(OrderedDict, id="OrderedDict"),
    pytest.param(MappingProxyType, id="MappingProxyType"),
    pytest.param(UserDict, id="UserDict"),
    pytest.param(MoveMapping, id="Mapping"),
    pytest.param(DictSubclass, id="dict-subclass"),
]


def each_table():
    return [
        pytest.param(slug, players, id=f"{slug}-{players}")
        for slug in SLUGS
        for players in range(RULESETS[slug].min_players, RULESETS[slug].max_players + 1)
    ]


def playout(slug, players, seed, limit):
    """Every game of a seeded random play-out, at most ``limit`` moves deep."""
    rules, rng = rules_for(slug), random.Random(seed)
    game = rules.new_game(players=players, options={}, seed=seed)
    yield game
    for _ in range(limit):
        if game.finished:
            return
        game = game.play(rng.choice(game.legal_moves()))
        yield game


def first_game(slug, players, phase, seed=3):
    """The first game of a play-out whose spectator view is in ``phase`` (and, for "play", mid-trick)."""
    for game in playout(slug, players, seed, 2000):
        view = game.view(None)
        if view.get("phase") == phase and (phase not in ("play", "cut") or view["table"]):
            return game
    raise AssertionError(f"no {phase} moment in the play-out")


# --- moves as any mapping -----------------------------------------------------------


@pytest.mark.parametrize("wrap", WRAPPERS)
@pytest.mark.parametrize(("slug", "players"), each_table())
def test_every_legal_move_as_any_mapping_applies_like_the_plain_dict(slug, players, wrap):
    for game in playout(slug, players, seed=players, limit=80):
        for move in game.legal_moves():
            expected = game.play(dict(move)).to_state()
            assert game.play(wrap(move)).to_state() == expected, (move, game)


@pytest.mark.parametrize("wrap", WRAPPERS)
def test_septica_accepts_an_ordered_dict_at_the_lead(wrap):
    game = rules_for("septica").new_game(players=2, seed=1)
    move = game.legal_moves()[0]
    assert game.play(wrap(move)).to_state() == game.play(move).to_state()


@pytest.mark.parametrize("phase", ["play", "decide", "take"])
@pytest.mark.parametrize("wrap", WRAPPERS)
def test_septica_accepts_any_mapping_mid_trick(wrap, phase):
    game = first_game("septica", 2, phase)
    for move in game.legal_moves():
        assert game.play(wrap(move)).to_state() == game.play(move).to_state()


@pytest.mark.parametrize("phase", ["lead", "cut", "take"])
@pytest.mark.parametrize("wrap", WRAPPERS)
def test_familie_accepts_any_mapping(wrap, phase):
    game = first_game("familie", 3, phase)
    for move in game.legal_moves():
        assert game.play(wrap(move)).to_state() == game.play(move).to_state()


class CardName(str):
    """A card code as a ``str`` subclass (what some JSON or ORM layers hand back)."""


@pytest.mark.parametrize(("slug", "players"), each_table())
def test_a_move_whose_strings_are_str_subclasses_applies_like_plain_strings(slug, players):
    for game in playout(slug, players, seed=5, limit=40):
        for move in game.legal_moves():
            odd = {CardName(key): CardName(value) for key, value in move.items()}
            after = game.play(odd).to_state()
            assert after == game.play(move).to_state()
            assert all(type(card) is str for hand in after["hands"] for card in hand)
            assert json.dumps(after) == json.dumps(game.play(move).to_state())


NOT_MOVES = [None, 3, 2.5, True, "play", b"take", [], [("type", "take")], ("type", "take"), {"type", "take"}, object()]


@pytest.mark.parametrize("move", NOT_MOVES, ids=repr)
@pytest.mark.parametrize("slug", SLUGS)
def test_what_is_not_a_mapping_is_an_illegal_move_with_a_code(slug, move):
    game = rules_for(slug).new_game(players=2, seed=4)
    with pytest.raises(IllegalMove) as caught:
        game.play(move)
    assert caught.value.code == "not-a-move" and caught.value.params == {}


SLUG_RE = re.compile(r"[a-z]+(-[a-z]+)*\Z")


@pytest.mark.parametrize(("slug", "players"), each_table())
def test_every_refusal_carries_a_stable_code_and_json_ready_params(slug, players):
    codes = set()
    misses = [
        {"type": "play", "card": "ZZ"},
        {"type": "play"},
        {"type": "nonsense"},
        {"card": "7H"},
        {"type": "play", "card": "7H", "seat": 1},
        {"type": "play", "card": "7H", "suit": "Z"},
    ] + [{"type": kind} for kind in ("play", "take", "end", "pass", "draw")]
    for game in playout(slug, players, seed=6, limit=200):
        hand = game.to_state()["hands"][game.to_move] if game.to_move is not None else []
        legal = game.legal_moves()
        tries = misses + [{"type": "play", "card": card} for card in hand] + [{"type": "play", "card": "2C"}]
        for move in tries:
            if move in legal:
                continue
            with pytest.raises(IllegalMove) as caught:
                game.play(move)
            refusal = caught.value
            assert SLUG_RE.match(refusal.code), refusal.code
            assert isinstance(refusal.params, dict)
            assert json.loads(json.dumps(refusal.params)) == refusal.params
            codes.add(refusal.code)
    assert "illegal-move" not in codes  # every refusal says which rule it is
    assert {"unknown-move-type", "card-not-held", "not-a-card", "missing-card", "unexpected-key"} <= codes


def test_the_contract_example_code_and_params():
    rules = rules_for("americana")
    game = rules.new_game(players=2, seed=7)
    state = game.to_state()
    pack = rules.full_deck(2, state["options"])
    hands = [["7H", "4C"], ["5H", "KC"]]
    held = {card for hand in hands for card in hand} | {"9D"}
    state.update(
        hands=hands,
        stock=sorted(card for card in pack if card not in held),
        pile=["2D"],
        suit="D",
        attack={"kind": "draw", "count": 2},
        to_move=0,
        log=[],
    )
    state["stock"].remove("2D")
    state["stock"].append("9D")
    game = rules.from_state(state)
    with pytest.raises(IllegalMove) as caught:
        game.play({"type": "play", "card": "7H", "suit": "S"})
    assert caught.value.code == "seven-cannot-answer-draw"
    assert caught.value.params == {"card": "7H", "count": 2, "ranks": ["2"]}


class BrokenMapping(Mapping):
    """A mapping whose reading fails: a bug of the caller, not a move the rules refuse."""

    def __getitem__(self, key: str) -> object:
        raise RuntimeError("this mapping cannot be read")

    def __iter__(self) -> Iterator[str]:
        return iter(("type",))

    def __len__(self) -> int:
        return 1


@pytest.mark.parametrize("slug", SLUGS)
def test_an_error_inside_the_move_is_not_dressed_up_as_an_illegal_move(slug):
    game = rules_for(slug).new_game(players=2, seed=4)
    with pytest.raises(RuntimeError, match="cannot be read"):
        game.play(BrokenMapping())


# --- impossible states ------------------------------------------------------------------


def state_of(slug, players=3, moves=6, seed=2, **options):
    """A JSON copy of the state a few moves into a seeded match."""
    rules = rules_for(slug)
    game = rules.new_game(players=players, options=options, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        game = game.play(rng.choice(game.legal_moves()))
    return json.loads(json.dumps(game.to_state()))


def turn_key(slug):
    return "turn" if slug == "septica" else "to_move"


def duplicate_a_card(slug, state):
    state["hands"][1][0] = state["hands"][0][0]


def drop_a_hand(slug, state):
    state["hands"].pop()


def add_a_hand(slug, state):
    state["hands"].append([])


def nine_players(slug, state):
    state["players"] = 9
    state["hands"] += [[] for _ in range(9 - len(state["hands"]))]


def one_player(slug, state):
    state["players"] = 1
    state["hands"] = state["hands"][:1]


def players_as_text(slug, state):
    state["players"] = "3"


def unknown_option(slug, state):
    state["options"]["colour"] = "red"


def options_not_a_dict(slug, state):
    state["options"] = ["teams"]


def to_move_too_high(slug, state):
    state[turn_key(slug)] = 3


def to_move_negative(slug, state):
    state[turn_key(slug)] = -1


def to_move_a_bool(slug, state):
    state[turn_key(slug)] = state[turn_key(slug)] != 1  # a bool that differs from the seat it replaces


def to_move_as_text(slug, state):
    state[turn_key(slug)] = "1"


def card_not_in_the_deck(slug, state):
    state["hands"][0][0] = "2C" if slug != "americana" else "XR"


def not_a_card(slug, state):
    state["hands"][0][0] = "ZZ"


def a_card_lost(slug, state):
    state["stock"].pop()


def a_card_twice_in_the_stock(slug, state):
    state["stock"][-1] = state["stock"][0]


def hands_not_a_list(slug, state):
    state["hands"] = "7H 8H"


def a_hand_not_a_list(slug, state):
    state["hands"][0] = "7H"


def scores_too_short(slug, state):
    key = "points" if slug == "familie" else "scores"
    state[key] = state[key][:-1]


def negative_points(slug, state):
    key = "points" if slug == "familie" else "scores"
    state[key][0] = -5


def deal_negative(slug, state):
    state["deal"] = -1


def log_entry_not_a_dict(slug, state):
    state["log"].append(7)


def seed_as_text(slug, state):
    state["seed"] = "1"


def unknown_phase(slug, state):
    if "phase" in state:
        state["phase"] = "dance"
    else:
        state["attack"] = {"kind": "dance"}


def state_finished_with_a_seat_to_move(slug, state):
    if "phase" in state:
        state["phase"] = "over"
    else:
        state["scores"][0] = 200  # past the target, yet someone is to move


CORRUPTIONS = [
    (duplicate_a_card, "twice"),
    (a_card_twice_in_the_stock, "twice"),
    (drop_a_hand, "hands"),
    (add_a_hand, "hands"),
    (nine_players, "players"),
    (one_player, "players"),
    (players_as_text, "players"),
    (unknown_option, "option"),
    (options_not_a_dict, "ption"),
    (to_move_too_high, "seat"),
    (to_move_negative, "seat"),
    (to_move_a_bool, "seat"),
    (to_move_as_text, "seat"),
    (card_not_in_the_deck, "deck"),
    (not_a_card, "card"),
    (a_card_lost, "cards"),
    (hands_not_a_list, "hands"),
    (a_hand_not_a_list, "hand"),
    (scores_too_short, ""),
    (negative_points, ""),
    (deal_negative, "deal"),
    (log_entry_not_a_dict, "log"),
    (seed_as_text, "seed"),
    (unknown_phase, ""),
    (state_finished_with_a_seat_to_move, ""),
]


@pytest.mark.parametrize(
    ("corrupt", "says"), [pytest.param(c, s, id=c.__name__) for c, s in CORRUPTIONS]
)
@pytest.mark.parametrize("slug", SLUGS)
def test_an_impossible_state_is_refused_with_a_value_error_that_says_what_is_wrong(slug, corrupt, says):
    state = state_of(slug)
    before = copy.deepcopy(state)
    corrupt(slug, state)
    assert state != before
    damaged = copy.deepcopy(state)
    with pytest.raises(ValueError, match=f"(?i){says}") as caught:
        rules_for(slug).from_state(state)
    assert not isinstance(caught.value, IllegalMove)
    assert state == damaged, "from_state changed the state it was given"


def test_nine_familie_players_are_refused():
    state = state_of("familie", players=6)
    state["players"] = 9
    state["hands"] += [[], [], []]
    state["points"] += [0, 0, 0]
    with pytest.raises(ValueError, match="2 to 6 players"):
        rules_for("familie").from_state(state)


def test_two_hands_at_a_three_player_septica_table_are_refused():
    state = state_of("septica", players=3)
    state["stock"] += state["hands"].pop()
    with pytest.raises(ValueError, match="3 hands"):
        rules_for("septica").from_state(state)


@pytest.mark.parametrize(
    ("slug", "options", "says"),
    [
        ("septica", {"match": "best-of-7"}, "match format"),
        ("septica", {"teams": "yes"}, "teams"),
        ("americana", {"target": 100}, "target"),
        ("americana", {"jokers": 1}, "jokers"),
        ("familie", {"jokers": True}, "Unknown option"),
    ],
)
def test_option_values_out_of_range_are_refused(slug, options, says):
    state = state_of(slug, players=3 if slug != "americana" else 2)
    state["options"].update(options)
    with pytest.raises(ValueError, match=says):
        rules_for(slug).from_state(state)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_state_that_is_not_an_object_is_refused(slug):
    for state in (None, [], "{}", 3):
        with pytest.raises(ValueError):
            rules_for(slug).from_state(state)
