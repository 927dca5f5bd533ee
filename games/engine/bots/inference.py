"""The Master's guesses: deals weighed by how likely each makes what the other players did.

The model of another player: at each decision it plays the medium
heuristic's move (balanced style) with probability ``1 - EPSILON``, and any
legal move, all alike, otherwise. A guessed deal gives every other seat's hand
now; walking each hand back through its player's turns in the public log
(putting back every card it played, taking out as many cards as each draw
brought, chosen at random, as nothing says which they were) gives the hand it
held at each past decision, hence the moves it could make and the one the
heuristic would have made. The deal's weight is the product over those
decisions of the probability the model gives the move actually made. So a
player who dumped a ten into an opponent's trick rarely held a seven then, a
leader who ended a trick rarely held the led rank, and in familie a player who
passed rarely held a cheap cut of a rich trick.

A pool of deals is weighed once per decision, and each round of the search
draws one by its weight, with the stock shuffled afresh (nothing is known of
its order). When every deal of the unseen cards can be listed (up to
``ENUMERATE_LIMIT`` of them, the stock taken as a set) the pool is all of them.
Americana keeps its own guesses (``americana_guess.WeightedGuesser``), which
work on the same idea with a misfit count. Everything here comes from the view.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, NamedTuple

from .. import americana as americana_rules
from .. import familie as familie_rules
from .. import rules_for
from .. import septica as septica_rules
from ..base import Game, require_seat
from ..determinize import SEED_BITS, unseen_cards
from . import familie, septica
from .americana_guess import WeightedGuesser
from .style import STYLES_BY_NAME

EPSILON = 0.25  # share of the others' moves taken to be anything legal: people are not the medium bot
POOL = 160  # sampled deals weighed per decision
ENUMERATE_LIMIT = 300  # list every deal when there are no more than this
AMERICANA_POOL = 240
MODEL_STYLE = STYLES_BY_NAME["balanced"]


class Decision(NamedTuple):
    """One past decision of another seat, as the public log tells it."""

    kind: str  # "lead", "follow", "decide" (septica's leader after a round), "cut" (familie)
    trick: tuple[tuple[int, str], ...]  # on the table before the move
    leader: int
    holder: int
    stock: int
    played: frozenset[str]  # cards the whole table had seen played (and put aside) by then
    open_seats: int  # familie: other seats that could still cut
    move: dict


class Level(random.Random):
    """A generator whose ``random()`` is always 0: the heuristic's tie-breaking noise left out."""

    def random(self) -> float:
        return 0.0


LEVEL = Level(0)
Event = tuple[str, Any]  # ("decision", Decision) or ("draw", count), in the order they happened


def septica_history(view: dict) -> dict[int, list[Event]]:
    """Every other seat's decisions and draws in this deal, oldest first."""
    players, me = view["players"], view["seat"]
    removed = list(view.get("removed") or ())
    cutters = "".join(view.get("cutters") or "7")
    deck = len(septica_rules.DECK) - len(removed)
    stock = deck - 4 * players
    played: set[str] = set(removed)
    events: dict[int, list[Event]] = {seat: [] for seat in range(players) if seat != me}
    trick: list[tuple[int, str]] = []
    leader = holder = view.get("first", 0) or 0
    for entry in view["log"]:
        kind, seat = entry["type"], entry.get("seat")
        if kind == "play":
            card = entry["card"]
            if not trick:
                leader = holder = seat
                decision = "lead"
            elif len(trick) % players == 0 and seat == leader:
                decision = "decide"
            else:
                decision = "follow"
            if seat in events:
                move = {"type": "play", "card": card}
                snapshot = Decision(decision, tuple(trick), leader, holder, stock, frozenset(played), 0, move)
                events[seat].append(("decision", snapshot))
            if trick and (card[0] == trick[0][1][0] or card[0] in cutters):
                holder = seat
            trick.append((seat, card))
            played.add(card)
        elif kind == "end" and seat in events:
            snapshot = Decision("decide", tuple(trick), leader, holder, stock, frozenset(played), 0, {"type": "end"})
            events[seat].append(("decision", snapshot))
        elif kind == "take":
            trick = []
        elif kind == "draw":
            stock -= entry["count"]
            if seat in events:
                events[seat].append(("draw", entry["count"]))
    return events


