"""Challenges: one or several people asked to a new table, each seat kept until its person answers.

Accepting seats the person (the match starts when the table is full, as a
join does). Declining, or a day passing unanswered, frees the seat for anyone;
when nobody is left at the table but its creator and no invite still waits,
the table is called off, so a refused challenge does not count against the
challenger's open tables. Withdrawing calls the table off while it waits.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from players.reads import person

from ..after_commit import challenges as after_commit
from ..errors import BadRequest, Conflict, NotAllowed, NotFound
from ..models import Challenge, ChallengeInvite, ChallengeStatus, Seat, Table, TableStatus
from . import on_commit
from .tables import create_table, join_table

CHALLENGE_LIFETIME = timedelta(days=1)
MAX_CHALLENGED = 5  # a table has at most six seats


def people_named(usernames, challenger) -> list:
    """The people behind `usernames`; refused when the list is no list of names or names nobody."""
    if not isinstance(usernames, list) or not usernames or not all(isinstance(name, str) for name in usernames):
        raise BadRequest(_("\"usernames\" must be a list of the usernames of the people you challenge."),
                         code="bad_usernames")
    if len(usernames) > MAX_CHALLENGED:
        raise BadRequest(_("A table has room for at most %(count)d people besides you.") % {"count": MAX_CHALLENGED},
                         code="too_many_challenged")
    found = []
    for username in usernames:
        challenged = person(username.strip(), challenger)
        if challenged is None:
            raise NotFound(_("There is no such player to challenge: %(name)s.") % {"name": username},
                           code="no_such_player")
        found.append(challenged)
    return found


def create_challenge(challenger, people: list, **table) -> Challenge:
    """A new table (create_table's rules, options and clock) with a seat kept for each person, and their invites."""
    with transaction.atomic():
        new_table = create_table(challenger, reserve_for=list(people), **table)
        now = timezone.now()
        challenge = Challenge.objects.create(table=new_table, challenger=challenger, created_at=now,
                                             expires_at=now + CHALLENGE_LIFETIME)
        kept = dict(Seat.objects.filter(table=new_table, reserved_for__isnull=False)
                    .values_list("reserved_for_id", "number"))
        ChallengeInvite.objects.bulk_create(
            [ChallengeInvite(challenge=challenge, invitee=invitee, seat=kept[invitee.pk]) for invitee in people])
        challenge_id = challenge.pk
        transaction.on_commit(lambda: after_commit.challenge_made(challenge_id))
    return challenge


def _locked_challenge(challenge_id, user) -> Challenge:
    """The challenge under a lock on its table; one the user neither made nor received does not exist to them."""
    try:
        challenge = Challenge.objects.select_related("table").get(pk=int(challenge_id))
    except (Challenge.DoesNotExist, ValueError, TypeError):
        raise NotFound(_("There is no such challenge."), code="no_such_challenge") from None
    is_party = challenge.challenger_id == user.pk or challenge.invites.filter(invitee=user).exists()
    if not is_party:
        raise NotFound(_("There is no such challenge."), code="no_such_challenge")
    Table.objects.select_for_update().filter(pk=challenge.table_id).first()
    challenge.table.refresh_from_db()
    return challenge


def _pending_invite(challenge: Challenge, user) -> ChallengeInvite:
    invite = challenge.invites.select_for_update().filter(invitee=user).first()
    if invite is None:
        raise NotAllowed(_("Only the people challenged can answer a challenge."), code="not_challenged")
    if invite.status != ChallengeStatus.PENDING:
        raise Conflict(_("This challenge was already answered: %(status)s.") % {"status": invite.get_status_display()},
                       code="already_answered", answer=invite.status)
    return invite


def accept_challenge(challenge_id, user) -> Challenge:
    """Sit down in the seat kept for the user; join_table marks the invite accepted."""
    expire_challenges_of(user)
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, user)
        _pending_invite(challenge, user)
        join_table(challenge.table_id, user)  # in the same transaction: no expiry slips in between
    return challenge


