"""The entry points of the engine contract, checked for every rule set that exists.

Each test is parametrised over ``RULESETS`` so a rule set is covered the moment
its module lands. What differs between rule sets (their player counts, option
names and values) is written out in ``EXPECTED`` below, straight from the
contract, rather than read back from the engine.
"""

from __future__ import annotations

import json
import random

import pytest

from games import engine
from games.engine import RULESETS, IllegalMove, rules_for
from games.engine.cards import shuffle

SLUGS = ("septica", "familie", "americana")

# The contract, per rule set: player counts, default options per player count,
# options that must be refused, and options that must be accepted.
EXPECTED = {
    "septica": {
        "players": (2, 6),
        "defaults": {
            2: {"eights_cut": False, "teams": False, "match": "best-of-3"},
            3: {"eights_cut": True, "teams": False, "match": "best-of-3"},
            4: {"eights_cut": False, "teams": True, "match": "best-of-3"},
            5: {"eights_cut": True, "teams": False, "match": "best-of-3"},
            6: {"eights_cut": True, "teams": True, "match": "best-of-3"},
        },
        "refused": [
            (2, {"eights_cut": True}),
            (4, {"eights_cut": True}),
            (2, {"teams": True}),
            (3, {"teams": True}),
            (5, {"teams": True}),
            (2, {"match": "best-of-7"}),
            (2, {"match": "points-10"}),
            (2, {"match": ""}),
            (2, {"match": None}),
            (2, {"match": 3}),
            (2, {"match": ["best-of-3"]}),
            (3, {"eights_cut": "yes"}),
            (3, {"eights_cut": 1}),
            (3, {"eights_cut": None}),
            (4, {"teams": "true"}),
            (4, {"teams": 0}),
        ],
        "accepted": [
            (2, {"match": "points-8"}),
            (2, {"match": "points-21"}),
            (2, {"match": "best-of-5"}),
            (2, {"match": "first-to-10"}),
            (3, {"eights_cut": False}),
            (4, {"teams": False}),
            (6, {"teams": False, "eights_cut": False, "match": "points-21"}),
        ],
    },
    "familie": {
        "players": (2, 6),
        "defaults": {n: {} for n in range(2, 7)},
        "refused": [(2, {"jokers": True}), (3, {"match": "best-of-3"})],
        "accepted": [(2, {}), (6, None)],
    },
    "americana": {
        "players": (2, 4),
        "defaults": {n: {"jokers": False, "pairs": False, "jacks_draw": False, "target": 101} for n in range(2, 5)},
        "refused": [
            (2, {"target": 100}),
            (2, {"target": 0}),
            (2, {"target": "101"}),
            (2, {"target": 101.0}),
            (2, {"target": True}),
            (2, {"target": None}),
            (2, {"jokers": "yes"}),
            (2, {"jokers": 1}),
            (3, {"pairs": None}),
            (4, {"jacks_draw": "false"}),
            (2, {"teams": True}),
        ],
        "accepted": [
            (2, {"jokers": True}),
            (3, {"pairs": True, "jacks_draw": True}),
            (4, {"target": 301}),
            (2, {"target": 501, "jokers": True, "pairs": True, "jacks_draw": True}),
        ],
    },
}


def present():
    return [slug for slug in SLUGS if slug in RULESETS]


def each_rules():
    return [pytest.param(RULESETS[slug], id=slug) for slug in present()]


def each_table():
    """Every rule set with every player count it allows."""
    cases = []
    for slug in present():
        low, high = EXPECTED[slug]["players"]
        cases += [pytest.param(RULESETS[slug], players, id=f"{slug}-{players}") for players in range(low, high + 1)]
    return cases


def each_case(key):
    cases = []
    for slug in present():
        for n, (players, options) in enumerate(EXPECTED[slug][key]):
            cases.append(pytest.param(RULESETS[slug], players, options, id=f"{slug}-{players}-{n}"))
    return cases


def random_playout(game, rng, limit):
    """Yield (game, move) pairs of one random play-out, at most ``limit`` moves."""
    for _ in range(limit):
        moves = game.legal_moves()
        if not moves:
            return
        move = rng.choice(moves)
        yield game, move
        game = game.play(move)


