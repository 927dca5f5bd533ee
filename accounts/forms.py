from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.utils.translation import get_language_info
from django.utils.translation import gettext_lazy as _

from . import names
from .models import ApiToken

User = get_user_model()


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=254,
        help_text=_("For resetting your password. Never shown to other players."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].validators.extend(names.username_validators)

    def clean_email(self) -> str:
        email = User.objects.normalize_email(self.cleaned_data["email"])
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                _("An account with this e-mail address already exists. Forgot your password? Reset it."),
                code="unique",
            )
        return email


class LogInForm(AuthenticationForm):
    """Django's log-in form, also taking the account's e-mail address.

    The typed name is resolved to the account's username *before*
    ``authenticate()``, so django-axes counts failures against the account
    whichever way it was typed.
    """

    # Django's words, in the site's catalog: its own Romanian is formal and written with cedillas.
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _(
            "Please enter a correct %(username)s and password. Note that both fields may be case-sensitive."
        ),
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].label = _("Username or e-mail")
        self.fields["username"].max_length = 254
        self.fields["username"].widget.attrs["maxlength"] = 254

    def clean_username(self) -> str:
        typed = self.cleaned_data["username"].strip()
        return resolve_username(typed) or typed


def resolve_username(typed: str) -> str | None:
    users = User.objects.filter(username__iexact=typed)
    if "@" in typed:
        users = users | User.objects.filter(email__iexact=typed)
    names = list(users.values_list("username", flat=True)[:2])
    return names[0] if len(names) == 1 else None


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
        fields = ("display_name", "preferred_language", "email_on_your_move")
        help_texts = {"display_name": _("Shown at tables instead of your username. Leave empty to use your username.")}

    def clean_display_name(self) -> str:
        return names.clean_display_name(self.cleaned_data["display_name"], user=self.instance)


class ApiTokenForm(forms.ModelForm):
    class Meta:
        model = ApiToken
        fields = ("name",)
        help_texts = {"name": _("What the token is for, e.g. “my bot” or “laptop script”.")}


class ResetPasswordForm(PasswordResetForm):
    """Django's form, its field named as the sign-up form names it (and translated with it)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].label = _("E-mail address")
