"""Who is asking, and in which language to answer.

``BearerTokenMiddleware`` lets scripts authenticate with a personal API token
instead of a session; ``PreferredLanguageMiddleware`` applies the language a
player chose in their profile.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.http import JsonResponse
from django.utils import translation
from django.utils.translation import gettext

from septica_site.client_address import UNKNOWN, request_address

from . import token_failures
from .models import ApiToken
from .token_read import active_token

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"


def unauthorized(message: str, status: int = 401, **extra) -> JsonResponse:
    response = JsonResponse({"error": message, **extra}, status=status)
    response["WWW-Authenticate"] = 'Bearer realm="septica"'
    return response


class BearerTokenMiddleware:
    """A bearer token authenticates the JSON API only: a form or page reached
    with one is refused, so a token never stands in for a session's CSRF check."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        header = request.headers.get("Authorization")
        if header is None:
            return self.get_response(request)
        scheme, _, secret = header.partition(" ")
        on_api = request.path_info.startswith(API_PREFIX)
        if scheme.lower() != "bearer" and not on_api:
            return self.get_response(request)  # e.g. Basic auth in front of the site
        if not on_api:
            return unauthorized(gettext("API tokens work only under /api/; log in to use the site's pages."), status=403)
        # The token is looked up first, so a valid one always works: only failures are throttled.
        token = _find_token(scheme, secret.strip())
        if token is None:
            wait = token_failures.count_failure(request_address(request) or UNKNOWN)
            if wait is not None:
                response = unauthorized(token_failures.REFUSAL, status=429)
                response["Retry-After"] = str(wait)
                return response
            return unauthorized(_refusal(scheme, secret))
        token.note_use()
        request.auth_token = token
        request.user = token.user
        request.auser = _async_user(token.user)
        # A script has no CSRF cookie to send; the token itself proves intent.
        request._dont_enforce_csrf_checks = True
        return self.get_response(request)


def _find_token(scheme: str, secret: str) -> ApiToken | None:
    if scheme.lower() != "bearer" or not secret or " " in secret:
        return None
    token = active_token(secret)
    if token is None or not token.user.is_active:
        return None
    return token


def _refusal(scheme: str, secret: str) -> str:
    if scheme.lower() != "bearer":
        return "Send Authorization: Bearer <token>."
    if not secret.strip():
        return "The Authorization header has no token after Bearer."
    return "The token is unknown or revoked."


def _async_user(user):
    async def auser():
        return user

    return auser


# Set once a request arrives with X-Forwarded-For while BEHIND_PROXY is off:
# then every visitor may share the proxy's address, and /healthz says so to staff.
forwarded_without_proxy = threading.Event()
PROXY_WARNING = (
    "Requests arrive with X-Forwarded-For but BEHIND_PROXY is off: every visitor is counted "
    "at the proxy's address (log-in lock-out, token throttle). Set BEHIND_PROXY=1 behind a proxy."
)


class ForwardedForWarningMiddleware:
    """Logs once a process that a proxy seems to be in front while BEHIND_PROXY is off."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            "HTTP_X_FORWARDED_FOR" in request.META
            and not settings.BEHIND_PROXY
            and not forwarded_without_proxy.is_set()
        ):
            forwarded_without_proxy.set()
            logger.warning(PROXY_WARNING)
        return self.get_response(request)


class PreferredLanguageMiddleware:
    """The profile's language beats the browser's Accept-Language; an explicit
    choice in the language menu (its cookie) beats both. Saving the profile
    writes that cookie too, so the latest choice wins. Scripts with an API
    token get only what their own request asks for."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # A script with an API token reads the language it asks for (English
        # unless its Accept-Language says otherwise), whatever its owner's profile.
        if settings.LANGUAGE_COOKIE_NAME not in request.COOKIES and getattr(request, "auth_token", None) is None:
            language = getattr(request.user, "preferred_language", "")
            if language and request.user.is_authenticated:
                translation.activate(language)
                request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)
