"""The Master's analysis of a finished match (games/analysis_reads.py)."""

from __future__ import annotations

from typing import Literal

from ninja import Schema
from pydantic import Field

from games.models import AnalysisStatus

from .common import Seat, Time
from .tables import Move, RuleSet

REASON_CODES = (
    "continue_trick", "end_trick", "cut_trick", "pass_trick", "keep_cutter", "use_cutter", "keep_points",
    "other_card", "americana_could_play", "americana_better_to_draw", "americana_other_suit",
    "americana_other_card",
)


class Reason(Schema):
    """Why the Master's move beats the one made: a stable code and the cards or suits it names."""

    code: Literal[("", *REASON_CODES)] = Field(description="Empty when the move made was the Master's choice.")
    params: dict[str, str | None] = Field(description="card: the Master's card; chosen: the card played; "
                                          "suit, chosen_suit: the suits a seven named (americana).")


class DecisionWords(Schema):
    why: str = Field(description="The reason in the reader's language.")
    cost: str = Field(description="What the move made gave away, in words.")


class Decision(Schema):
    """One decision of a person: a position where they had more than one legal move."""

    seq: int = Field(ge=0, description="The move's number in the match's log, from 0 (the replay's step seq "
                     "shows the position it was made in).")
    seat: Seat
    chosen: Move = Field(description="The move made.")
    best: Move = Field(description="The Master's choice from the same view.")
    cost: float = Field(ge=0, description="Expected points given away against the Master's choice (septica, "
                        "familie: points of the deal; americana: penalty points more). 0 when they agree.")
    error: float = Field(ge=0, description="The standard error of cost: the guessed deals' own noise.")
    costly: bool = Field(description="cost is at least costly_from, and at least twice its error.")
    reason: Reason
    rounds: int = Field(ge=0, description="Guessed deals the Master played out.")
    words: DecisionWords | None = Field(description="null when the move made was the Master's choice.")


class PlayerTotal(Schema):
    seat: Seat
    name: str
    given_away: float = Field(ge=0, description="The sum of the seat's costs.")
    decisions: int = Field(ge=0, description="The seat's decisions judged (a bot's moves are not).")
    costly: int = Field(ge=0)
    words: str = Field(description="given_away in words.")


class Analysis(Schema):
    """Each person's decisions judged by the Master from what that person could see then, never the hidden
    cards. Computed after the match ends, a decision at a time behind the bots' turns: poll, or listen for
    analysis_ready on the table's socket."""

    table: int
    status: Literal[tuple(AnalysisStatus.values)] = Field(
        description="waiting its turn behind other analyses of the table's maker (reading it logged in queues it "
                    "in your own turn, when you have one free), pending while computed, then ready.")
    version: int = Field(description="The analyser's version that made it.")
    rules: RuleSet
    unit: Literal["points", "penalty"]
    lower_is_better: bool = Field(description="americana: the outcome is a penalty.")
    costly_from: float = Field(description="The cost from which a move is marked costly, in unit.")
    judged: int = Field(ge=0, description="Decisions judged so far.")
    decisions: list[Decision] = Field(description="In the order of play; while pending, those judged so far.")
    biggest: list[Decision] = Field(description="The three costliest costly moves, costliest first; empty while "
                                    "pending.")
    totals: list[PlayerTotal] | None = Field(description="Per seat; null while pending.")
    computed_at: Time | None
