"""Tables, seats, moves and what a seat may see (games/presenters.py, the engine's `view`)."""

from __future__ import annotations

from typing import Annotated, Literal

from ninja import Schema
from pydantic import Field

from games.actions import MAX_SECONDS_PER_MOVE, MIN_SECONDS_PER_MOVE
from games.engine import RULESETS
from games.models import BotLevel, BotStyle, TableStatus

from .common import Seat, Sometimes, Time

RuleSet = Literal[tuple(RULESETS)]
Card = Annotated[str, Field(pattern=r"^([2-9TJQKA][CDHS]|X[RB])$", examples=["7H", "TS", "XR"],
                             description="Rank then suit: ranks 2-9, T, J, Q, K, A; suits C D H S; jokers XR, XB.")]
Suit = Literal["C", "D", "H", "S"]
Options = Annotated[dict[str, bool | int | str], Field(
    description="The rule set's options. septica: match (points-8, points-21, best-of-3, best-of-5, first-to-10), "
                "teams, eights_cut; americana: target (101, 301, 501), jokers, pairs, jacks_draw; familie: none.")]


# --- moves ------------------------------------------------------------------------------------
class Move(Schema):
    """One move, as `legal_moves` lists them: play (all), end (septica), take (septica, familie),
    pass (familie, americana), draw (americana)."""

    type: Literal["play", "end", "take", "pass", "draw"]
    card: Sometimes[Card] = Field(None, description="play: the card, from your hand.")
    suit: Sometimes[Suit] = Field(None, description="americana: the suit a seven names.")


class MoveSent(Schema):
    """A move to play: one of your view's legal_moves, or {"type": "resign"}."""

    type: Literal["play", "end", "take", "pass", "draw", "resign"]
    card: Sometimes[Card] = None
    suit: Sometimes[Suit] = None


# --- what a seat may see ----------------------------------------------------------------------
class LogEntry(Schema):
    """One public event of the current deal: a move, or the dealer's own (seat null) such as turn_up,
    bury, reshuffle, remove, trick, deal_over. A draw shows no card."""

    seat: Seat | None
    type: str
    card: Sometimes[Card] = None
    cards: Sometimes[list[Card]] = Field(None, description="Cards shown face up: a trick taken, the eights removed.")
    count: Sometimes[int] = Field(None, description="draw: how many cards; reshuffle: the new stock's size.")
    points: Sometimes[int | list[int]] = Field(None, description="take, trick: the points won; deal_over: per seat.")
    suit: Sometimes[Suit] = None
    dealer: Sometimes[Seat] = None
    deal: Sometimes[int] = None
    skip: Sometimes[bool] = None
    written_off: Sometimes[int] = None
    out: Sometimes[Seat | None] = Field(None, description="americana deal_over: the seat that went out.")
    charged: Sometimes[list[int]] = Field(None, description="americana deal_over: the points each seat pays.")


class TrickCard(Schema):
    seat: Seat
    card: Card


class Result(Schema):
    scores: list[int] = Field(description="Per seat.")
    winners: list[Seat] = Field(description="Empty when nobody won.")
    resigned: Sometimes[list[Seat]] = Field(None, description="The seats that resigned, when someone did.")


class LastDeal(Schema):
    deal: int
    points: Sometimes[list[int]] = Field(None, description="septica, familie: the points each seat took.")
    charged: Sometimes[list[int]] = Field(None, description="americana: the points each seat paid.")
    out: Sometimes[Seat | None] = Field(None, description="americana: the seat that went out.")


class Attack(Schema):
    kind: Literal["draw", "skip"]
    count: Sometimes[int] = Field(None, description="draw: how many cards are pointed at the player to move.")


class ViewBase(Schema):
    """What every rule set's view holds. Only your own hand: never another seat's cards, never the stock's."""

    options: Options
    players: int = Field(ge=2, le=6)
    seat: Seat | None = Field(description="Your seat, or null for a spectator.")
    to_move: Seat | None = Field(description="The seat that must act, or null when the match is over.")
    finished: bool
    result: Result | None
    hand: list[Card] = Field(description="Your cards (empty for a spectator).")
    hand_counts: list[int] = Field(description="How many cards each seat holds.")
    stock: int = Field(ge=0, description="How many cards are left to draw.")
    legal_moves: list[Move] = Field(description="Your legal moves now; empty when it is not your turn.")
    scores: list[int] = Field(description="The match totals per seat (in team play the team's, for both partners).")
    deal: int = Field(ge=0, description="The current deal, from 0.")
    dealer: Seat
    first: Seat = Field(description="Who leads the deal.")
    log: list[LogEntry]
    last_deal: LastDeal | None


class TrickView(ViewBase):
    points: list[int] = Field(description="The points each seat (not team) has taken in this deal.")
    table: list[TrickCard] = Field(description="The trick in play, in order.")
    phase: str
    leader: Seat | None
    holder: Seat | None = Field(description="Who holds the trick, while there is one.")
    led_rank: str | None


class SepticaView(TrickView):
    rules: Literal["septica"]
    removed: list[Card] = Field(description="The two eights taken out with 3, 5 or 6 players.")
    cutters: list[str] = Field(description="The ranks that cut: 7, and 8 where eights cut.")
    can_continue: bool
    teams: list[list[Seat]] | None