# --- the registry ---------------------------------------------------------------


def test_rulesets_holds_only_the_three_rule_sets_keyed_by_slug():
    assert set(RULESETS) <= set(SLUGS)
    for slug, rules in RULESETS.items():
        assert rules.slug == slug


@pytest.mark.parametrize("rules", each_rules())
def test_rules_for_gives_the_registered_rules(rules):
    assert rules_for(rules.slug) is rules
    assert RULESETS[rules.slug] is rules


@pytest.mark.parametrize("slug", ["poker", "", "Septica", "SEPTICA", " septica", None, 3, ("septica",)])
def test_rules_for_an_unknown_slug_is_a_value_error(slug):
    with pytest.raises(ValueError):
        rules_for(slug)


def test_illegal_move_is_a_value_error_exported_by_the_package():
    assert issubclass(IllegalMove, ValueError)
    assert engine.IllegalMove is IllegalMove
    assert set(engine.__all__) >= {"RULESETS", "IllegalMove", "rules_for"}


@pytest.mark.parametrize("rules", each_rules())
def test_player_counts_are_the_contract_ones(rules):
    assert (rules.min_players, rules.max_players) == EXPECTED[rules.slug]["players"]


# --- options --------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players"), each_table())
def test_default_options_are_the_contract_ones(rules, players):
    assert rules.default_options(players) == EXPECTED[rules.slug]["defaults"][players]


@pytest.mark.parametrize(("rules", "players"), each_table())
def test_validate_options_fills_in_the_defaults(rules, players):
    defaults = rules.default_options(players)
    assert rules.validate_options(players, {}) == defaults
    assert rules.validate_options(players, None) == defaults


@pytest.mark.parametrize(("rules", "players"), each_table())
def test_default_options_are_fresh_each_time(rules, players):
    first = rules.default_options(players)
    first["surprise"] = True
    assert "surprise" not in rules.default_options(players)


@pytest.mark.parametrize(("rules", "players", "options"), each_case("accepted"))
def test_validate_options_normalises_what_it_accepts(rules, players, options):
    given = None if options is None else dict(options)
    full = rules.validate_options(players, given)
    assert set(full) == set(rules.default_options(players))
    for name, value in (options or {}).items():
        assert full[name] == value
    assert given == options, "validate_options changed the dict it was given"
    assert rules.validate_options(players, full) == full
    json.dumps(full)


@pytest.mark.parametrize(("rules", "players", "options"), each_case("accepted"))
def test_accepted_options_start_a_game(rules, players, options):
    game = rules.new_game(players=players, options=options, seed=5)
    assert game.options == rules.validate_options(players, options)
    assert game.view(None)["options"] == game.options


@pytest.mark.parametrize(("rules", "players", "options"), each_case("refused"))
def test_validate_options_refuses_bad_values(rules, players, options):
    with pytest.raises(ValueError) as caught:
        rules.validate_options(players, options)
    assert str(caught.value).strip(), "the refusal should say why"
    with pytest.raises(ValueError):
        rules.new_game(players=players, options=options, seed=1)


@pytest.mark.parametrize("rules", each_rules())
@pytest.mark.parametrize("name", ["unknown", "Jokers", "", "seed"])
def test_validate_options_refuses_an_unknown_option(rules, name):
    with pytest.raises(ValueError, match="nknown|option"):
        rules.validate_options(rules.min_players, {name: True})


@pytest.mark.parametrize("rules", each_rules())
@pytest.mark.parametrize("options", [[], "best-of-3", 3, [("teams", True)]])
def test_options_that_are_not_a_dict_are_refused(rules, options):
    with pytest.raises(ValueError):
        rules.validate_options(rules.min_players, options)


@pytest.mark.parametrize("rules", each_rules())
def test_every_option_refuses_a_value_of_the_wrong_type(rules):
    defaults = rules.default_options(rules.max_players)
    for name, value in defaults.items():
        for wrong in wrong_types(value):
            with pytest.raises(ValueError):
                rules.validate_options(rules.max_players, {name: wrong})


