"""Invariants every rule set keeps, fuzzed with Hypothesis.

Each example is a table (rule set, player count, options), a seed, and the
moves of a play-out: the first moves are picked by Hypothesis-drawn indices
into ``legal_moves()`` (so failures shrink), the rest by a seeded
``random.Random``. Every rule set in ``RULESETS`` is covered as soon as its
module exists, with every player count and every option combination that
``validate_options`` accepts.

Profiles: ``ENGINE_HYPOTHESIS_PROFILE=engine-quick`` for a fast smoke run,
``engine-ci`` (derandomised) for CI, ``engine-thorough`` to hunt for bugs.
The default, ``engine``, keeps the whole engine suite under a few minutes.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import subprocess
import sys
from collections import Counter, OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import RULESETS, IllegalMove
from games.engine.cards import is_card_code

# --- settings ----------------------------------------------------------------------

_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}
settings.register_profile("engine", max_examples=50, **_COMMON)
settings.register_profile("engine-quick", max_examples=10, **_COMMON)
settings.register_profile("engine-ci", max_examples=40, derandomize=True, print_blob=True, **_COMMON)
settings.register_profile("engine-thorough", max_examples=1000, **_COMMON)
PROFILE = settings.get_profile(os.environ.get("ENGINE_HYPOTHESIS_PROFILE", "engine"))


def fuzz(share=1.0):
    """The profile's settings, with ``share`` of its examples for the costlier properties."""
    return settings(PROFILE, max_examples=max(5, round(PROFILE.max_examples * share)))


# --- the tables: every player count and every option combination -------------------

OPTION_SPACES = {
    "septica": {
        "eights_cut": [False, True],
        "teams": [False, True],
        "match": ["points-8", "points-21", "best-of-3", "best-of-5", "first-to-10"],
    },
    "familie": {},
    "americana": {
        "jokers": [False, True],
        "pairs": [False, True],
        "jacks_draw": [False, True],
        "target": [101, 301, 501],
    },
}
DEAL_POINTS = {"septica": 8, "familie": 360}  # every point of the deck is handed out in each deal
SLUGS = [slug for slug in ("septica", "familie", "americana") if slug in RULESETS]


def tables(slug):
    """Every (players, options) that validate_options accepts, options normalised and unique."""
    rules, space = RULESETS[slug], OPTION_SPACES[slug]
    found = []
    for players in range(rules.min_players, rules.max_players + 1):
        for values in itertools.product(*space.values()):
            try:
                options = rules.validate_options(players, dict(zip(space, values, strict=True)))
            except ValueError:
                continue
            if (players, options) not in found:
                found.append((players, options))
    return found


TABLES = {slug: tables(slug) for slug in SLUGS}


def test_every_rule_set_offers_tables_for_every_player_count():
    for slug in SLUGS:
        rules = RULESETS[slug]
        counts = {players for players, _ in TABLES[slug]}
        assert counts == set(range(rules.min_players, rules.max_players + 1))
    if "septica" in TABLES:
        assert len(TABLES["septica"]) == 55  # 2:5, 3:10, 4:10, 5:10, 6:20
    if "americana" in TABLES:
        assert len(TABLES["americana"]) == 72


# --- play-outs ----------------------------------------------------------------------


@dataclass
class Playout:
    """One fuzzed match: enough to replay it exactly, printed when a property fails."""

    slug: str
    players: int
    options: dict
    seed: int
    choices: list[int]
    rng_seed: int
    moves: list = field(default_factory=list, repr=False)

    @property
    def rules(self):
        return RULESETS[self.slug]

    def new_game(self):
        return self.rules.new_game(players=self.players, options=self.options, seed=self.seed)

    def pick(self, step, legal, rng):
        if step < len(self.choices):
            return legal[self.choices[step] % len(legal)]
        return legal[rng.randrange(len(legal))]

    def games(self, limit):
        """Yield every game of the play-out, from the new game on, at most ``limit`` moves deep.

        ``self.moves`` holds the moves played so far, for reproductions.
        """
        game, rng = self.new_game(), random.Random(self.rng_seed)
        self.moves = []
        yield game
        for step in range(limit):
            legal = game.legal_moves()
            if not legal:
                return
            move = self.pick(step, legal, rng)
            self.moves.append(move)
            game = game.play(dict(move))
            yield game

    def where(self):
        last = self.moves[-6:]
        return f"{self!r} after {len(self.moves)} moves (last ones: {last})"