class FamilieView(TrickView):
    rules: Literal["familie"]
    passed: list[Seat] = Field(description="The seats that passed in this trick.")


class AmericanaView(ViewBase):
    rules: Literal["americana"]
    hand_penalty: int = Field(description="What your hand would cost now.")
    top: Card = Field(description="The card on the pile.")
    suit: Suit | None = Field(description="The suit in force (null after a joker).")
    attack: Attack | None = Field(description="What is pointed at the player to move.")
    pile_count: int
    passes: int


View = Annotated[SepticaView | FamilieView | AmericanaView, Field(discriminator="rules")]


# --- tables ---------------------------------------------------------------------------------------
class BotInSeat(Schema):
    level: Literal[tuple(BotLevel.values)]
    style: Literal[tuple(BotStyle.values)]
    name: str | None
    badge: str = Field(description="Level, style and published rating, in words.")
    rating: int | None


class SeatAtTable(Schema):
    seat: Seat
    kind: Literal["person", "bot", "free"]
    name: str | None
    user_id: int | None
    bot: BotInSeat | None
    standing_in: bool = Field(description="A bot plays for the person, whose time per move ran out.")
    you: bool
    reserved: bool = Field(description="Kept for someone (a rematch or a challenge) who has not sat down.")
    reserved_for_you: bool
    resigned: bool
    reliability: int | None = Field(description="A person's percent; null before their first finished match or "
                                    "once the table is over.")
    profile_url: str | None


class TableWords(Schema):
    """The table's settings and result in the reader's language."""

    rules: str
    options: str
    time: str
    live: bool
    result: str
    scores: str
    rated: str


class TableSummary(Schema):
    """A table as the lobby and My matches list it: no view, no seed."""

    id: int
    url: str
    rules: RuleSet
    players: int = Field(ge=2, le=6)
    options: Options
    seconds_per_move: int
    private: bool
    rated: bool
    min_reliability: int | None
    status: Literal[tuple(TableStatus.values)]
    created_by: str
    rematch_of: int | None = Field(description="The finished table a rematch follows.")
    created_at: Time
    seats: list[SeatAtTable]
    seats_taken: int
    seq: int = Field(ge=0, description="The number of moves made: send it with your move.")
    to_move: Seat | None
    deadline: Time | None = Field(description="When the player to move runs out of time.")
    result: Result | None
    your_seat: Seat | None
    words: TableWords


class AbortRequest(Schema):
    asked_by: str
    asked_by_seat: Seat | None
    expires_at: Time
    answered: list[Seat] = Field(description="The seats that agreed.")
    you_may_answer: bool


class Table(TableSummary):
    """One table with everything the caller may see."""

    seed_sha256: str = Field(description="The SHA-256 of the seed's decimal digits, from the start.")
    seed: Sometimes[str] = Field(None, description="Only once the match is finished.")
    abort_reason: Sometimes[str] = Field(None, description="An aborted table's reason, in words.")
    invite_url: Sometimes[str] = Field(None, description="A private table's link, for its seated players.")
    can_add_bot: bool
    view: View | None = Field(description="What your seat may see; null until the last seat fills.")
    abort_by: Literal["moderator", "players"] | None
    may_resign: bool
    may_abort: Literal["alone", "ask"] | None
    abort_request: AbortRequest | None


class TableWithSeat(Table):
    seat: Seat = Field(description="Your seat (join), or the bot's (bot).")


class TableAborted(Table):
    abort: Literal["aborted", "asked"]


class TableAbortAnswered(Table):
    abort: Literal["aborted", "declined", "waiting"]


class Tables(Schema):
    tables: list[TableSummary]


class Left(Schema):
    left: Literal[True]
    table: int


# --- request bodies --------------------------------------------------------------------------------
class BotAsked(Schema):
    seat: int = Field(ge=1, le=5, description="From 1 (seat 0 is yours).")
    level: Literal[tuple(BotLevel.values)] = "medium"
    style: Literal[tuple(BotStyle.values)] = "balanced"


class NewTable(Schema):
    rules: RuleSet
    players: int = Field(ge=2, le=6)
    options: Options = Field(default_factory=dict)
    seconds_per_move: int = Field(86400, ge=MIN_SECONDS_PER_MOVE, le=MAX_SECONDS_PER_MOVE)
    private: bool = Field(False, description="true keeps it out of the lobby; share its invite_url.")
    bots: list[BotAsked] = Field(default_factory=list)
    rated: bool | None = Field(None, description="Left out: rated when only people sit. A bot makes it casual.")
    min_reliability: int | None = Field(None, ge=0, le=100, description="The least reliability to join, or null.")


class Invite(Schema):
    invite: Sometimes[str] = Field(None, description="A private table's invite code (or ?invite=).")


class BotToSeat(Schema):
    seat: Sometimes[int] = Field(None, ge=1, le=5, description="Left out: the first free seat.")
    level: Literal[tuple(BotLevel.values)] = "medium"
    style: Literal[tuple(BotStyle.values)] = "balanced"


class MoveToPlay(Schema):
    seq: int = Field(description="The number of moves you have seen (the table's seq when you looked).")
    move: MoveSent


class AbortAnswer(Schema):
    accept: bool