def decline_challenge(challenge_id, user) -> Challenge:
    expire_challenges_of(user)
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, user)
        invite = _pending_invite(challenge, user)
        _close_invites(challenge, [invite.pk], ChallengeStatus.DECLINED)
    return challenge


def withdraw_challenge(challenge_id, user) -> Challenge:
    """The challenger takes it back: the waiting table is called off and unanswered invites are withdrawn."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id, user)
        if challenge.challenger_id != user.pk:
            raise NotAllowed(_("Only the person who made a challenge can withdraw it."), code="not_challenger")
        table = challenge.table
        if table.status != TableStatus.OPEN:
            raise Conflict(_("The match has started: the challenge can no longer be withdrawn."),
                           code="challenge_started")
        pending = dict(challenge.invites.filter(status=ChallengeStatus.PENDING).values_list("pk", "invitee_id"))
        ChallengeInvite.objects.filter(pk__in=pending).update(
            status=ChallengeStatus.WITHDRAWN, answered_at=timezone.now())
        table.status = TableStatus.ABORTED
        table.save(update_fields=["status"])
        on_commit.table_changed(table.pk)
        on_commit.lobby_changed(table.pk)
        on_commit.invites_closed(challenge.pk, list(pending.values()))
    return challenge


def _close_invites(challenge: Challenge, invite_ids: list[int], status: str) -> None:
    """Answer the invites (a compare-and-set on PENDING), free their seats, and call off a table left empty."""
    closing = ChallengeInvite.objects.filter(pk__in=invite_ids, status=ChallengeStatus.PENDING)
    invitees = list(closing.values_list("invitee_id", flat=True))
    if not closing.update(status=status, answered_at=timezone.now()):
        return
    table = challenge.table
    Seat.objects.filter(table=table, reserved_for_id__in=invitees, user__isnull=True).update(reserved_for=None)
    if table.status == TableStatus.OPEN and _only_the_challenger_is_left(challenge):
        table.status = TableStatus.ABORTED
        table.save(update_fields=["status"])
    on_commit.table_changed(table.pk)
    on_commit.lobby_changed(table.pk)
    on_commit.invites_closed(challenge.pk, invitees)
    for invitee in invitees:
        on_commit.matches_changed(invitee, table.pk)


def _only_the_challenger_is_left(challenge: Challenge) -> bool:
    others = Seat.objects.filter(table=challenge.table, user__isnull=False).exclude(user=challenge.challenger_id)
    waiting = challenge.invites.filter(status=ChallengeStatus.PENDING)
    return not others.exists() and not waiting.exists()


def _expire_if_due(challenge: Challenge, now=None) -> bool:
    if challenge.expires_at > (now or timezone.now()):
        return False
    pending = list(challenge.invites.filter(status=ChallengeStatus.PENDING).values_list("pk", flat=True))
    _close_invites(challenge, pending, ChallengeStatus.EXPIRED)
    return bool(pending)


def expire_challenges(now=None) -> int:
    """Expire every invite left unanswered past its day; run twice, it expires each once. The number expired."""
    now = now or timezone.now()
    due = (Challenge.objects.filter(expires_at__lte=now, invites__status=ChallengeStatus.PENDING)
           .values_list("pk", flat=True).distinct())
    expired = 0
    for challenge_id in list(due):
        with transaction.atomic():
            challenge = Challenge.objects.select_related("table").get(pk=challenge_id)
            Table.objects.select_for_update().filter(pk=challenge.table_id).first()
            before = challenge.invites.filter(status=ChallengeStatus.PENDING).count()
            expired += before if _expire_if_due(challenge, now) else 0
    return expired


def expire_challenges_of(user) -> None:
    """The check on read: a list of challenges never shows as waiting an invite whose day is over."""
    now = timezone.now()
    due = Challenge.objects.filter(expires_at__lte=now, invites__status=ChallengeStatus.PENDING)
    if due.filter(Q(challenger=user) | Q(invites__invitee=user)).exists():
        expire_challenges(now)