def wrong_types(value):
    if isinstance(value, bool):
        return ["true", "", 1, 0, None, [], {}]
    if isinstance(value, int):
        return [str(value), float(value), None, True, []]
    return [1, None, [value], {}]


@pytest.mark.parametrize("rules", each_rules())
def test_players_out_of_range_are_refused(rules):
    low, high = rules.min_players, rules.max_players
    for players in (low - 1, high + 1, 0, -2, 100, "2", 2.0, None, True):
        with pytest.raises(ValueError):
            rules.validate_options(players, {})
        with pytest.raises(ValueError):
            rules.new_game(players=players, options={}, seed=1)


# --- new_game: seeds and decks ------------------------------------------------


@pytest.mark.parametrize("rules", each_rules())
@pytest.mark.parametrize("seed", ["1", 1.0, None, True, [1], b"1", 1.5])
def test_a_seed_that_is_not_an_integer_is_refused(rules, seed):
    with pytest.raises(ValueError):
        rules.new_game(players=rules.min_players, options={}, seed=seed)


@pytest.mark.parametrize("rules", each_rules())
@pytest.mark.parametrize("seed", [0, 1, -1, 2**127 + 12345, 2**300])
def test_any_integer_seed_is_accepted_and_kept(rules, seed):
    game = rules.new_game(players=rules.min_players, options={}, seed=seed)
    state = game.to_state()
    assert state["seed"] == seed
    assert state["deal"] == 0
    again = rules.from_state(json.loads(json.dumps(state)))
    assert again.to_state() == state


def dealt_deck(rules, players, options, seed):
    """The 0th deal's deck as the contract says it is dealt (septica drops two eights)."""
    deck = shuffle(rules.full_deck(players, options), seed, 0, 0)
    if rules.slug == "septica" and players in (3, 5, 6):
        eights = [card for card in deck if card[0] == "8"][:2]
        deck = [card for card in deck if card not in eights]
    return deck


def assert_dealt_round_the_table(state, deck, players, first=0):
    """One card at a time round the table, starting with ``first``."""
    hands = state["hands"]
    size = len(hands[0])
    assert size > 0
    assert all(len(hand) == size for hand in hands), "every hand starts the same size"
    for seat in range(players):
        start = (seat - first) % players
        assert sorted(hands[seat]) == sorted(deck[start : size * players : players]), f"seat {seat}"


@pytest.mark.parametrize(("rules", "players"), each_table())
@pytest.mark.parametrize("seed", [1, 77])
def test_the_first_deal_comes_from_the_seeded_shuffle_one_card_at_a_time(rules, players, seed):
    options = rules.validate_options(players, {})
    game = rules.new_game(players=players, options=options, seed=seed)
    assert_dealt_round_the_table(game.to_state(), dealt_deck(rules, players, options, seed), players)


def dealt_deck_of(rules, players, options, deck):
    if rules.slug == "septica" and players in (3, 5, 6):
        eights = [card for card in deck if card[0] == "8"][:2]
        return [card for card in deck if card not in eights]
    return deck


def second_deal(game, rng):
    """The game at the moment the second deal (deal 1) has been dealt."""
    while game.to_state()["deal"] == 0:
        game = game.play(rng.choice(game.legal_moves()))
    return game


def several_deals():
    return [param for param in each_table() if param.values[0].slug != "familie"]  # familie is one deal


@pytest.mark.parametrize(("rules", "players"), several_deals())
def test_the_next_deal_is_shuffled_from_the_seed_and_started_by_the_next_seat(rules, players):
    options = rules.validate_options(players, {})
    game = second_deal(rules.new_game(players=players, options=options, seed=31), random.Random(2))
    deck = dealt_deck_of(rules, players, options, shuffle(rules.full_deck(players, options), 31, 1, 0))
    assert_dealt_round_the_table(game.to_state(), deck, players, first=1 % players)
    assert game.to_move == 1 % players
    assert game.view(None)["deal"] == 1


