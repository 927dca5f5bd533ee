from __future__ import annotations

from allauth.account.signals import password_reset
from axes.utils import reset as axes_reset
from django.dispatch import receiver


@receiver(password_reset)
def lift_lockout_after_reset(sender, request, user, **kwargs):
    # Following the e-mailed link proves the account is theirs: lift its
    # log-in lockout so the new password works at once.
    axes_reset(username=user.get_username())
