"""Which language to answer in where Django's LocaleMiddleware does not run.

A websocket has no request, but the same things decide its language as a
page's: the language menu's cookie, then the profile's preferred language,
then the browser's Accept-Language. So a list or a table drawn again from a
socket reads in the language the page was drawn in. A script with an API
token gets what its handshake asks for, English by default, as over HTTP.
"""

from __future__ import annotations

from http.cookies import SimpleCookie

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

from accounts.ws_auth import bearer_secret


def language_for_scope(scope) -> str:
    """The language code for a websocket's `scope` (after the auth middleware set its user)."""
    headers = {name.decode("latin1").lower(): value.decode("latin1") for name, value in scope.get("headers", [])}
    cookies = scope.get("cookies") or _cookies(headers.get("cookie", ""))
    request = HttpRequest()
    request.COOKIES = cookies
    request.META["HTTP_ACCEPT_LANGUAGE"] = headers.get("accept-language", "")
    chosen = cookies.get(settings.LANGUAGE_COOKIE_NAME)
    user = scope.get("user")
    browser = user is not None and user.is_authenticated and bearer_secret(scope) is None  # not a script's token
    preferred = getattr(user, "preferred_language", "") if browser else ""
    if preferred and not _supported(chosen):
        return translation.get_supported_language_variant(preferred)
    return translation.get_language_from_request(request)


def _supported(code: str | None) -> bool:
    if not code:
        return False
    try:
        translation.get_supported_language_variant(code)
    except LookupError:
        return False
    return True


def _cookies(header: str) -> dict[str, str]:
    jar = SimpleCookie()
    try:
        jar.load(header)
    except Exception:  # a malformed Cookie header is ignored, as Django does for pages
        return {}
    return {name: morsel.value for name, morsel in jar.items()}