@pytest.mark.parametrize(("rules", "players"), several_deals())
def test_the_second_given_deck_is_dealt_in_the_second_deal(rules, players):
    options = rules.validate_options(players, {})
    deck = fixed_deck(rules, players, options)
    later = list(reversed(deck))
    game = rules.new_game(players=players, options=options, seed=31, decks=[deck, later])
    game = second_deal(game, random.Random(2))
    assert_dealt_round_the_table(game.to_state(), later, players, first=1 % players)


def fixed_deck(rules, players, options):
    deck = sorted(rules.full_deck(players, options), reverse=True)
    if rules.slug == "septica" and players in (3, 5, 6):
        deck.remove("8C")
        deck.remove("8D")
    return deck


@pytest.mark.parametrize(("rules", "players"), each_table())
def test_a_given_deck_is_dealt_first_card_first(rules, players):
    options = rules.validate_options(players, {})
    deck = fixed_deck(rules, players, options)
    game = rules.new_game(players=players, options=options, seed=3, decks=[list(deck)])
    assert_dealt_round_the_table(game.to_state(), deck, players)
    assert game.to_move == 0, "seat 0, left of the dealer, starts the first deal"


@pytest.mark.parametrize(("rules", "players"), each_table())
def test_a_deck_that_is_not_the_rule_sets_deck_is_refused(rules, players):
    options = rules.validate_options(players, {})
    deck = fixed_deck(rules, players, options)
    other = "XR" if "XR" not in deck else "2C"
    bad_decks = [
        deck[:-1],
        deck + [deck[0]],
        deck[:-1] + [deck[0]],
        deck[:-1] + [other],
        deck[:-1] + ["ZZ"],
        [],
    ]
    if rules.slug == "septica":
        bad_decks.append(rules.full_deck(players, options) if players in (3, 5, 6) else deck[:30])
    for bad in bad_decks:
        with pytest.raises(ValueError):
            rules.new_game(players=players, options=options, seed=1, decks=[bad])
        with pytest.raises(ValueError):
            rules.new_game(players=players, options=options, seed=1, decks=[deck, bad])


@pytest.mark.parametrize("rules", each_rules())
def test_the_given_decks_list_is_not_kept_by_reference(rules):
    players = rules.min_players
    options = rules.validate_options(players, {})
    deck = fixed_deck(rules, players, options)
    decks = [list(deck)]
    game = rules.new_game(players=players, options=options, seed=3, decks=decks)
    before = game.to_state()
    decks[0].reverse()
    decks.append(list(deck))
    assert game.to_state() == before


# --- the game object --------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players"), each_table())
def test_a_new_game_is_in_play_with_seat_0_to_move(rules, players):
    game = rules.new_game(players=players, options={}, seed=9)
    assert game.to_move == 0
    assert not game.finished
    assert game.result is None
    assert game.legal_moves()
    assert game.players == players


@pytest.mark.parametrize(("rules", "players"), each_table())
def test_view_of_a_seat_that_does_not_exist_is_a_value_error(rules, players):
    game = rules.new_game(players=players, options={}, seed=9)
    for seat in (-1, players, players + 1, "0", 0.0, True, [0]):
        with pytest.raises(ValueError):
            game.view(seat)


VIEW_KEYS = {
    "rules", "options", "players", "seat", "to_move", "hand", "hand_counts", "stock", "legal_moves",
    "scores", "finished", "result", "deal", "log", "last_deal",
}  # fmt: skip
EXTRA_VIEW_KEYS = {
    "septica": {"points", "table", "removed"},
    "familie": {"points", "table"},
    "americana": {"top", "suit", "attack"},
}


@pytest.mark.parametrize(("rules", "players"), each_table())
def test_every_view_has_the_contract_keys(rules, players):
    game = rules.new_game(players=players, options={}, seed=9)
    for seat in [None, *range(players)]:
        view = game.view(seat)
        missing = (VIEW_KEYS | EXTRA_VIEW_KEYS[rules.slug]) - set(view)
        assert not missing, f"view({seat}) lacks {sorted(missing)}"
        assert view["rules"] == rules.slug
        assert view["players"] == players
        assert view["seat"] == seat
        assert view["deal"] == 0
        assert view["last_deal"] is None
        assert view["finished"] is False and view["result"] is None
        assert len(view["hand_counts"]) == players
        assert len(view["scores"]) == players
        json.dumps(view)
    assert game.view(None)["hand"] == []
    assert game.view(0)["legal_moves"] == game.legal_moves()