SEEDS = st.one_of(
    st.integers(0, 2**32),
    st.integers(-(2**70), 2**70),
    st.sampled_from([0, 1, 2**127 + 12345, 2**64 - 1]),
)


@st.composite
def playouts(draw, slug):
    players, options = draw(st.sampled_from(TABLES[slug]))
    return Playout(
        slug=slug,
        players=players,
        options=options,
        seed=draw(SEEDS),
        choices=draw(st.lists(st.integers(0, 2**16), max_size=40)),
        rng_seed=draw(st.integers(0, 2**32)),
    )


# --- reading views and states --------------------------------------------------------


def card_codes(data):
    """Every card code anywhere in JSON-ready data (keys and values)."""
    found = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if is_card_code(item):
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def elsewhere(slug, state, spectator):
    """The cards neither in a hand nor in the stock, as the rule set shows them."""
    if slug == "americana":
        return list(state["pile"])
    played = [entry["card"] for entry in spectator["log"] if entry["type"] == "play"]
    return played + list(spectator.get("removed", []))


def assert_cards_conserved(playout, game, state, spectator):
    deck = Counter(playout.rules.full_deck(playout.players, playout.options))
    hands = [card for hand in state["hands"] for card in hand]
    where = playout.where()
    assert len(hands) == len(set(hands)), f"a card is in two hands: {where}"
    assert not set(hands) & set(state["stock"]), f"a card is in a hand and in the stock: {where}"
    placed = Counter(hands) + Counter(state["stock"]) + Counter(elsewhere(playout.slug, state, spectator))
    assert placed == deck, (
        f"cards lost {sorted((deck - placed).elements())} / doubled {sorted((placed - deck).elements())}: {where}"
    )  # noqa: E501


def assert_turn_is_consistent(playout, game):
    where = playout.where()
    legal = game.legal_moves()
    assert (legal == []) == game.finished, f"legal_moves is [] exactly when finished: {where}"
    assert (game.to_move is None) == game.finished, where
    assert (game.result is None) != game.finished, where


class DealWatch:
    """Checks each finished deal hands out every point of the deck (americana: charges add up)."""

    def __init__(self, slug):
        self.slug, self.seen, self.scores = slug, set(), None

    def check(self, playout, view):
        last, before = view["last_deal"], self.scores
        self.scores = view["scores"]
        if last is None or last["deal"] in self.seen:
            return
        self.seen.add(last["deal"])
        where = f"last_deal {last}: {playout.where()}"
        assert last["deal"] == view["deal"] - (0 if view["finished"] else 1), where
        assert card_codes(last) == set(), f"last_deal holds card codes: {where}"
        if self.slug in DEAL_POINTS:
            assert len(last["points"]) == playout.players
            assert sum(last["points"]) == DEAL_POINTS[self.slug], f"the deal did not hand out every point, {where}"
        else:
            self.check_charges(playout, last, before, where)

    def check_charges(self, playout, last, before, where):
        charged, out = last["charged"], last["out"]
        assert len(charged) == playout.players and all(type(c) is int and c >= 0 for c in charged), where
        assert out is None or charged[out] == 0, f"the player who went out was charged: {where}"
        if before is not None:
            expected = [score + charge for score, charge in zip(before, charged, strict=True)]
            assert self.scores == expected, f"scores {before} -> {self.scores} do not add the charges, {where}"


# --- properties ---------------------------------------------------------------------

per_rule_set = pytest.mark.parametrize("slug", SLUGS)


@per_rule_set
@fuzz()
@given(data=st.data())
def test_cards_are_conserved_and_every_deal_hands_out_all_its_points(slug, data):
    playout = data.draw(playouts(slug))
    watch = DealWatch(slug)
    for game in playout.games(limit=800):
        state, spectator = game.to_state(), game.view(None)
        assert_cards_conserved(playout, game, state, spectator)
        assert_turn_is_consistent(playout, game)
        watch.check(playout, spectator)
        if slug in DEAL_POINTS:
            assert 0 <= sum(spectator["points"]) <= DEAL_POINTS[slug], playout.where()


@per_rule_set
@fuzz(0.5)
@given(data=st.data())
def test_matches_end(slug, data):
    """Random play-outs finish within a generous bound, and the result is well formed."""
    playout = data.draw(playouts(slug))
    *_, game = playout.games(limit=100_000)
    DealWatch(slug).check(playout, game.view(None))
    assert game.finished, f"no end after {len(playout.moves)} moves: {playout!r}"
    result = game.result
    assert len(result["scores"]) == playout.players
    assert all(type(seat) is int and 0 <= seat < playout.players for seat in result["winners"])
    assert result == game.view(None)["result"]


