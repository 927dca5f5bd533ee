from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class TutorialProgress(models.Model):
    """One tutorial step a person has completed (visitors keep theirs in the browser)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tutorial_progress")
    game = models.CharField(_("game"), max_length=20)
    step = models.CharField(_("step"), max_length=40)
    completed_at = models.DateTimeField(_("completed at"))

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game", "step"], name="tutorial_step_once_per_user")]
        verbose_name = _("tutorial progress")
        verbose_name_plural = _("tutorial progress")

    def __str__(self) -> str:
        return f"{self.user} {self.game}/{self.step}"
