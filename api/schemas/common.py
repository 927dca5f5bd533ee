"""What many answers share: a refusal, a person, a time, a key that is sometimes left out."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, TypeVar, Union

from ninja import Schema
from pydantic import Field
from pydantic.json_schema import SkipJsonSchema

T = TypeVar("T")

# A key an answer holds only in some cases (`seed` once finished): absent otherwise, never null.
Sometimes = Union[T, SkipJsonSchema[None]]  # noqa: UP007 (the | of a TypeVar and a class is no type alias)

Time = Annotated[datetime, Field(description="ISO 8601, with its offset from UTC.")]
Seat = Annotated[int, Field(ge=0, le=5, description="A seat's number, from 0, in the order of play.")]


class Error(Schema):
    """A refusal: the sentence says why, in the request's language; `code` and the other keys never change with it."""

    error: str = Field(description="Why, for a person to read.")
    code: Sometimes[str] = Field(None, description="What went wrong, for scripts: a stable name such as "
                                 "no_such_table or card-not-held.")
    seq: Sometimes[int] = Field(None, description="409 on a move: the number of moves made so far. Read the table "
                                "again and decide anew.")
    params: Sometimes[dict[str, Any]] = Field(None, description="400 on a move the rules refuse: the cards, seats "
                                              "(from 0) and counts the sentence names.")
    least: Sometimes[int] = Field(None, description="403 not_reliable_enough: the table's least reliability.")
    yours: Sometimes[int | None] = Field(None, description="403 not_reliable_enough: yours, in percent.")
    free: Sometimes[int] = Field(None, description="400 too_many_challenged: the free seats a challenge can keep.")
    answer: Sometimes[str] = Field(None, description="409 already_answered on a challenge: the answer you gave.")


class Person(Schema):
    username: str
    display_name: str = Field(description="The name the site shows.")
    url: str = Field(description="Their profile page.")