def familie_history(view: dict) -> dict[int, list[Event]]:
    """Every other seat's decisions and draws in this deal, oldest first."""
    players, me = view["players"], view["seat"]
    deck = familie_rules.RULES.full_deck(players, view["options"])
    stock = len(deck) - 4 * players
    counts = [4] * players
    played: set[str] = set()
    passed: set[int] = set()
    events: dict[int, list[Event]] = {seat: [] for seat in range(players) if seat != me}
    trick: list[tuple[int, str]] = []
    leader = holder = 0
    for entry in view["log"]:
        kind, seat = entry["type"], entry.get("seat")
        if kind in ("play", "pass"):
            decision = "cut" if trick else "lead"
            if not trick:
                leader = holder = seat
                passed = set()
            if seat in events:
                move = {"type": "play", "card": entry["card"]} if kind == "play" else {"type": "pass"}
                open_seats = sum(1 for s in range(players) if s != seat and s not in passed and counts[s] > 0)
                snapshot = Decision(decision, tuple(trick), leader, holder, stock, frozenset(played), open_seats, move)
                events[seat].append(("decision", snapshot))
            if kind == "play":
                trick.append((seat, entry["card"]))
                played.add(entry["card"])
                counts[seat] -= 1
                holder = seat
            else:
                passed.add(seat)
        elif kind == "take":
            trick = []
        elif kind == "draw":
            stock -= entry["count"]
            counts[seat] += entry["count"]
            if seat in events:
                events[seat].append(("draw", entry["count"]))
    return events


def septica_moves(decision: Decision, held: list[str], cutters: str) -> list[dict]:
    if decision.kind == "decide":
        led = decision.trick[0][1][0]
        cards = [card for card in held if card[0] == led or card[0] in cutters]
        return [{"type": "play", "card": card} for card in cards] + [{"type": "end"}]
    return [{"type": "play", "card": card} for card in held]


def familie_moves(decision: Decision, held: list[str]) -> list[dict]:
    if decision.kind == "lead":
        return [{"type": "play", "card": card} for card in held]
    led = decision.trick[0][1][0]
    return [{"type": "play", "card": card} for card in held if card[0] in (led, "7", "X")] + [{"type": "pass"}]


