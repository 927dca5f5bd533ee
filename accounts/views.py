from __future__ import annotations

from functools import wraps
from urllib.parse import quote

from allauth.account import views as allauth_views
from allauth.account.forms import default_token_generator as allauth_token_generator
from allauth.account.utils import has_verified_email, user_pk_to_url_str
from allauth.mfa.utils import is_mfa_enabled
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ObjectDoesNotExist
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import urlsafe_base64_decode
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from notify.forms import NotificationChoicesForm

from .forms import ApiTokenForm, ProfileForm
from .models import ApiToken
from .second_factor import SECOND_FACTORS


def session_only(view):
    """Refuse a request made with an API token: a leaked token must not be able
    to mint fresh tokens that outlive its revocation, nor reach an HTML form
    (the password change, the profile)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if getattr(request, "auth_token", None) is not None:
            return JsonResponse({"error": "Log in with a browser for this page; API tokens open only /api/."},
                                status=403)
        return view(request, *args, **kwargs)

    return wrapped


# Log-out only by POST (a link or an image must not log anyone out).
logout = require_POST(allauth_views.logout)
password_change = session_only(allauth_views.password_change)


@login_required
def password_change_done(request):
    return render(request, "account/password_change_done.html")


@never_cache
def legacy_password_reset_link(request, uidb64: str, token: str):
    """A reset link mailed before the move to allauth (Django's uidb64/token):
    still good while Django's token is, sent on to allauth's own link."""
    user = _user_from_uidb64(uidb64)
    if user is None or not default_token_generator.check_token(user, token):
        return render(request, "account/password_reset_from_key.html", {"token_fail": True})
    key = f"{user_pk_to_url_str(user)}-{allauth_token_generator.make_token(user)}"
    path = reverse("account_reset_password_from_key", kwargs={"uidb36": "UID", "key": "KEY"})
    return redirect(path.replace("UID-KEY", quote(key)))


def _user_from_uidb64(uidb64: str):
    try:
        pk = urlsafe_base64_decode(uidb64).decode()
        return get_user_model()._default_manager.get(pk=pk, is_active=True)
    except (TypeError, ValueError, OverflowError, UnicodeDecodeError, ObjectDoesNotExist):
        return None


def too_many_requests(request, exception=None):
    """allauth's limits (septica_site.urls names this handler429): said on a page, with 429."""
    return render(request, "account/429.html", status=429)


@session_only
@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if form.is_valid():
        user = form.save()
        # Said in the language just chosen: the page it shows on will be in that language.
        with translation.override(user.preferred_language or translation.get_language()):
            messages.success(request, _("Your profile is saved."))
        response = redirect("profile")
        remember_language(response, user.preferred_language)
        return response
    context = {
        "form": form,
        "email_verified": has_verified_email(request.user, request.user.email),
        "second_factor": is_mfa_enabled(request.user, SECOND_FACTORS),
        "notification_choices": NotificationChoicesForm(user=request.user),
    }
    return render(request, "accounts/profile.html", context)


def remember_language(response, language: str) -> None:
    # The cookie is what set_language writes, so the profile choice and the
    # menu's switch stay one setting; empty hands the choice back to the browser.
    if language:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    else:
        response.delete_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )


@never_cache
@session_only
@login_required
@require_http_methods(["GET", "POST"])
def api_tokens(request):
    form = ApiTokenForm(request.POST or None)
    created = secret = None
    if form.is_valid():
        created, secret = ApiToken.issue(request.user, form.cleaned_data["name"])
        form = ApiTokenForm()
    tokens = request.user.api_tokens.all()
    context = {"form": form, "tokens": tokens, "created": created, "secret": secret}
    return render(request, "accounts/api_tokens.html", context)


@session_only
@login_required
@require_http_methods(["GET", "POST"])
def revoke_api_token(request, token_id: int):
    token = get_object_or_404(ApiToken, pk=token_id, user=request.user)
    if request.method == "POST":
        if token.revoke():
            messages.success(request, _("The token “%(name)s” is revoked.") % {"name": token.name})
        else:
            messages.info(request, _("The token “%(name)s” was already revoked.") % {"name": token.name})
        return redirect("api_tokens")
    return render(request, "accounts/revoke_api_token.html", {"token": token})
