"""Every tutorial step, by game, in the order they are taught."""

from __future__ import annotations

from django.utils.translation import get_language

from games.words.rulesets import rules_name

from . import americana_steps, septica_steps
from .script import Step, Text

GAMES: dict[str, tuple[Step, ...]] = {"septica": septica_steps.STEPS, "americana": americana_steps.STEPS}
GAME_NAMES = {game: rules_name(game) for game in GAMES}


def step_of(game: str, number: int) -> Step | None:
    """Step ``number`` (1-based) of ``game``, or None."""
    steps = GAMES.get(game, ())
    return steps[number - 1] if 1 <= number <= len(steps) else None


def words(text: Text | None) -> str:
    """The text in the active language: Romanian for ro, English otherwise."""
    if not text:
        return ""
    language = (get_language() or "en").split("-")[0]
    return text.get(language) or text["en"]
