"""Django's password rules, with the one sentence its Romanian catalog lacks.

Django's own Romanian has no text for the "too short" error it raises today,
so sign-up would show it in English; the same sentence is given here to the
site's catalog, which Romanian pages read first.
"""

from __future__ import annotations

from django.contrib.auth import password_validation
from django.utils.translation import ngettext


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    def get_error_message(self) -> str:
        return ngettext(
            "This password is too short. It must contain at least %d character.",
            "This password is too short. It must contain at least %d characters.",
            self.min_length,
        ) % self.min_length