@pytest.mark.parametrize(("rules", "players"), each_table())
def test_play_returns_a_new_game_and_leaves_the_old_one_unchanged(rules, players):
    rng = random.Random(players)
    game = rules.new_game(players=players, options={}, seed=21)
    for before, move in random_playout(game, rng, 400):
        state = json.dumps(before.to_state(), sort_keys=True)
        views = [before.view(seat) for seat in [None, *range(players)]]
        moves = before.legal_moves()
        after = before.play(dict(move))
        assert after is not before
        assert json.dumps(before.to_state(), sort_keys=True) == state
        assert [before.view(seat) for seat in [None, *range(players)]] == views
        assert before.legal_moves() == moves


@pytest.mark.parametrize(("rules", "players"), each_table())
def test_what_the_game_hands_out_is_a_fresh_copy(rules, players):
    game = rules.new_game(players=players, options={}, seed=4)
    state = json.dumps(game.to_state(), sort_keys=True)
    view = game.view(0)
    baseline = json.dumps(view, sort_keys=True)
    view["hand"].clear()
    view["hand_counts"][0] = 99
    view["options"]["surprise"] = 1
    view["log"].append({"seat": 0, "type": "play"})
    game.legal_moves().clear()
    game.legal_moves()[0]["type"] = "nonsense"
    handed = game.to_state()
    handed["hands"][0].clear()
    handed["stock"].clear()
    handed["options"]["surprise"] = 1
    assert json.dumps(game.to_state(), sort_keys=True) == state
    assert json.dumps(game.view(0), sort_keys=True) == baseline
    assert game.legal_moves()[0]["type"] != "nonsense"


@pytest.mark.parametrize(("rules", "players"), each_table())
def test_the_move_dict_given_to_play_is_not_kept(rules, players):
    game = rules.new_game(players=players, options={}, seed=4)
    move = dict(game.legal_moves()[0])
    after = game.play(move)
    state = after.to_state()
    move["type"] = "nonsense"
    move["card"] = "ZZ"
    assert after.to_state() == state


@pytest.mark.parametrize("rules", each_rules())
@pytest.mark.parametrize("move", [None, "play", 3, [], {}, {"type": "nonsense"}, {"type": None}, {"card": "7H"}])
def test_a_malformed_move_is_an_illegal_move(rules, move):
    game = rules.new_game(players=rules.min_players, options={}, seed=4)
    with pytest.raises(IllegalMove) as caught:
        game.play(move)
    assert str(caught.value).strip(), "the refusal should say why"


@pytest.mark.parametrize("rules", each_rules())
def test_from_state_refuses_another_rule_sets_state(rules):
    game = rules.new_game(players=rules.min_players, options={}, seed=4)
    state = game.to_state()
    with pytest.raises(ValueError):
        rules.from_state({**state, "rules": "poker"})
    with pytest.raises(ValueError):
        rules.from_state({**state, "version": 999})
    with pytest.raises(ValueError):
        rules.from_state("not a state")


@pytest.mark.parametrize(("rules", "players"), each_table())
def test_a_finished_match_has_a_result_and_no_moves(rules, players):
    rng = random.Random(7)
    game = rules.new_game(players=players, options={}, seed=8)
    for _ in range(100_000):
        if game.finished:
            break
        game = game.play(rng.choice(game.legal_moves()))
    assert game.to_move is None
    assert game.legal_moves() == []
    result = game.result
    assert set(result) == {"scores", "winners"}
    assert len(result["scores"]) == players
    assert all(0 <= seat < players for seat in result["winners"])
    assert result["winners"] == sorted(set(result["winners"]))
    for seat in [None, *range(players)]:
        view = game.view(seat)
        assert view["finished"] is True
        assert view["result"] == result
        assert view["legal_moves"] == []
        assert view["to_move"] is None
    with pytest.raises(IllegalMove):
        game.play({"type": "take"})
