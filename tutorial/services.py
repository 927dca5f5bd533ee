"""The tutorial's writes: a completed step, and the practice match that ends the tutorial."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from games import actions as game_actions
from games.models import BotLevel, BotStyle

from .models import TutorialProgress

PRACTICE_SECONDS_PER_MOVE = 3600

log = logging.getLogger(__name__)


def record_step_done(user, game: str, step: str) -> TutorialProgress:
    """Remember that ``user`` finished this step; finishing it again keeps the first date."""
    with transaction.atomic():
        progress, created = TutorialProgress.objects.get_or_create(
            user=user, game=game, step=step, defaults={"completed_at": timezone.now()}
        )
    if created:
        log.info("user %s finished the %s tutorial step %s", user.pk, game, step)
    return progress


def steps_done(user) -> dict[str, set[str]]:
    done: dict[str, set[str]] = {}
    if user.is_authenticated:
        for game, step in TutorialProgress.objects.filter(user=user).values_list("game", "step"):
            done.setdefault(game, set()).add(step)
    return done


def start_practice_match(user, rules: str):
    """A private two-seat table against a Beginner bot; it starts at once, the bot's seat being filled."""
    return game_actions.create_table(
        user, rules=rules, players=2, seconds_per_move=PRACTICE_SECONDS_PER_MOVE, private=True,
        bots=[game_actions.BotSpec(seat=1, level=BotLevel.BEGINNER, style=BotStyle.BALANCED)],
    )
