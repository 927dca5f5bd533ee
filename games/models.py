"""Tables, their seats, the one match each table plays, and its move log.

The engine's full state is stored as a snapshot so a move costs one read and
one write; the move log plus the seed can rebuild every snapshot, which
`manage.py verify_matches` checks.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .engine import rules_for


class TableStatus(models.TextChoices):
    OPEN = "open", _("Open")
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")
    ABORTED = "aborted", _("Aborted")


class BotLevel(models.TextChoices):
    BEGINNER = "beginner", _("Beginner")
    MEDIUM = "medium", _("Medium")
    EXPERT = "expert", _("Expert")
    MASTER = "master", _("Master")


class BotStyle(models.TextChoices):
    CAUTIOUS = "cautious", _("Cautious")
    BALANCED = "balanced", _("Balanced")
    AGGRESSIVE = "aggressive", _("Aggressive")
    TEAM = "team", _("Team player")
    EXPERT = "expert", _("Expert")


class Actor(models.TextChoices):
    PERSON = "person", _("Person")
    BOT = "bot", _("Bot")
    TIMEOUT = "timeout", _("Bot standing in after a timeout")


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class TableQuerySet(models.QuerySet):
    def listed_in_lobby(self):
        return self.filter(status=TableStatus.OPEN, private=False, hidden=False, closed=False)


class Table(models.Model):
    rules = models.CharField(_("rule set"), max_length=20)
    players = models.PositiveSmallIntegerField(_("players"))
    options = models.JSONField(_("options"), default=dict)
    seconds_per_move = models.PositiveIntegerField(_("time per move (seconds)"))
    private = models.BooleanField(_("private"), default=False)
    invite_code = models.CharField(max_length=32, default=new_invite_code, unique=True, editable=False)
    status = models.CharField(max_length=10, choices=TableStatus.choices, default=TableStatus.OPEN, db_index=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tables_created")
    rematch_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches")
    hidden = models.BooleanField(_("hidden from the lobby"), default=False)
    closed = models.BooleanField(_("closed to new players"), default=False)
    # Rated tables change their people's ratings (players/); a bot in its own seat makes a table casual.
    rated = models.BooleanField(_("rated"), default=False)
    # The least reliability (percent, players/reliability.py) a person needs to join; None: anyone.
    min_reliability = models.PositiveSmallIntegerField(_("least reliability to join (%)"), null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    objects = TableQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Table {self.pk} ({self.rules}, {self.players} players, {self.status})"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    # A rematch keeps each person's seat for them until the match starts.
    reserved_for = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    bot_level = models.CharField(max_length=10, choices=BotLevel.choices, blank=True)
    bot_style = models.CharField(max_length=12, choices=BotStyle.choices, blank=True)
    # A bot plays for a person who let the clock run out, until they act again.
    standing_in = models.BooleanField(default=False)
    # A person who resigned a free-for-all: a bot plays the seat to the end, and they rank last.
    resigned = models.BooleanField(default=False)
    joined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_seat_number_per_table"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=models.Q(user__isnull=False), name="one_seat_per_person"
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of table {self.table_id}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def is_free(self) -> bool:
        return self.user_id is None and not self.bot_level

    def is_free_for(self, user) -> bool:
        return self.is_free and self.reserved_for_id in (None, user.pk)


class Match(models.Model):
    """The match a table plays; it shares the table's id.

    It exists from the table's creation so the seed is committed to (its hash
    published) before anyone can know who will sit where.
    """

    table = models.OneToOneField(Table, primary_key=True, on_delete=models.CASCADE, related_name="match")
    # 128+ random bits do not fit a bigint; the digits are what the hash covers.
    seed = models.CharField(max_length=80, editable=False)
    seed_sha256 = models.CharField(max_length=64, editable=False)
    # The engine snapshot; empty until the last seat fills and the cards are dealt.
    state = models.JSONField(null=True, blank=True)
    seq = models.PositiveIntegerField(default=0)
    to_move = models.PositiveSmallIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    result = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    abort_reason = models.TextField(blank=True)

    class Meta:
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"Match {self.pk} at move {self.seq}"

    @staticmethod
    def new_seed() -> int:
        return secrets.randbits(128) | (1 << 127)  # always a full 128 bits

    @staticmethod
    def hash_seed(seed: int | str) -> str:
        return hashlib.sha256(str(seed).encode()).hexdigest()

    def game(self):
        """The engine's game at this match's stored snapshot."""
        return rules_for(self.table.rules).from_state(self.state)


class Move(models.Model):
    """One accepted move: the match's log, in order, with no gaps."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField(help_text=_("The match's seq before this move: 0 for the first."))
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()
    actor = models.CharField(max_length=10, choices=Actor.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="one_move_per_seq")]

    def __str__(self) -> str:
        return f"move {self.seq} of match {self.match_id}: seat {self.seat} {self.move}"


