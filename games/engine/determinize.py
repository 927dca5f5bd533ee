"""Complete games guessed from one seat's view: how a bot imagines the table.

Each rule set has its determinizer, ``septica_game``, ``familie_game`` and
``americana_game`` (``view, guess_rng -> game``; the bots' registry says which
is whose): the cards the seat cannot see (the other hands and the stock) are
dealt at random from the cards it has not seen, keeping every count the view
shows and every fact the public history implies. The guess is the bot's own;
nothing here reads the server's game, only the view. Later deals are shuffled
from a seed the guess makes up. The game itself is built by the rule set's
``rules.from_view``, which checks it like any saved game.
"""

from __future__ import annotations

import random

from . import americana, familie, septica
from .base import Game, Rules, require_seat

SEED_BITS = 62


def unseen_cards(view: dict, full_deck: list[str], public: list[str]) -> list[str]:
    """The cards this seat has not seen, sorted so the guess depends only on the rng."""
    known = set(view["hand"]) | set(public)
    return sorted(card for card in full_deck if card not in known)


def deal_hidden(
    view: dict, cards: list[str], rng: random.Random, fixed: dict[int, list[str]] | None = None
) -> list[list[str]]:
    """Share ``cards`` (already shuffled) among the other seats by their hand counts."""
    fixed = fixed or {}
    seat, counts = view["seat"], view["hand_counts"]
    cards = list(cards)
    hands: list[list[str]] = []
    for other, count in enumerate(counts):
        if other == seat:
            hands.append(list(view["hand"]))
            continue
        hand = list(fixed.get(other, ()))
        need = count - len(hand)
        hand += cards[:need]
        del cards[:need]
        rng.shuffle(hand)
        hands.append(hand)
    if cards:
        raise ValueError("The view's card counts do not add up.")
    return hands


# --- septica and familie ---------------------------------------------------------------
def septica_game(view: dict, rng: random.Random) -> Game:
    """A septica game whose ``view(view["seat"])`` is ``view``."""
    return _shuffled_unseen(septica.RULES, view, list(septica.DECK), _played(view) + list(view["removed"]), rng)


def familie_game(view: dict, rng: random.Random) -> Game:
    """A familie game whose ``view(view["seat"])`` is ``view``."""
    deck = familie.RULES.full_deck(view["players"], view["options"])
    return _shuffled_unseen(familie.RULES, view, deck, _played(view), rng)


def _played(view: dict) -> list[str]:
    return [entry["card"] for entry in view["log"] if entry["type"] == "play"]


def _shuffled_unseen(rules: Rules, view: dict, deck: list[str], public: list[str], rng: random.Random) -> Game:
    """The cards this seat has not seen, shuffled into the stock and the other hands: all that the log tells."""
    require_seat(view)
    unknown = unseen_cards(view, deck, public)
    rng.shuffle(unknown)
    stock, rest = unknown[: view["stock"]], unknown[view["stock"] :]
    seed = rng.getrandbits(SEED_BITS)
    return rules.from_view(view, deal_hidden(view, rest, rng), stock, seed)