class SepticaModel:
    """The medium septica player, asked what it would have done at a past decision."""

    def __init__(self, view: dict) -> None:
        players = view["players"]
        self.players = players
        self.cutters = "".join(view.get("cutters") or "7")
        self.side_of = tuple(seat % (players // 2) for seat in range(players)) if view.get("teams") else tuple(range(players))
        self.history = septica_history(view)

    def moves(self, decision: Decision, held: list[str]) -> list[dict]:
        return septica_moves(decision, held, self.cutters)

    def heuristic(self, seat: int, decision: Decision, held: list[str], moves: list[dict]) -> dict:
        unseen: Counter = Counter({rank: 4 for rank in "789TJQKA"})
        for card in itertools.chain(held, decision.played):
            unseen[card[0]] -= 1
        spot = septica.Spot(
            seat=seat, hand=tuple(held), trick=decision.trick, leader=decision.leader if decision.trick else seat,
            holder=decision.holder if decision.trick else seat, cutters=self.cutters, side_of=self.side_of,
            players=self.players, stock=decision.stock, unseen=unseen,
        )  # fmt: skip
        return septica.choose(spot, moves, MODEL_STYLE, LEVEL)


class FamilieModel:
    """The medium familie player, asked what it would have done at a past decision."""

    def __init__(self, view: dict) -> None:
        self.players = view["players"]
        self.history = familie_history(view)

    def moves(self, decision: Decision, held: list[str]) -> list[dict]:
        return familie_moves(decision, held)

    def heuristic(self, seat: int, decision: Decision, held: list[str], moves: list[dict]) -> dict:
        spot = familie.Spot(
            seat=seat, hand=tuple(held), trick=decision.trick, holder=decision.holder if decision.trick else seat,
            players=self.players, open_seats=decision.open_seats, stock=decision.stock,
        )  # fmt: skip
        return familie.choose(spot, moves, MODEL_STYLE, LEVEL)


Model = SepticaModel | FamilieModel


def log_likelihood(model: Model, hands: list[list[str]], rng: random.Random, epsilon: float = EPSILON) -> float:
    """The log of how likely this deal makes the others' decisions, under the model (see the module)."""
    total = 0.0
    for seat, events in model.history.items():
        held = list(hands[seat])
        for kind, what in reversed(events):
            if kind == "draw":
                count = min(what, len(held))
                for _ in range(count):
                    held.pop(int(rng.random() * len(held)))
                continue
            decision: Decision = what
            card = decision.move.get("card")
            if card is not None:
                held.append(card)
            moves = model.moves(decision, held)
            if len(moves) < 2:
                continue
            # The move made first: the heuristic breaks its ties to the first, so "it would have" means "it might have".
            ordered = [decision.move] + [move for move in moves if move != decision.move]
            fits = model.heuristic(seat, decision, held, ordered) == decision.move
            total += math.log((1 - epsilon) * fits + epsilon / len(moves))
    return total


def model_of(view: dict) -> Model:
    return SepticaModel(view) if view["rules"] == "septica" else FamilieModel(view)


class Hidden(NamedTuple):
    """The cards this seat cannot see, and where they may be."""

    cards: list[str]  # sorted
    slots: list[tuple[int, int]]  # (seat, hand size) of every other hand with cards
    stock: int


def hidden_of(view: dict) -> Hidden:
    if view["rules"] == "septica":
        public = [entry["card"] for entry in view["log"] if entry["type"] == "play"] + list(view["removed"])
        deck = list(septica_rules.DECK)
    else:
        public = [entry["card"] for entry in view["log"] if entry["type"] == "play"]
        deck = familie_rules.RULES.full_deck(view["players"], view["options"])
    cards = unseen_cards(view, deck, public)
    slots = [(seat, count) for seat, count in enumerate(view["hand_counts"]) if seat != view["seat"] and count]
    return Hidden(cards, slots, view["stock"])


def deal_count(hidden: Hidden) -> int:
    """How many ways the hidden cards split among the other hands and the stock (a set)."""
    ways, left = 1, len(hidden.cards)
    for _, size in hidden.slots:
        ways *= math.comb(left, size)
        left -= size
    return ways


def every_deal(hidden: Hidden):
    """Every split of the hidden cards: the other hands, then the stock's cards."""

    def split(cards: list[str], slots: list[tuple[int, int]]):
        if not slots:
            yield [], cards
            return
        (_, size), rest = slots[0], slots[1:]
        for chosen in itertools.combinations(cards, size):
            taken = set(chosen)
            for hands, stock in split([card for card in cards if card not in taken], rest):
                yield [list(chosen), *hands], stock

    yield from split(hidden.cards, hidden.slots)


def random_deal(hidden: Hidden, rng: random.Random) -> tuple[list[list[str]], list[str]]:
    cards = list(hidden.cards)
    rng.shuffle(cards)
    hands, at = [], hidden.stock
    for _, size in hidden.slots:
        hands.append(cards[at : at + size])
        at += size
    return hands, cards[: hidden.stock]


class WeightedDeals:
    """A pool of deals of one septica or familie view, each weighed by the model (see the module)."""

    def __init__(self, view: dict, rng: random.Random, deadline: float | None = None, pool: int = POOL) -> None:
        require_seat(view)
        self.view = view
        self.rules = rules_for(view["rules"])
        self.hidden = hidden_of(view)
        self.model = model_of(view)
        self.enumerated = deal_count(self.hidden) <= ENUMERATE_LIMIT
        if self.enumerated:
            deals = list(every_deal(self.hidden))
        else:
            deals = []
            while len(deals) < pool and (not deals or deadline is None or time.perf_counter() < deadline):
                deals.append(random_deal(self.hidden, rng))
        self.deals: list[tuple[list[list[str]], list[str]]] = []
        logs: list[float] = []
        for hands, stock in deals:
            if self.deals and deadline is not None and time.perf_counter() > deadline:
                break
            logs.append(log_likelihood(self.model, self.full_hands(hands), random.Random(len(logs))))
            self.deals.append((hands, stock))
        # Every deal there is, none left out for the clock.
        self.complete = self.enumerated and len(self.deals) == deal_count(self.hidden)
        top = max(logs)
        self.weights = [math.exp(value - top) for value in logs]
        self.cumulative = list(itertools.accumulate(self.weights))

    def full_hands(self, hands: list[list[str]]) -> list[list[str]]:
        full: list[list[str]] = [[] for _ in range(self.view["players"])]
        full[self.view["seat"]] = list(self.view["hand"])
        for (seat, _), hand in zip(self.hidden.slots, hands, strict=True):
            full[seat] = hand
        return full

    def guess(self, rng: random.Random) -> Game:
        """One deal drawn by weight, its stock shuffled afresh, as a complete game."""
        hands, stock = rng.choices(self.deals, cum_weights=self.cumulative)[0]
        stock = list(stock)
        rng.shuffle(stock)
        full = self.full_hands([list(hand) for hand in hands])
        return self.rules.from_view(self.view, full, stock, rng.getrandbits(SEED_BITS))


Guesses = Callable[[random.Random], Any]


def master_guesses(view: dict, rng: random.Random, deadline: float | None = None) -> Guesses:
    """The Master's guesses of a view's hidden cards, one per call, drawn by weight."""
    if rules_for(view["rules"]) is americana_rules.RULES:
        return WeightedGuesser(view, rng, pool=AMERICANA_POOL).guess
    return WeightedDeals(view, rng, deadline).guess