def junk_values():
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 300),
        st.floats(allow_nan=False),
        st.text(max_size=3),
        st.sampled_from(["7H", "XR", "ZZ", "7h", "10H", " 7H", "S", "X", "play", "draw"]),
        st.lists(st.sampled_from(["7H", "AS"]), max_size=2),
        st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    )


def junk_moves():
    types = st.sampled_from(["play", "take", "end", "pass", "draw", "", "PLAY", "gata", "cut", "continue"])
    return st.one_of(
        junk_values(),
        st.fixed_dictionaries(
            {"type": st.one_of(types, junk_values())},
            optional={
                "card": st.one_of(st.sampled_from(ALL_CODES), junk_values()),
                "suit": st.one_of(st.sampled_from("CDHS"), junk_values()),
                "extra": junk_values(),
                "seat": st.integers(0, 6),
            },
        ),
        st.dictionaries(st.one_of(st.text(max_size=5), st.integers()), junk_values(), max_size=3),
    )


ALL_CODES = [rank + suit for rank in "23456789TJQKA" for suit in "CDHS"] + ["XR", "XB"]
MOVE_TYPES = ["play", "take", "end", "pass", "draw"]


def near_misses(game, playout):
    """Moves one step away from a legal one: another card, another type, an extra key, no suit."""
    legal = game.legal_moves()
    hand = set(game.to_state()["hands"][game.to_move]) if game.to_move is not None else set()
    not_held = [card for card in ALL_CODES if card not in hand]
    rng = random.Random(len(playout.moves))
    misses = []
    for move in legal[:4]:
        misses.append({**move, "extra": 1})
        misses.append({**move, "type": rng.choice(MOVE_TYPES)})
        if "card" in move:
            misses.append({**move, "card": rng.choice(not_held)})
            misses.append({**move, "card": move["card"].lower()})
            misses.append({key: value for key, value in move.items() if key != "card"})
            misses.append({**move, "suit": "Z"})
            misses.append({**move, "suit": rng.choice("CDHS")})
        if "suit" in move:
            misses.append({key: value for key, value in move.items() if key != "suit"})
    misses += [{"type": kind} for kind in MOVE_TYPES]
    misses += [{"type": "play", "card": card} for card in sorted(hand)]
    return misses


def assert_refused(game, move, playout):
    try:
        game.play(move)
    except IllegalMove as error:
        assert str(error).strip(), f"an empty IllegalMove message for {move!r}: {playout.where()}"
        assert CODE.match(error.code) and error.code != "illegal-move", f"code {error.code!r}: {playout.where()}"
        assert json.loads(json.dumps(error.params)) == error.params, f"params {error.params!r}: {playout.where()}"
        if isinstance(move, dict):
            try:
                game.play(OrderedDict(move))
            except IllegalMove as same:
                assert (same.code, same.params, str(same)) == (error.code, error.params, str(error)), playout.where()
            else:
                pytest.fail(f"{move!r} as an OrderedDict was accepted: {playout.where()}")
    except Exception as error:  # noqa: BLE001 - the point is to name the wrong exception type
        pytest.fail(f"{type(error).__name__}: {error} instead of IllegalMove for {move!r}: {playout.where()}")
    else:
        pytest.fail(f"{move!r} was accepted but is not in legal_moves {game.legal_moves()}: {playout.where()}")


@per_rule_set
@fuzz()
@given(data=st.data())
def test_every_legal_move_applies_and_everything_else_is_an_illegal_move(slug, data):
    playout = data.draw(playouts(slug))
    junk = data.draw(st.lists(junk_moves(), max_size=8))
    for game in playout.games(limit=300):
        before = json.dumps(game.to_state(), sort_keys=True)
        legal = game.legal_moves()
        for move in legal:
            game.play(dict(move))  # never raises
        for move in junk + near_misses(game, playout):
            if move not in legal:
                assert_refused(game, move, playout)
        assert json.dumps(game.to_state(), sort_keys=True) == before, (
            f"a refused move changed the game: {playout.where()}"
        )
        assert game.legal_moves() == legal


