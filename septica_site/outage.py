"""A request the database could not answer gets 503 and "try again in a moment", not a 500.

Django wraps every middleware and the view so that an exception raised in
any of them becomes the 500 handler's answer right there: the database is
read by the token and session middleware before any view runs, so the 500
handler (ROOT_URLCONF's `handler500`) is the one place that sees them all.
It tells an unreachable or timed-out database (OperationalError,
InterfaceError: the connection refused, dropped, or not had from the pool in
time) from a fault in the code, which stays a 500. Nothing here touches the
database: the page is the standalone 500 page, whose words fit.
"""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext
from django.views import defaults

from .api_errors import is_api

RETRY_AFTER_SECONDS = 5
# The 500 page's own sentence (templates/500.html), so the API says what the page says, in the same words.
TRY_AGAIN = ("The server could not answer this time. Your games are safe: every move is stored as it is made. "
             "Try again in a moment.")


def database_unreachable(error: BaseException | None) -> bool:
    """Whether `error`, or an error it was raised from, is the database not answering."""
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, OperationalError | InterfaceError):
            return True
        error, seen = error.__cause__ or error.__context__, seen + 1
    return False


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: 503 when the database could not be reached, else Django's own 500 page."""
    if not database_unreachable(sys.exc_info()[1]):
        return defaults.server_error(request)
    if is_api(request):
        response: HttpResponse = JsonResponse({"error": gettext(TRY_AGAIN), "code": "database_unavailable"},
                                              status=503)
    else:
        response = HttpResponse(loader.get_template("500.html").render(), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