# --- americana --------------------------------------------------------------------------
class PileHistory:
    """What the public log says about the pile and the stock of the current deal.

    ``pile``: the pile now, bottom first. ``reshuffled``: the cards last shuffled
    into the stock (``None`` before any reshuffle): the stock holds only those.
    ``buried``: special cards turned up first and put under the stock, each with
    where it went: ``("stock", index)`` or ``("seat", s)`` for the seat that drew it.
    """

    def __init__(self, view: dict, deck_size: int) -> None:
        players = view["players"]
        self.pile: list[str] = []
        self.reshuffled: list[str] | None = None
        self.buried: list[tuple[str, tuple[str, int]]] = []
        buried: list[str] = []
        first_stock: int | None = None  # cards of the first stock still to draw, while it lasts
        drawn = 0  # cards drawn from the first stock
        owners: dict[int, int] = {}  # position in the first stock -> seat that drew it
        pending_tail = False  # the first stock ran out in the middle of the next draw
        for entry in view["log"]:
            kind = entry["type"]
            if kind == "turn_up":
                self.pile.append(entry["card"])
            elif kind == "bury":
                self.pile.pop()
                buried.append(entry["card"])
            elif kind == "play":
                self.pile.append(entry["card"])
                if first_stock is None:
                    first_stock = deck_size - 5 * players - 1
            elif kind == "draw":
                if first_stock is None:
                    first_stock = deck_size - 5 * players - 1
                take = entry["count"]
                if self.reshuffled is None or pending_tail:
                    got = min(take, first_stock - drawn)
                    for position in range(drawn, drawn + got):
                        owners[position] = entry["seat"]
                    drawn += got
                    pending_tail = False
            elif kind == "reshuffle":
                if first_stock is None:
                    first_stock = deck_size - 5 * players - 1
                pending_tail = self.reshuffled is None and drawn < first_stock
                self.reshuffled = self.pile[:-1]
                self.pile = self.pile[-1:]
        if first_stock is None:
            first_stock = deck_size - 5 * players - 1
        played = {entry["card"] for entry in view["log"] if entry["type"] == "play"}
        start = first_stock - len(buried)
        for i, card in enumerate(buried):
            position = start + i
            if card in played:  # played since: it is on the pile or was shuffled back in
                continue
            if position in owners:
                self.buried.append((card, ("seat", owners[position])))
            elif self.reshuffled is None:
                self.buried.append((card, ("stock", position - drawn)))


def americana_game(view: dict, rng: random.Random) -> Game:
    """An americana game whose ``view(view["seat"])`` is ``view``."""
    return AmericanaGuesser(view).game(rng)


class AmericanaGuesser:
    """Guesses of one americana view: what the log tells is worked out once, each guess deals the rest.

    Cards the log places (buried ones) go where it puts them; the other hands
    avoid what each seat showed it did not hold (``hand_slots``) as far as the
    cards allow, and the stock takes what is left.
    """

    def __init__(self, view: dict) -> None:
        require_seat(view)
        deck = americana.RULES.full_deck(view["players"], view["options"])
        history = PileHistory(view, len(deck))
        if len(history.pile) != view["pile_count"] or (history.pile and history.pile[-1] != view["top"]):
            raise ValueError("The view's log does not account for the pile.")
        self.view, self.pile = view, history.pile
        unknown = unseen_cards(view, deck, history.pile)
        unknown_set = set(unknown)
        seat, counts, size = view["seat"], view["hand_counts"], view["stock"]
        fixed: dict[int, list[str]] = {}
        in_stock: dict[int, str] = {}
        for card, (where, at) in history.buried:
            if card not in unknown_set:
                continue
            if where == "seat" and at != seat:
                fixed.setdefault(at, []).append(card)
            elif where == "stock" and 0 <= at < size:
                in_stock[at] = card
        if any(len(cards) > counts[s] for s, cards in fixed.items()):
            fixed, in_stock = {}, {}  # the log disagrees with the counts: fall back to counts alone
        taken = {card for cards in fixed.values() for card in cards} | set(in_stock.values())
        self.fixed, self.in_stock = fixed, in_stock
        self.free = [card for card in unknown if card not in taken]
        self.may_stock = set(self.free)
        if history.reshuffled is not None:  # the stock holds only cards shuffled back in
            reshuffled = set(history.reshuffled) & self.may_stock
            if len(reshuffled) >= size - len(in_stock):
                self.may_stock = reshuffled
        self.slots = [
            (other, avoid)
            for other, count in enumerate(counts)
            if other != seat
            for avoid in hand_slots(view, other, count - len(fixed.get(other, ())))
        ]
        if len(self.free) != size - len(in_stock) + len(self.slots):
            raise ValueError("The view's card counts do not add up.")

    def deal(self, rng: random.Random) -> tuple[list[list[str]], list[str]]:
        """Every seat's hand and the stock (front first)."""
        view = self.view
        free = list(self.free)
        rng.shuffle(free)
        hands = {other: list(cards) for other, cards in self.fixed.items()}
        for other, card in _fill_slots(self.slots, free, self.may_stock):
            hands.setdefault(other, []).append(card)
        placed = {card for hand in hands.values() for card in hand}
        rest = [card for card in free if card not in placed]
        stock = [self.in_stock[at] if at in self.in_stock else rest.pop() for at in range(view["stock"])]
        return deal_hidden(view, [], rng, hands), stock

    def game(self, rng: random.Random) -> Game:
        """One guess, as a complete game."""
        hands, stock = self.deal(rng)
        seed = rng.getrandbits(SEED_BITS)
        return americana.RULES.from_view(self.view, hands, stock, seed, pile=self.pile)