class MoveMapping(Mapping):
    """A mapping that is not a dict."""

    def __init__(self, move):
        self._move = dict(move)

    def __getitem__(self, key):
        return self._move[key]

    def __iter__(self):
        return iter(self._move)

    def __len__(self):
        return len(self._move)


MAPPINGS = [OrderedDict, MappingProxyType, MoveMapping]
CODE = re.compile(r"[a-z]+(-[a-z]+)*\Z")


@per_rule_set
@fuzz(0.5)
@given(data=st.data())
def test_every_legal_move_as_any_mapping_applies_exactly_like_the_dict(slug, data):
    playout = data.draw(playouts(slug))
    wrap = data.draw(st.sampled_from(MAPPINGS))
    for game in playout.games(limit=150):
        for move in game.legal_moves():
            expected = json.dumps(game.play(dict(move)).to_state())
            assert json.dumps(game.play(wrap(move)).to_state()) == expected, f"{wrap.__name__}({move}): {playout.where()}"


# --- corrupted states ------------------------------------------------------------------


def state_junk():
    return st.one_of(
        junk_values(),
        st.sampled_from(ALL_CODES),
        st.integers(-2, 8),
        st.sampled_from(["lead", "cut", "take", "over", "play", "decide", "draw", "skip"]),
        st.lists(st.sampled_from(ALL_CODES), max_size=6),
    )


@st.composite
def corrupted(draw, state):
    """``state`` with one thing changed somewhere: a value replaced, a key or item dropped, an item added."""
    state = json.loads(json.dumps(state))
    key = draw(st.sampled_from(sorted(state)))
    parent, at = state, key
    while isinstance(parent[at], (dict, list)) and parent[at] and draw(st.booleans()):
        child = parent[at]
        parent, at = child, draw(st.sampled_from(sorted(child) if isinstance(child, dict) else range(len(child))))
    how = draw(st.sampled_from(["replace", "drop", "add", "copy"]))
    target = parent[at]
    if how == "drop":
        del parent[at]
    elif how == "add" and isinstance(target, list):
        target.insert(draw(st.integers(0, len(target))), draw(state_junk()))
    elif how == "copy" and isinstance(parent, list):
        parent.append(json.loads(json.dumps(target)))
    else:
        parent[at] = draw(state_junk())
    return state


def assert_usable(rules, game, players, where):
    """A loaded game answers everything and plays every legal move: nothing impossible got through."""
    for seat in [None, *range(players)]:
        json.dumps(game.view(seat))
    state = json.loads(json.dumps(game.to_state()))
    assert json.dumps(rules.from_state(state).to_state()) == json.dumps(state), where
    assert (game.legal_moves() == []) == game.finished == (game.to_move is None), where
    for move in game.legal_moves():
        after = game.play(move)
        json.dumps(after.to_state())
        for seat in [None, *range(players)]:
            after.view(seat)
        after.legal_moves()


@per_rule_set
@fuzz(1.5)
@given(data=st.data())
def test_a_corrupted_state_is_refused_with_a_value_error_or_plays_on(slug, data):
    playout = data.draw(playouts(slug))
    steps = data.draw(st.integers(0, 120))
    *_, game = itertools.islice(playout.games(limit=steps), steps + 1)
    state = data.draw(corrupted(game.to_state()))
    where = f"{playout.where()} corrupted to {state!r}"
    try:
        loaded = playout.rules.from_state(state)
    except IllegalMove as error:
        pytest.fail(f"IllegalMove {error} for a state: {where}")
    except ValueError as error:
        assert str(error).strip(), where
        return
    except Exception as error:  # noqa: BLE001 - the point is to name the wrong exception type
        pytest.fail(f"{type(error).__name__}: {error} instead of ValueError: {where}")
    try:
        assert_usable(playout.rules, loaded, loaded.players, where)
    except AssertionError:
        raise
    except Exception as error:  # noqa: BLE001 - the point is to name the wrong exception type
        pytest.fail(f"the state loaded, then {type(error).__name__}: {error}: {where}")


@per_rule_set
@fuzz(0.5)
@given(data=st.data())
def test_the_same_seed_and_moves_give_the_same_views(slug, data):
    playout = data.draw(playouts(slug))
    seats = [None, *range(playout.players)]
    first = [[game.view(seat) for seat in seats] for game in playout.games(limit=250)]
    second = [[game.view(seat) for seat in seats] for game in playout.games(limit=250)]
    assert first == second, playout.where()


