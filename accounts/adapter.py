"""How django-allauth behaves on this site: links point at SITE_URL, errors
are worded as the site words them, and a password change ends on its own page."""

from __future__ import annotations

from urllib.parse import quote

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.urls import reverse
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy


def _wrong_password() -> str:
    # Django's words, in the site's catalog (its own Romanian is formal and
    # written with cedillas), as the log-in page said them before allauth.
    return gettext(
        "Please enter a correct %(username)s and password. Note that both fields may be case-sensitive."
    ) % {"username": gettext("username")}


class AccountAdapter(DefaultAccountAdapter):
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "email_taken": gettext_lazy(
            "An account with this e-mail address already exists. Forgot your password? Reset it."
        ),
        "username_password_mismatch": lazy(_wrong_password, str)(),
        "email_password_mismatch": lazy(_wrong_password, str)(),
        "enter_current_password": gettext_lazy("Your current password is not that one."),
    }

    def get_reset_password_from_key_url(self, key: str) -> str:
        # The link points at SITE_URL, never at whatever Host the request carried.
        path = reverse("account_reset_password_from_key", kwargs={"uidb36": "UID", "key": "KEY"})
        return settings.SITE_URL + path.replace("UID-KEY", quote(key))

    def get_email_confirmation_url(self, request, emailconfirmation) -> str:
        return settings.SITE_URL + reverse("account_confirm_email", args=[emailconfirmation.key])

    def get_password_change_redirect_url(self, request) -> str:
        return reverse("password_change_done")
