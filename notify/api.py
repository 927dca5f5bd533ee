"""The notifications' and web push's JSON API, under /api/ (routed and described by api/,
api.operations.notify; documented at /api/docs/).

Session requests carry Django's CSRF token; scripts send
`Authorization: Bearer <token>` (accounts.middleware handles both).
"""

from __future__ import annotations

from functools import wraps

from django.http import JsonResponse
from django.views.decorators.http import require_http_methods, require_safe

from septica_site import client_json
from septica_site.api_errors import error

from . import push, reads, subscriptions


def login_required_json(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return error(401, "Log in, or send Authorization: Bearer <token>.", code="not_logged_in")
        return view(request, *args, **kwargs)

    return wrapper


def json_body(request) -> object:
    """The body's JSON value; None for what is not JSON or what no field takes, which each view refuses."""
    try:
        return client_json.parse(request.body or b"{}")
    except ValueError:  # client_json.Unreadable and UnicodeDecodeError are ones too
        return None


@require_safe
def key(request):
    return JsonResponse({"public_key": push.public_key()})


@require_http_methods(["POST", "DELETE"])
@login_required_json
def push_subscriptions(request):
    body = json_body(request)
    try:
        if request.method == "DELETE":
            return JsonResponse({"deleted": subscriptions.unsubscribe(request.user, body)})
        subscription = subscriptions.subscribe(request.user, body, request.headers.get("User-Agent", ""))
    except subscriptions.BadSubscription as refusal:
        return error(400, refusal.message, code=refusal.code)
    return JsonResponse({"id": subscription.pk, "created_at": subscription.created_at.isoformat()}, status=201)


@require_safe
@login_required_json
def notifications(request):
    return JsonResponse({"unread": reads.unread_count(request.user),
                         "notifications": [reads.notification_json(n) for n in reads.latest(request.user)]})


@require_http_methods(["POST"])
@login_required_json
def read(request):
    body = json_body(request)
    ids = body.get("ids") if isinstance(body, dict) else None
    if not isinstance(body, dict) or ("ids" in body and not (  # null is no list: left out means all
            isinstance(ids, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in ids))):
        return error(400, 'Send {"ids": [notification ids]}, or {} for all of them.', code="bad_request")
    marked = reads.mark_read(request.user, ids)
    return JsonResponse({"marked": marked, "unread": reads.unread_count(request.user)})
