"""Log entries are frozen so that the game and all its views can share them.

A deal's log can hold thousands of entries and every view hands all of them
out, so views share the game's entries instead of copying each one. That is
only safe because nobody can change an entry: these tests check that
entries refuse every change, still behave as plain JSON data for readers, and
that the saved state holds plain dicts and lists.
"""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest

from games.engine import RULESETS
from games.engine.base import FrozenList, LogEntry, freeze, thaw


def each_table():
    return [
        pytest.param(rules, players, id=f"{slug}-{players}")
        for slug, rules in RULESETS.items()
        for players in range(rules.min_players, rules.max_players + 1)
    ]


def holds_a_list(game):
    return any(isinstance(value, list) for entry in game.view(None)["log"] for value in entry.values())


def game_with_cards_in_its_log(rules, players, seed=7):
    """A game whose log has an entry holding a list (a trick, the eights taken out, a deal's charges)."""
    rng = random.Random(seed)
    game = rules.new_game(players=players, options={}, seed=seed)
    while not holds_a_list(game):
        moves = game.legal_moves()
        plays = [move for move in moves if move["type"] == "play"]
        game = game.play(rng.choice(plays or moves))
    return game


def entry_with_a_list(view):
    return next(entry for entry in view["log"] if any(isinstance(value, list) for value in entry.values()))


CHANGES = [
    pytest.param(lambda entry: entry.__setitem__("seat", 5), id="set"),
    pytest.param(lambda entry: entry.__delitem__("type"), id="del"),
    pytest.param(lambda entry: entry.update(seat=5), id="update"),
    pytest.param(lambda entry: entry.pop("type"), id="pop"),
    pytest.param(lambda entry: entry.popitem(), id="popitem"),
    pytest.param(lambda entry: entry.setdefault("surprise", 1), id="setdefault"),
    pytest.param(lambda entry: entry.clear(), id="clear"),
    pytest.param(lambda entry: entry.__ior__({"seat": 5}), id="ior"),
]

LIST_CHANGES = [
    pytest.param(lambda cards: cards.append("ZZ"), id="append"),
    pytest.param(lambda cards: cards.extend(["ZZ"]), id="extend"),
    pytest.param(lambda cards: cards.insert(0, "ZZ"), id="insert"),
    pytest.param(lambda cards: cards.__setitem__(0, "ZZ"), id="set"),
    pytest.param(lambda cards: cards.__delitem__(0), id="del"),
    pytest.param(lambda cards: cards.pop(), id="pop"),
    pytest.param(lambda cards: cards.clear(), id="clear"),
    pytest.param(lambda cards: cards.sort(), id="sort"),
    pytest.param(lambda cards: cards.reverse(), id="reverse"),
    pytest.param(lambda cards: cards.__iadd__(["ZZ"]), id="iadd"),
]


@pytest.mark.parametrize(("rules", "players"), each_table())
def test_a_views_log_entries_refuse_changes_and_the_game_stays_the_same(rules, players):
    game = game_with_cards_in_its_log(rules, players)
    baseline, state = json.dumps(game.view(0), sort_keys=True), json.dumps(game.to_state(), sort_keys=True)
    view = game.view(0)
    entry = entry_with_a_list(view)
    cards = next(value for value in entry.values() if isinstance(value, list))
    tries = [(entry, change.values[0]) for change in CHANGES] + [(cards, change.values[0]) for change in LIST_CHANGES]
    for target, change in tries:
        with pytest.raises(TypeError):
            change(target)
    view["log"].clear()
    assert json.dumps(game.view(0), sort_keys=True) == baseline
    assert json.dumps(game.to_state(), sort_keys=True) == state


def only_plain_dicts_and_lists(value):
    if isinstance(value, dict):
        return type(value) is dict and all(only_plain_dicts_and_lists(item) for item in value.values())
    if isinstance(value, list):
        return type(value) is list and all(only_plain_dicts_and_lists(item) for item in value)
    return True


@pytest.mark.parametrize(("rules", "players"), each_table())
def test_the_saved_log_is_plain_dicts_and_lists_and_comes_back_frozen(rules, players):
    game = game_with_cards_in_its_log(rules, players)
    state = game.to_state()
    assert only_plain_dicts_and_lists(state["log"])
    assert json.loads(json.dumps(state)) == state
    again = rules.from_state(json.loads(json.dumps(state)))
    assert again.to_state() == state
    assert again.view(0) == game.view(0)
    assert all(type(entry) is LogEntry for entry in again.view(0)["log"])


@pytest.mark.parametrize(("rules", "players"), each_table())
def test_a_later_game_keeps_its_log_whatever_was_tried_on_an_earlier_view(rules, players):
    game = rules.new_game(players=players, options={}, seed=11)
    for _ in range(3 * players):
        game = game.play(game.legal_moves()[0])
    view = game.view(None)
    view["log"].append({"seat": 0, "type": "play", "card": "ZZ"})
    later = game.play(game.legal_moves()[0])
    assert later.view(None)["log"][: len(view["log"]) - 1] == view["log"][:-1]


@pytest.mark.parametrize("change", CHANGES)
def test_a_log_entry_refuses_every_change(change):
    entry = LogEntry(seat=0, type="play", card="7H")
    with pytest.raises(TypeError, match="read-only"):
        change(entry)
    assert entry == {"seat": 0, "type": "play", "card": "7H"}


@pytest.mark.parametrize("change", LIST_CHANGES)
def test_the_cards_of_a_log_entry_refuse_every_change(change):
    cards = FrozenList(["7H", "AC"])
    with pytest.raises(TypeError, match="read-only"):
        change(cards)
    assert cards == ["7H", "AC"]


def test_a_log_entry_reads_and_serialises_as_a_plain_dict():
    plain = {"seat": 1, "type": "trick", "cards": ["7H", "AC"], "points": 21}
    entry = freeze(plain)
    assert isinstance(entry, dict) and isinstance(entry["cards"], list)
    assert entry == plain and plain == entry
    assert json.dumps(entry) == json.dumps(plain)
    assert json.dumps(entry, sort_keys=True, indent=2) == json.dumps(plain, sort_keys=True, indent=2)
    assert thaw(entry) == plain and type(thaw(entry)["cards"]) is list


def test_copies_of_a_log_entry_are_plain_and_changeable():
    entry = freeze({"seat": None, "type": "deal_over", "points": [3, 5]})
    for copied in (copy.copy(entry), copy.deepcopy(entry), entry.copy(), dict(entry)):
        assert type(copied) is dict and copied == entry
        copied["seat"] = 2
    deep = copy.deepcopy(entry)
    deep["points"].append(1)
    assert entry["points"] == [3, 5]


def test_a_pickled_log_entry_stays_frozen():
    entry = freeze({"seat": 0, "type": "trick", "cards": ["7H"], "points": 7})
    again = pickle.loads(pickle.dumps(entry))
    assert again == entry and type(again) is LogEntry and type(again["cards"]) is FrozenList
