"""allauth's second-factor forms as the site uses them.

Its security-key forms get their name field labelled for translation (allauth
leaves it to Django's label made from the field name, "Name", which no
catalogue translates).

Its forms that check a second factor (a TOTP or recovery code, a passkey)
count failures where failed passwords are counted, django-axes, per account
and per address (accounts/lockout.py): allauth's own count of them rides on
its `login_failed` limit, which the settings turn off so that axes alone
counts log-in failures. A locked-out account or address is refused before
the code is looked at, with axes' lock-out page, as a password would be.
"""

from __future__ import annotations

from allauth.core import context
from allauth.mfa.base.forms import AuthenticateForm, ReauthenticateForm
from allauth.mfa.webauthn.forms import (
    AddWebAuthnForm,
    AuthenticateWebAuthnForm,
    EditWebAuthnForm,
    ReauthenticateWebAuthnForm,
    SignupWebAuthnForm,
)
from django import forms
from django.utils.translation import gettext_lazy as _

from .lockout import count_failed_log_in, refuse_if_locked_out


class _NamedKey:
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].label = _("Name")


class AddSecurityKeyForm(_NamedKey, AddWebAuthnForm):
    pass


class SignupSecurityKeyForm(_NamedKey, SignupWebAuthnForm):
    pass


class EditSecurityKeyForm(_NamedKey, EditWebAuthnForm):
    pass


def _counted(request, user, check):
    refuse_if_locked_out(request, user)
    try:
        return check()
    except forms.ValidationError:
        count_failed_log_in(request, user)
        raise


class _CountedCode:
    def clean_code(self) -> str:
        return _counted(context.request, self.user, super().clean_code)


class _CountedPasskey:
    def clean_credential(self):
        return _counted(context.request, self.user, super().clean_credential)


class SecondFactorForm(_CountedCode, AuthenticateForm):
    pass


class SecondFactorAgainForm(_CountedCode, ReauthenticateForm):
    pass


# The passkey log-in without a password (allauth's login_webauthn) stays
# uncounted, as allauth leaves it: the account it names comes from the
# visitor's own payload, and counting against it would let anyone lock others out.
class PasskeySecondFactorForm(_CountedPasskey, AuthenticateWebAuthnForm):
    pass


class PasskeySecondFactorAgainForm(_CountedPasskey, ReauthenticateWebAuthnForm):
    pass
