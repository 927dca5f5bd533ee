"""Every answer under /api/ is JSON, whoever gives it.

The API's views answer their own refusals (games/api.py). What Django answers
around them would be an HTML page a script cannot read: a CSRF failure, a body
over DATA_UPLOAD_MAX_MEMORY_SIZE, an unknown address, the wrong method, a fault
in the server. Here those become `{"error": ...}` with the same status (413 for
the body), as /api/docs/ lists them; pages elsewhere keep Django's HTML.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import csrf

API_PREFIX = "/api/"
KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate")

SAYINGS = {
    400: "The request is malformed.",
    403: "This request is not allowed.",
    404: "There is no such address in the API: see /api/docs/.",
    500: "The server failed to answer; the fault is logged. Try again later.",
}


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def error(status: int, message: str, **extra) -> JsonResponse:
    return JsonResponse({"error": message, **extra}, status=status)


def is_json(response: HttpResponse) -> bool:
    return response.get("Content-Type", "").split(";")[0].strip() == "application/json"


def too_large(request: HttpRequest) -> bool:
    """Whether Django will refuse to read this body (it goes by Content-Length alone)."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return limit is not None and length > limit


class ApiErrorsMiddleware:
    """High in MIDDLEWARE, so it also sees the answers of every middleware below it (CSRF's among them)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not is_api(request):
            return self.get_response(request)
        if too_large(request):
            # Before the CSRF check reads a form body and Django answers 400 in HTML.
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            return error(413, f"The request body is larger than the {limit} bytes the site reads.")
        response = self.get_response(request)
        if response.status_code < 400 or is_json(response):
            return response
        return as_json(request, response)


def as_json(request: HttpRequest, response: HttpResponse) -> JsonResponse:
    status = response.status_code
    if status == 405:
        message = f"{request.method} is not answered here; this address answers {response.get('Allow', 'nothing')}."
    else:
        message = SAYINGS.get(status) or f"The request was refused ({status} {response.reason_phrase})."
    answer = error(status, message)
    for header in KEPT_HEADERS:
        if header in response:
            answer[header] = response[header]
    return answer


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: JSON that says what to send under /api/, Django's page elsewhere."""
    if not is_api(request):
        return csrf.csrf_failure(request, reason)
    return error(
        403,
        "The CSRF check failed: a request from the site's pages sends the csrftoken cookie's value in the "
        "X-CSRFToken header; a script sends Authorization: Bearer <token> instead.",
    )
