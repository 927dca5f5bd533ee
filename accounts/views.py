from __future__ import annotations

from functools import wraps

from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from .forms import ApiTokenForm, LogInForm, ProfileForm, ResetPasswordForm, SignUpForm
from .models import ApiToken

# The backend that checks passwords; django-axes' backend only watches.
PASSWORD_BACKEND = "django.contrib.auth.backends.ModelBackend"


@sensitive_post_parameters("password1", "password2")
@never_cache
@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = SignUpForm(request.POST or None)
    if form.is_valid():
        user = form.save()
        login(request, user, backend=PASSWORD_BACKEND)
        messages.success(request, _("Welcome, %(name)s! Your account is ready.") % {"name": user.username})
        return redirect(settings.LOGIN_REDIRECT_URL)
    return render(request, "accounts/signup.html", {"form": form})


class LogInView(auth_views.LoginView):
    authentication_form = LogInForm
    redirect_authenticated_user = True


class LogOutView(auth_views.LogoutView):
    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        messages.info(request, _("You have logged out."))
        return response


class PasswordResetView(auth_views.PasswordResetView):
    # The link points at SITE_URL, not at whatever Host the request carried.
    form_class = ResetPasswordForm
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"

    @property
    def extra_email_context(self):
        return {"site_url": settings.SITE_URL}  # read per request, never frozen at import


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    def form_valid(self, form):
        # Following the e-mailed link proves the account is theirs: lift its
        # log-in lockout so the new password works at once.
        axes_reset(username=form.user.get_username())
        return super().form_valid(form)


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
    return render(request, "accounts/profile.html", {"form": form})


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


def session_only(view):
    """Refuse a request made with an API token: a leaked token must not be able
    to mint fresh tokens that outlive its revocation."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if getattr(request, "auth_token", None) is not None:
            return JsonResponse({"error": "Manage API tokens from a logged-in browser."}, status=403)
        return view(request, *args, **kwargs)

    return wrapped


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
