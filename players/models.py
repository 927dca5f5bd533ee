"""What remains of a person's finished matches: one outcome per match, and a rating per rule set.

This app knows people and numbers, not cards: games/ hands it each finished
match's places (players/outcomes.py), so it imports nothing of games/.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Rating(models.Model):
    """A person's Plackett-Luce rating at one rule set, as their rated matches left it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    rules = models.CharField(_("rule set"), max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    # The number people see (players/skill.py `shown`), kept beside mu and sigma so leaderboards sort on an index.
    shown = models.IntegerField(_("rating"))
    rated_matches = models.PositiveIntegerField(_("rated matches"), default=0)
    last_rated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "rules"], name="one_rating_per_rule_set")]
        indexes = [models.Index(fields=["rules", "-shown"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.user} at {self.rules}: {self.shown}"


class Outcome(models.Model):
    """How one person's finished match went for them: their place, and their rating before and after."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="outcomes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="outcomes")
    rules = models.CharField(_("rule set"), max_length=20)
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(_("place"), help_text=_("1 for the best; sides that tie share a place."))
    players = models.PositiveSmallIntegerField(_("players"))
    won = models.BooleanField(_("won"))
    rated = models.BooleanField(_("rated"))
    resigned = models.BooleanField(_("resigned"), default=False)
    # Moves a bot made for this person after their time ran out: more than one counts against reliability.
    stood_in_turns = models.PositiveIntegerField(default=0)
    finished_at = models.DateTimeField(default=timezone.now)
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(null=True, blank=True)
    shown_before = models.IntegerField(null=True, blank=True)
    shown_after = models.IntegerField(null=True, blank=True)

    class Meta:
        # The pk is the order ratings were applied in (players/outcomes.py): recompute_ratings replays it.
        ordering = ["-pk"]
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="one_outcome_per_person_and_match")]
        indexes = [
            models.Index(fields=["user", "-finished_at"], name="outcome_history"),
            models.Index(fields=["user", "rules", "-finished_at"], name="outcome_history_by_rules"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in match {self.match_id}: place {self.place}"


class Follow(models.Model):
    """One person following another: "Following" lists who is online and their open tables."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="one_follow_per_pair"),
            models.CheckConstraint(condition=~models.Q(follower=models.F("followed")), name="no_following_oneself"),
        ]

    def __str__(self) -> str:
        return f"{self.follower} follows {self.followed}"


class Block(models.Model):
    """One person blocking another: the blocked person's chat lines are hidden from the blocker,
    and the blocked person cannot challenge them or join their tables."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="no_blocking_oneself"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"
