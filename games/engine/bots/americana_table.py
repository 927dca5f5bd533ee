"""A bare americana table for the expert's rollouts.

The engine's game is immutable and keeps a public log, which is right for the
server and slow for playing thousands of deals out per decision. This table
plays the same rules on plain lists, changing in place, and plays both sides
with the medium heuristic (``americana.choose``) worked out directly on it. It
is built from the bot's own guessed game, never from the server's.
"""

from __future__ import annotations

import random

from ..americana import AmericanaGame, house_for
from .americana import PENALTY
from .style import Style

SEVEN, ACE, JOKER = "7", "A", "X"
DRAW, SKIP = "draw", "skip"
SUITS = "CDHS"
TENTHS = {rank: penalty / 10 for rank, penalty in PENALTY.items()}
Move = tuple[str, str | None, str | None]  # (type, card, named suit), as the engine's move keys
DRAW_MOVE: Move = ("draw", None, None)
PASS_MOVE: Move = ("pass", None, None)


class Table:
    __slots__ = (
        "hands", "stock", "pile", "suit", "attack", "owed", "turn", "passes",
        "over", "out", "players", "draw_values", "pairs", "shuffle",
    )  # fmt: skip

    hands: list[list[str]]
    stock: list[str]  # next card last, so drawing pops
    pile: list[str]  # top card last
    suit: str | None
    attack: str | None
    owed: int
    turn: int
    passes: int
    over: bool
    out: int | None
    players: int
    draw_values: dict[str, int]
    pairs: dict[str, str]
    shuffle: random.Random

    @classmethod
    def from_view(cls, view: dict, hands: list[list[str]], stock: list[str], pile: list[str]) -> Table:
        """The table a seat's view shows, with a guess of the hands and the stock (front first)."""
        options = view["options"]
        house = house_for(options["jokers"], options["pairs"], options["jacks_draw"], options["target"])
        attack = view["attack"]
        table = object.__new__(cls)
        table.hands, table.stock, table.pile = hands, list(reversed(stock)), list(pile)
        table.suit = view["suit"]
        table.attack = attack["kind"] if attack else None
        table.owed = attack["count"] if attack and attack["kind"] == DRAW else 0
        table.turn, table.passes, table.players = view["to_move"], view["passes"], view["players"]
        table.over, table.out = False, None
        table.draw_values, table.pairs = house.draw_values, house.pairs
        table.shuffle = random.Random(0)
        return table

    @classmethod
    def from_game(cls, game: AmericanaGame, shuffle: random.Random) -> Table:
        """The table of an americana game in progress; ``shuffle`` shuffles the pile back into the stock.

        Built from the game's saved state, whose keys are the view's, as a yardstick for the table's rules.
        """
        state = game.to_state()
        table = cls.from_view(state, [list(hand) for hand in state["hands"]], state["stock"], state["pile"])
        table.shuffle = shuffle
        return table

    def copy(self, shuffle: random.Random) -> Table:
        table = object.__new__(Table)
        table.hands = [list(hand) for hand in self.hands]
        table.stock, table.pile = list(self.stock), list(self.pile)
        table.suit, table.attack, table.owed = self.suit, self.attack, self.owed
        table.turn, table.passes, table.players = self.turn, self.passes, self.players
        table.over, table.out = self.over, self.out
        table.draw_values, table.pairs, table.shuffle = self.draw_values, self.pairs, shuffle
        return table

    # --- the rules -------------------------------------------------------
    def legal(self) -> list[Move]:
        """The legal moves in the engine's order."""
        hand = self.hands[self.turn]
        if self.attack == SKIP:
            return [("play", card, None) for card in hand if card[0] == ACE] + [PASS_MOVE]
        if self.attack == DRAW:
            moves: list[Move] = [("play", card, None) for card in hand if card[0] in self.draw_values]
        else:
            moves = []
            for card in self.follows(hand):
                if card[0] == SEVEN:
                    moves.extend(("play", card, suit) for suit in SUITS)
                else:
                    moves.append(("play", card, None))
        if self.stock:
            moves.append(DRAW_MOVE)
        elif not moves:
            moves.append(PASS_MOVE)
        return moves

    def follows(self, hand: list[str]) -> list[str]:
        """The cards that may be played on the pile with nothing pointed at the player."""
        suit, top_rank = self.suit, self.pile[-1][0]
        paired = self.pairs.get(top_rank)
        return [
            card
            for card in hand
            if card[0] == SEVEN or suit is None or card[1] == suit or card[0] in (JOKER, top_rank, paired)
        ]

    def apply(self, move: Move) -> None:
        kind, card, named = move
        if kind == "play":
            assert card is not None
            self.play(card, named)
        elif kind == "draw":
            self.draw()
        else:
            self.pass_turn()

    def play(self, card: str, named: str | None) -> None:
        hand = self.hands[self.turn]
        hand.remove(card)
        self.pile.append(card)
        self.passes = 0
        if not hand:
            self.over, self.out = True, self.turn
            return
        rank = card[0]
        self.suit = named if rank == SEVEN else None if rank == JOKER else card[1]
        value = self.draw_values.get(rank)
        if value is not None:
            self.owed = self.owed + value if self.attack == DRAW else value
            self.attack = DRAW
        else:
            self.attack = SKIP if rank == ACE else None
        self.turn = (self.turn + 1) % self.players
        self.refill()

    def draw(self) -> None:
        count = self.owed if self.attack == DRAW else 1
        hand, stock = self.hands[self.turn], self.stock
        while count:
            if not stock:
                self.refill()
                stock = self.stock
                if not stock:
                    break
            hand.append(stock.pop())
            count -= 1
        self.attack, self.owed, self.passes = None, 0, 0
        self.turn = (self.turn + 1) % self.players
        self.refill()

    def pass_turn(self) -> None:
        self.passes = 0 if self.attack == SKIP else self.passes + 1
        self.attack, self.owed = None, 0
        if self.passes >= self.players:
            self.over, self.out = True, None
        else:
            self.turn = (self.turn + 1) % self.players

    def refill(self) -> None:
        if self.stock or len(self.pile) < 2:
            return
        self.stock = self.pile[:-1]
        self.shuffle.shuffle(self.stock)
        self.pile = self.pile[-1:]

    # --- the medium heuristic, on the table ---------------------------------
    def choose(self, style: Style) -> Move:
        """What ``americana.choose`` picks here (ties to the first legal move)."""
        hand = self.hands[self.turn]
        fallback = DRAW_MOVE if self.stock else PASS_MOVE
        if self.attack is not None:
            answers = self.draw_values if self.attack == DRAW else ACE
            card = next((card for card in hand if card[0] in answers), None)
            if card is None:
                return PASS_MOVE if self.attack == SKIP else fallback
            return ("play", card, None)
        suit, top_rank = self.suit, self.pile[-1][0]
        paired = self.pairs.get(top_rank)
        seven = None
        plays = []
        for card in hand:
            rank = card[0]
            if rank == SEVEN:
                seven = seven or card
            elif suit is None or card[1] == suit or rank in (top_rank, JOKER, paired):
                plays.append(card)
        if not plays:  # a seven only goes down when nothing else fits
            if seven is None:
                return fallback
            if len(hand) == 1:
                return ("play", seven, SUITS[0])
            if not style.sevens_early and self.stock:
                return fallback
            return ("play", seven, best_suit(hand))
        if len(plays) == 1:
            return ("play", plays[0], None)
        return ("play", self.best_play(hand, plays, style), None)

    def best_play(self, hand: list[str], plays: list[str], style: Style) -> str:
        """The medium bot's pick among cards that are not sevens: costly cards that others can follow."""
        values = self.play_values(hand, plays, style)
        best, best_value = plays[0], -1e9
        for card, value in zip(plays, values, strict=True):
            if value > best_value:
                best, best_value = card, value
        return best

    def play_values(self, hand: list[str], plays: list[str], style: Style) -> list[float]:
        """How much the medium bot likes each card of ``plays`` (no sevens among them)."""
        suits: dict[str, int] = {}
        ranks: dict[str, int] = {}
        for card in hand:
            suits[card[1]] = suits.get(card[1], 0) + 1
            ranks[card[0]] = ranks.get(card[0], 0) + 1
        draw_value = 3.0 if style.attacks or len(self.hands[(self.turn + 1) % self.players]) <= 2 else -1.0
        ace_bonus = 1.5 if self.players == 2 else 0.5
        values = []
        for card in plays:
            rank = card[0]
            if rank in self.draw_values:
                value = draw_value
            else:  # the other cards of its suit or rank that can follow it (itself counted in both)
                value = TENTHS[rank] + 0.4 * (suits[card[1]] + ranks[rank] - 2)
                if rank == ACE:
                    value += ace_bonus
            values.append(value)
        return values

    def rollout(self, style: Style, rng: random.Random, noise: float, limit: int) -> None:
        """Play on to the end of the deal (or ``limit`` moves), now and then a random legal move.

        The random move is a card whenever one can be played: players hardly
        ever take a card when one fits, so guesses where they do mislead.
        """
        for _ in range(limit):
            if self.over:
                return
            if rng.random() < noise:
                moves = self.legal()
                if len(moves) > 1 and moves[-1] is DRAW_MOVE:
                    moves.pop()
                self.apply(moves[int(rng.random() * len(moves))])
            else:
                self.apply(self.choose(style))

    def score(self, seat: int, charge_scale: float) -> float:
        """Roughly -1 .. 1 for ``seat``: going out, and the charges against the others'."""
        totals = [sum(PENALTY[card[0]] for card in hand) for hand in self.hands]
        if self.over:  # the charges: all but the player out, or with nobody out all but a sole lowest hand
            low = min(totals)
            spared = self.out if self.out is not None else totals.index(low) if totals.count(low) == 1 else None
            totals = [0 if s == spared or spared is None else total for s, total in enumerate(totals)]
        others = (sum(totals) - totals[seat]) / (self.players - 1)
        return (self.over and self.out == seat) + (others - totals[seat]) / charge_scale


def best_suit(hand: list[str]) -> str:
    """The suit a seven names: the one most held (then the costliest), as ``americana.best_suit``."""
    counts = dict.fromkeys(SUITS, 0)
    weights = dict.fromkeys(SUITS, 0)
    for card in hand:
        if card[0] not in "7X":
            counts[card[1]] += 1
            weights[card[1]] += PENALTY[card[0]]
    if not any(counts.values()):
        return "S"
    return max(SUITS, key=lambda suit: (counts[suit], weights[suit], suit))