def _fill_slots(
    slots: list[tuple[int, tuple[Lacking, ...]]], cards: list[str], may_stock: set[str]
) -> list[tuple[int, str]]:
    """A card (from ``cards``, already shuffled) for each hand slot, keeping what each slot avoids where possible.

    Cards that cannot be in the stock go to hands first, each to the least
    demanding slot that takes it; then the most demanding slots choose first.
    """
    open_slots = sorted(range(len(slots)), key=lambda i: len(slots[i][1]))
    left = list(cards)
    chosen: list[tuple[int, str]] = []
    for card in [card for card in cards if card not in may_stock]:
        i = next((i for i in open_slots if not _avoids(slots[i][1], card)), open_slots[0])
        open_slots.remove(i)
        left.remove(card)
        chosen.append((slots[i][0], card))
    for i in reversed(open_slots):
        avoid = slots[i][1]
        card = next((card for card in left if not _avoids(avoid, card)), left[0])
        left.remove(card)
        chosen.append((slots[i][0], card))
    return chosen


# What a seat showed it did not hold at some moment: cards of these suits or of these ranks.
Lacking = tuple[str, str]


def _avoids(avoid: tuple[Lacking, ...], card: str) -> bool:
    return any(card[1] in suits or card[0] in ranks for suits, ranks in avoid)


def hand_slots(view: dict, seat: int, count: int) -> list[tuple[Lacking, ...]]:
    """For each of ``count`` unknown cards of ``seat``'s hand, what that card is unlikely to be.

    People and bots alike play a card when one fits, hand a draw or a skip on
    when they can, and keep a seven while another card fits. So a seat that
    drew or passed held nothing it could play then, and one that played a seven
    held nothing else that fitted. The cards it has drawn since may be anything;
    the most recently drawn cards are taken to be the ones still held, which
    asks the least of the guess.
    """
    options = view["options"]
    house = americana.house_for(options["jokers"], options["pairs"], options["jacks_draw"], options["target"])
    draw_ranks = "".join(house.draw_values)
    events: list[Lacking | int] = []  # what the seat showed it lacked, and how many cards it drew, in order
    lacking: Lacking | None = None  # what not playing would show now, for the seat to move
    quiet: Lacking | None = None  # the same once an attack is over (the pile's top card is unchanged)
    for entry in view["log"]:
        kind = entry["type"]
        if entry.get("seat") == seat and lacking is not None:
            if kind in ("draw", "pass"):
                events.append(lacking)
            elif kind == "play" and entry["card"][0] == "7" and lacking[1].startswith("7"):
                events.append((lacking[0], lacking[1][1:]))  # other sevens may be held
        if entry.get("seat") == seat and kind == "draw":
            events.append(entry["count"])
        if kind == "turn_up" or kind == "play":
            card, rank = entry["card"], entry["card"][0]
            if rank == "X":
                quiet = None  # anything fits a joker
            else:
                suit = entry.get("suit") or card[1]
                quiet = (suit, "7X" + rank + house.pairs.get(rank, ""))
            lacking = quiet
            if kind == "play" and rank in house.draw_values:
                lacking = ("", draw_ranks)
            elif kind == "play" and rank == "A":
                lacking = ("", "A")
        elif kind in ("draw", "pass"):
            lacking = quiet
    slots: list[tuple[Lacking, ...]] = []
    avoid: list[Lacking] = []
    for event in reversed(events):
        if isinstance(event, int):
            slots += [tuple(avoid)] * min(event, count - len(slots))
        else:
            avoid.append(event)
    return slots + [tuple(avoid)] * (count - len(slots))