@per_rule_set
@fuzz(0.6)
@given(data=st.data())
def test_a_saved_state_gives_back_an_equal_game(slug, data):
    playout = data.draw(playouts(slug))
    cut = data.draw(st.integers(0, 200))
    seats = [None, *range(playout.players)]
    rules = playout.rules
    restored = None
    for step, game in enumerate(playout.games(limit=250)):
        state = game.to_state()
        text = json.dumps(state)
        copy = rules.from_state(json.loads(text))
        assert json.dumps(copy.to_state()) == text, f"to_state differs after from_state: {playout.where()}"
        assert [copy.view(seat) for seat in seats] == [game.view(seat) for seat in seats], playout.where()
        assert copy.legal_moves() == game.legal_moves(), playout.where()
        assert (copy.to_move, copy.finished, copy.result) == (game.to_move, game.finished, game.result)
        if step == cut:
            restored = copy  # ... and it has the same future
        elif restored is not None:
            restored = restored.play(dict(playout.moves[-1]))
            assert json.dumps(restored.to_state()) == text, f"a restored game drifted: {playout.where()}"


class PublicCards:
    """The cards everyone has seen in the current deal, from the spectator's views."""

    def __init__(self):
        self.deal, self.seen, self.fresh = None, set(), True

    def advance(self, spectator):
        self.fresh = spectator["deal"] != self.deal
        if self.fresh:
            self.deal, self.seen = spectator["deal"], set()


def buried(stock, shown):
    """The tail of the stock shown face up at the deal (americana's buried turn-ups)."""
    tail = set()
    for card in reversed(stock):
        if card not in shown:
            break
        tail.add(card)
    return tail


@per_rule_set
@fuzz()
@given(data=st.data())
def test_no_view_shows_a_card_its_viewer_could_not_see(slug, data):
    playout = data.draw(playouts(slug))
    public = PublicCards()
    for game in playout.games(limit=300):
        state, spectator = game.to_state(), game.view(None)
        public.advance(spectator)
        hidden = {card for hand in state["hands"] for card in hand} | set(state["stock"])
        shown = card_codes(spectator)
        allowed = public.seen | (buried(state["stock"], shown) if public.fresh else set())
        leaked = (shown & hidden) - allowed
        assert not leaked, f"the spectator sees hidden {sorted(leaked)}: {playout.where()}"
        public.seen |= shown
        for seat in range(playout.players):
            view = game.view(seat)
            own = set(state["hands"][seat])
            leaked = card_codes(view) - own - public.seen
            assert not leaked, f"seat {seat} sees {sorted(leaked)}, neither its own nor public: {playout.where()}"
            assert_view_matches_state(playout, game, state, view, seat)
        assert_view_matches_state(playout, game, state, spectator, None)


def assert_view_matches_state(playout, game, state, view, seat):
    where = f"view({seat}) {playout.where()}"
    assert view["hand"] == (state["hands"][seat] if seat is not None else []), where
    assert view["hand_counts"] == [len(hand) for hand in state["hands"]], where
    assert view["stock"] == len(state["stock"]), where
    assert view["deal"] == state["deal"], where
    assert view["to_move"] == game.to_move, where
    assert view["legal_moves"] == (game.legal_moves() if seat is not None and seat == game.to_move else []), where
    for entry in view["log"]:
        assert "seat" in entry and "type" in entry, f"log entry {entry}: {where}"
        if entry["type"] == "draw":
            assert card_codes(entry) == set(), f"a draw shows its card {entry}: {where}"


# --- determinism across processes ----------------------------------------------------

_REPLAY = """
import hashlib, json, random, sys
sys.path.insert(0, {root!r})
from games.engine import RULESETS
rules = RULESETS[{slug!r}]
game, rng = rules.new_game(players={players}, options={{}}, seed=987654321), random.Random(5)
digest = hashlib.sha256()
while not game.finished:
    game = game.play(rng.choice(game.legal_moves()))
    digest.update(json.dumps([game.view(None), game.view(0)], sort_keys=True).encode())
print(digest.hexdigest())
"""


@per_rule_set
def test_a_match_replays_the_same_in_another_process(slug):
    """Set iteration order differs between processes; nothing may depend on it."""
    rules = RULESETS[slug]
    root = str(Path(__file__).resolve().parents[2])
    script = _REPLAY.format(root=root, slug=slug, players=rules.max_players)
    digests = set()
    for hash_seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1
