"""Profiles, leaderboards, follows, blocks and challenges (players/api.py, games/api_challenges.py)."""

from __future__ import annotations

from typing import Literal

from ninja import Schema
from pydantic import Field

from games.actions.challenges import MAX_CHALLENGED
from games.models import ChallengeStatus, TableStatus

from .common import Person, Seat, Time
from .tables import Options, RuleSet, TableSummary


class Rating(Schema):
    shown: int = Field(description="The number the site shows.")
    mu: float
    sigma: float
    rated_matches: int
    provisional: bool = Field(description="Until 10 rated matches.")
    last_rated_at: Time | None


class Counts(Schema):
    played: int
    won: int


class Reliability(Schema):
    percent: int | None = Field(description="null before a first finished match.")
    counted: int


class PastMatch(Schema):
    """A finished match; at a private table you did not sit at, the people and the replay are left out."""

    table_id: int
    rules: RuleSet
    finished_at: Time
    players: int
    seat: Seat
    place: int
    won: bool
    resigned: bool
    rated: bool
    shown_before: int | None
    shown_after: int | None
    private: bool
    people: list[Person]
    bots: list[str]
    replay_url: str | None


class Profile(Person):
    ratings: dict[RuleSet, Rating | None] = Field(description="Per rule set: null before a first rated match.")
    counts: dict[RuleSet, Counts]
    reliability: Reliability
    matches: list[PastMatch] = Field(description="The last finished ones, newest first.")


class Row(Schema):
    rank: int = Field(description="Equal ratings share a rank.")
    username: str
    display_name: str
    rating: int
    rated_matches: int


class YourPlace(Schema):
    rank: int | None = Field(description="Yours even outside the top, or null with a reason.")
    listed: bool
    reason: Literal["no_rating", "provisional", "not_recent", "hidden"] | None
    rating: int | None
    rated_matches: int


class Leaderboard(Schema):
    rules: RuleSet
    rows: list[Row]
    you: YourPlace | None = Field(description="null without a log-in.")


class Following(Person):
    following: bool = Field(description="Whether you follow them now.")


class Blocked(Person):
    blocked: bool = Field(description="Whether you block them now.")


class PeopleFollowed(Schema):
    following: list[Person]


class Challenger(Schema):
    username: str
    display_name: str


class ChallengeInvite(Schema):
    username: str
    display_name: str
    seat: Seat = Field(description="The seat kept for them.")
    status: Literal[tuple(ChallengeStatus.values)]
    status_words: str
    answered_at: Time | None


class Challenge(Schema):
    id: int
    table_id: int
    table_url: str
    table_status: Literal[tuple(TableStatus.values)]
    rules: RuleSet
    players: int
    options: Options
    seconds_per_move: int
    rules_name: str
    time_words: str
    players_words: str
    challenger: Challenger
    created_at: Time
    expires_at: Time
    invites: list[ChallengeInvite]
    your_answer: Literal[tuple(ChallengeStatus.values)] | None = Field(description="null unless you were challenged.")


class Challenges(Schema):
    made: list[Challenge]
    received: list[Challenge]


class NewChallenge(Schema):
    """As a new table (POST /api/tables), with the people to challenge; seats 1 on are kept for them."""

    rules: RuleSet
    players: int = Field(ge=2, le=6)
    usernames: list[str] = Field(min_length=1, max_length=MAX_CHALLENGED)
    options: Options = Field(default_factory=dict)
    seconds_per_move: int = 86400
    private: bool = False
    rated: bool | None = None


class MyMatches(Schema):
    tables: list[TableSummary] = Field(description="Your move first (soonest deadline first), then other running "
                                       "matches, open tables, finished ones last.")
    invitations: list[TableSummary] = Field(description="Rematches that keep a seat for you.")
    your_move: int = Field(description="How many tables wait for your move.")
    challenges: Challenges = Field(description="Received and waiting for your answer; made by you lately.")
