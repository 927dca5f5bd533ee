"""allauth's security-key forms with their name field labelled for translation
(allauth leaves it to Django's label made from the field name, "Name", which
no catalogue translates)."""

from __future__ import annotations

from allauth.mfa.webauthn.forms import AddWebAuthnForm, EditWebAuthnForm, SignupWebAuthnForm
from django.utils.translation import gettext_lazy as _


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
