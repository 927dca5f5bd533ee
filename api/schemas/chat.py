"""A table's chat (games/chat_reads.py): its lines, its quick phrases, a line to say."""

from __future__ import annotations

from typing import Literal

from ninja import Schema
from pydantic import ConfigDict, Field

from games.actions.chat import MAX_TEXT_CHARS
from games.models import ChatRoom
from games.words.chat import PHRASES

from .common import Sometimes, Time

Room = Literal[tuple(ChatRoom.values)]
Phrase = Literal[tuple(PHRASES)]


class Author(Schema):
    name: str
    username: str
    profile_url: str


class ChatLine(Schema):
    """A quick phrase (its code) or free text; `words` is the line in the reader's language."""

    id: int
    room: Room
    author: Author
    phrase: Sometimes[Phrase] = None
    text: Sometimes[str] = None
    words: str
    at: Time


class PhraseWords(Schema):
    code: Phrase
    words: str


class ChatHistory(Schema):
    table: int
    room: Room | None = Field(description="The room you read, or null when you have no chat here.")
    lines: list[ChatLine] = Field(description="The last lines of your room, oldest first.")
    phrases: list[PhraseWords]


class LineSaid(Schema):
    line: ChatLine


class LineToSay(Schema):
    """Exactly one of the two."""

    model_config = ConfigDict(json_schema_extra={"oneOf": [{"required": ["text"]}, {"required": ["phrase"]}]})

    text: Sometimes[str] = Field(None, min_length=1, max_length=MAX_TEXT_CHARS, description="Free text (trimmed).")
    phrase: Sometimes[Phrase] = None
