"""Telling the people of a finished match who are away from its table how it ended."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from notify.models import NotificationKind
from notify.notifications import notify

from ..models import Match
from ..words.rulesets import rules_name
from . import your_move

logger = logging.getLogger(__name__)


def tell_away(match_id: int, people: list[tuple[int, bool]]) -> None:
    """`people`: (user id, won) of each person seated; never raises (the match's end is stored)."""
    try:
        _tell_away(match_id, people)
    except Exception:
        logger.warning("could not tell the people of match %s that it finished", match_id, exc_info=True)


def _tell_away(match_id: int, people: list[tuple[int, bool]]) -> None:
    match = Match.objects.select_related("table").get(pk=match_id)
    won_by = dict(people)
    for user in get_user_model().objects.filter(pk__in=won_by, is_active=True):
        if your_move.is_present(match_id, user.pk):
            continue
        with translation.override(user.preferred_language or settings.LANGUAGE_CODE):
            title, body = finished_words(match, won_by[user.pk])
        notify(user, NotificationKind.FINISHED, title=title, body=body,
               url=reverse("table", args=[match_id]), tag=your_move.table_tag(match_id))


def finished_words(match: Match, won: bool) -> tuple[str, str]:
    title = _("Match finished at Table %(table)s (%(rules)s)") % {"table": match.pk,
                                                                  "rules": rules_name(match.table.rules)}
    return title, _("You won.") if won else _("You did not win this one.")
