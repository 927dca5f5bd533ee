from __future__ import annotations

from allauth.account import forms as allauth_forms
from allauth.account.adapter import get_adapter
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.utils.translation import get_language_info, gettext
from django.utils.translation import gettext_lazy as _

from . import names
from .models import ApiToken

User = get_user_model()

# The sign-up's greeting carries it, so the home page does not greet the new player a second time.
WELCOME_TAG = "welcome"


class SignUpForm(allauth_forms.SignupForm):
    """allauth's sign-up form, its fields named and explained as before.

    Usernames are checked by ``accounts.names.username_validators`` through
    ACCOUNT_USERNAME_VALIDATORS, which allauth's form runs.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].label = _("Username")
        self.fields["username"].help_text = User._meta.get_field("username").help_text
        self.fields["email"].label = _("E-mail address")
        self.fields["email"].help_text = _(
            "For resetting your password and, once you confirm it, e-mails about your games. "
            "Never shown to other players."
        )
        self.fields["password1"].label = _("Password")
        self.fields["password2"].label = _("Password confirmation")
        self.fields["password2"].help_text = _("Enter the same password as before, for verification.")
        for field in self.fields.values():
            field.widget.attrs.pop("placeholder", None)

    def signup(self, request, user) -> None:
        # allauth's hook for what a site adds to a new account; here the greeting.
        messages.success(request, gettext("Welcome, %(name)s! Your account is ready.") % {"name": user.username},
                         extra_tags=WELCOME_TAG)


class LogInForm(allauth_forms.LoginForm):
    """allauth's log-in form: one field for the username or the account's e-mail
    address. django-axes counts failures against the account whichever was typed
    (accounts.lockout)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["login"].label = _("Username or e-mail")
        self.fields["login"].max_length = 254
        self.fields["login"].widget.attrs.update({"maxlength": 254, "autocomplete": "username"})
        self.fields["login"].widget.attrs.pop("placeholder", None)
        self.fields["password"].widget.attrs.pop("placeholder", None)
        self.fields["password"].help_text = ""


class ChangePasswordForm(allauth_forms.ChangePasswordForm):
    """allauth's form, the old password checked through authenticate() so that
    django-axes counts a wrong one as a failed log-in and refuses even the right
    one while the account or address is locked out."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.widget.attrs.pop("placeholder", None)
        self.fields["oldpassword"].help_text = ""

    def clean_oldpassword(self) -> str:
        password = self.cleaned_data.get("oldpassword", "")
        adapter = get_adapter()
        if not adapter.reauthenticate(self.user, password):
            raise adapter.validation_error("enter_current_password")
        return password


class ResetPasswordForm(allauth_forms.ResetPasswordForm):
    """allauth's form, its field named as the sign-up form names it (and translated with it)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].label = _("E-mail address")
        self.fields["email"].widget.attrs.pop("placeholder", None)


class AddEmailForm(allauth_forms.AddEmailForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].label = _("E-mail address")
        self.fields["email"].widget.attrs.pop("placeholder", None)


def resolve_username(typed: str) -> str | None:
    """The username of the one account ``typed`` names (its username in any case, or its e-mail address)."""
    users = User.objects.filter(username__iexact=typed)
    if "@" in typed:
        users = users | User.objects.filter(email__iexact=typed)
    names_found = list(users.values_list("username", flat=True)[:2])
    return names_found[0] if len(names_found) == 1 else None


class ProfileForm(forms.ModelForm):
    preferred_language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        # Named in the page's language ("Engleză" on a Romanian page), from Django's own catalog.
        choices=[("", _("Follow my browser"))]
        + [(code, get_language_info(code)["name_translated"]) for code, _name in settings.LANGUAGES],
    )

    class Meta:
        model = User
        fields = ("display_name", "preferred_language", "email_on_your_move", "one_tap", "auto_take", "sounds")
        help_texts = {"display_name": _("Shown at tables instead of your username. Leave empty to use your username.")}

    TABLE_FIELDS = ("one_tap", "auto_take", "sounds")  # accounts.preferences: how the table page plays

    def clean_display_name(self) -> str:
        return names.clean_display_name(self.cleaned_data["display_name"], user=self.instance)

    def account_fields(self):
        return [field for field in self if field.name not in self.TABLE_FIELDS]

    def table_fields(self):
        return [self[name] for name in self.TABLE_FIELDS]


class ApiTokenForm(forms.ModelForm):
    class Meta:
        model = ApiToken
        fields = ("name",)
        help_texts = {"name": _("What the token is for, e.g. “my bot” or “laptop script”.")}
