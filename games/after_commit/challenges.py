"""What leaves the database when a challenge is made: a notification to each person challenged, in their language;
and when an invite is answered, withdrawn or expires, that notification taken back if still unread.

Sent after commit by games/actions/challenges.py; reads the challenge again,
so it tells nobody of a challenge that was not stored.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from notify.models import NotificationKind
from notify.notifications import notify, take_back

from ..models import Challenge, ChallengeInvite, ChallengeStatus
from ..words.rulesets import rules_name

logger = logging.getLogger(__name__)


def challenge_made(challenge_id: int) -> None:
    challenge = Challenge.objects.select_related("table", "challenger").filter(pk=challenge_id).first()
    if challenge is None:
        return
    for invite in challenge.invites.select_related("invitee").filter(status=ChallengeStatus.PENDING):
        try:
            tell_invitee(challenge, invite.invitee)
        except Exception:  # the challenge stands; My matches shows it all the same
            logger.warning("could not notify %s of challenge %s", invite.invitee_id, challenge_id, exc_info=True)
            continue
        # Withdrawn (or answered) between the read above and the notification: the
        # withdrawal's own take-back may have run before it existed.
        if not ChallengeInvite.objects.filter(pk=invite.pk, status=ChallengeStatus.PENDING).exists():
            invite_closed(challenge_id, [invite.invitee_id])


def invite_closed(challenge_id: int, invitee_ids) -> None:
    """These people's invites were answered, withdrawn or expired: the notification asking them is no news."""
    take_back(invitee_ids, tag(challenge_id))


def tag(challenge_id: int) -> str:
    return f"challenge-{challenge_id}"


def tell_invitee(challenge: Challenge, invitee) -> None:
    with translation.override(invitee.preferred_language or settings.LANGUAGE_CODE):
        notify(
            invitee, NotificationKind.CHALLENGE,
            title=_("%(name)s challenges you") % {"name": challenge.challenger.shown_name},
            body=_("%(rules)s at table %(id)d: accept or decline in My matches.")
            % {"rules": rules_name(challenge.table.rules), "id": challenge.table_id},
            url=reverse("my_matches"), tag=tag(challenge.pk),
        )