# --- leaving a match by consent ------------------------------------------------------
class AbortRequestStatus(models.TextChoices):
    OPEN = "open", _("Waiting for answers")
    ACCEPTED = "accepted", _("Everyone agreed: the match was aborted")
    DECLINED = "declined", _("Declined")
    EXPIRED = "expired", _("Expired")
    WITHDRAWN = "withdrawn", _("Overtaken by the end of the match")


class AbortRequest(models.Model):
    """A seated person's request to abort a match that is too far along to abort alone.

    Every other seated person answers; one refusal declines it, and it expires
    after one time per move."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="abort_requests")
    asked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField(_("at move"))
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=AbortRequestStatus.choices, default=AbortRequestStatus.OPEN)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(status="open"), name="one_open_abort_request_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"abort request {self.pk} at table {self.table_id} ({self.status})"


class AbortAnswer(models.Model):
    request = models.ForeignKey(AbortRequest, on_delete=models.CASCADE, related_name="answers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    accepted = models.BooleanField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["request", "user"], name="one_answer_per_person")]

    def __str__(self) -> str:
        return f"{self.user} {'accepted' if self.accepted else 'declined'} abort request {self.request_id}"


# --- moderation ------------------------------------------------------------------
class Report(models.Model):
    """A player's complaint about another player at a table, queued for the moderators."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="reports")
    seq = models.PositiveIntegerField(_("at move"), help_text=_("The match's seq when the report was made."))
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made")
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_against")
    reason = models.TextField(_("reason"))
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    # The table's newest chat line when the report was made: the moderators read the chat up to it.
    chat_until = models.BigIntegerField(_("chat up to line"), null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"report {self.pk}: {self.reporter} about {self.reported} at table {self.table_id}"


class ModerationKind(models.TextChoices):
    ABORT = "abort", _("Aborted the table")
    REMOVE_PLAYER = "remove_player", _("Removed a player (a bot took the seat)")
    HIDE = "hide", _("Hid the table from the lobby")
    SHOW = "show", _("Showed the table in the lobby again")
    CLOSE = "close", _("Closed the table to new players")
    REOPEN = "reopen", _("Opened the table to new players again")
    SUSPEND = "suspend", _("Suspended a user")
    BAN = "ban", _("Banned a user")
    LIFT = "lift", _("Lifted a suspension or ban")
    RESOLVE_REPORT = "resolve_report", _("Resolved a report")
    MUTE = "mute", _("Muted a user from chat")
    UNMUTE = "unmute", _("Lifted a mute from chat")


class ModerationAction(models.Model):
    """The audit log: one row per moderator action, written with the action, never changed."""

    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("action"), max_length=20, choices=ModerationKind.choices, db_index=True)
    reason = models.TextField(_("reason"))
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    seq = models.PositiveIntegerField(_("at move"), null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        verbose_name=_("player"),
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    until = models.DateTimeField(_("suspended until"), null=True, blank=True)
    report = models.ForeignKey(Report, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-created_at", "-pk"]
        permissions = [("moderate", _("Can moderate tables and players"))]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.moderator}: {self.get_kind_display()}"


# --- chat ----------------------------------------------------------------------------
class ChatRoom(models.TextChoices):
    PLAYERS = "players", _("Players")
    SPECTATORS = "spectators", _("Spectators")


class ChatLine(models.Model):
    """One line said at a table: a quick phrase (its code, worded for each reader) or free text."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_lines")
    room = models.CharField(_("chat"), max_length=10, choices=ChatRoom.choices)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_lines")
    phrase = models.CharField(_("quick phrase"), max_length=24, blank=True)
    text = models.CharField(_("text"), max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pk"]
        indexes = [
            models.Index(fields=["table", "room", "-id"], name="chat_newest"),
            models.Index(fields=["author", "created_at"], name="chat_by_author"),  # the rate's windows
        ]

    def __str__(self) -> str:
        return f"chat line {self.pk} at table {self.table_id}"


# --- challenges ----------------------------------------------------------------------
class ChallengeStatus(models.TextChoices):
    PENDING = "pending", _("waiting for an answer")
    ACCEPTED = "accepted", _("accepted")
    DECLINED = "declined", _("declined")
    EXPIRED = "expired", _("expired")
    WITHDRAWN = "withdrawn", _("withdrawn")


class Challenge(models.Model):
    """An invitation to a new table: its seats kept for the people challenged until they answer or it expires."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="challenge")
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_made")
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"challenge {self.pk} by {self.challenger} at table {self.table_id}"


class ChallengeInvite(models.Model):
    """One person challenged, and their answer."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="invites")
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received")
    seat = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=ChallengeStatus.choices, default=ChallengeStatus.PENDING, db_index=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["challenge", "invitee"], name="one_invite_per_person")]

    def __str__(self) -> str:
        return f"{self.invitee} invited by challenge {self.challenge_id}: {self.status}"


# --- reminders -----------------------------------------------------------------------
class ReminderSent(models.Model):
    """A reminder that time for a move is running out, once per match, move and share of the time left."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    which = models.CharField(max_length=8)  # "half" or "tenth" (games/after_commit/reminders.py)
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seq", "which"], name="one_reminder_per_turn_and_share")]

    def __str__(self) -> str:
        return f"reminder {self.which} for match {self.match_id} at seq {self.seq}"


# --- the analysis of a finished match ------------------------------------------------
class AnalysisStatus(models.TextChoices):
    # Waiting: its person already has ANALYSIS_QUEUED_PER_PERSON analyses pending; it is queued in its turn.
    WAITING = "waiting", _("waiting its turn")
    PENDING = "pending", _("being computed")
    READY = "ready", _("ready")


class MatchAnalysis(models.Model):
    """What the Master thinks of each person's decisions in a finished match (games/analysis.py)."""

    match = models.OneToOneField(Match, primary_key=True, on_delete=models.CASCADE, related_name="analysis")
    # Which analyser wrote it, so a better one can tell its own results from older ones.
    version = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(max_length=8, choices=AnalysisStatus.choices, default=AnalysisStatus.PENDING)
    # The first move not yet judged: each task run claims the decisions from here with a compare-and-set.
    next_seq = models.PositiveIntegerField(default=0)
    decisions = models.JSONField(default=list)
    # Per seat once ready: points given away, decisions judged, costly ones (bots' seats judge none).
    totals = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)
    # When it last moved on (begun, or a chunk stored): the sweeper queues again only those that stopped.
    stored_at = models.DateTimeField(default=timezone.now)
    computed_at = models.DateTimeField(null=True, blank=True)
    # Whose turn it takes among the analyses queued per person: the table's maker, or whoever asked for it.
    person = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")

    class Meta:
        verbose_name_plural = "match analyses"
        indexes = [models.Index(fields=["person", "status", "created_at"], name="analyses_by_person")]

    def __str__(self) -> str:
        return f"analysis of match {self.match_id}: {self.status}"
