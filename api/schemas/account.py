"""The account itself (accounts/api.py): who you are, how the table page plays for you."""

from __future__ import annotations

from typing import Literal

from django.conf import settings
from ninja import Schema
from pydantic import ConfigDict, Field

from .common import Sometimes

Language = Literal[("", *(code for code, _name in settings.LANGUAGES))]


class Me(Schema):
    id: int
    username: str
    display_name: str = Field(description="Empty when you chose none.")
    preferred_language: Language = Field(description="Empty: the browser's (or the request's) language.")


class PreferenceValues(Schema):
    one_tap: bool = Field(description="One tap plays a card.")
    auto_take: bool = Field(description="Take the trick by itself when that is the only move.")
    sounds: bool
    chat_text: bool = Field(description="Show what people write in the chat (off: quick phrases only).")


class Preferences(Schema):
    preferences: PreferenceValues


class PreferencesToSave(Schema):
    """Any of them, each true or false; anything else is a 400 that changes nothing."""

    model_config = ConfigDict(extra="forbid")

    one_tap: Sometimes[bool] = None
    auto_take: Sometimes[bool] = None
    sounds: Sometimes[bool] = None
    chat_text: Sometimes[bool] = None

