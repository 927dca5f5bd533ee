"""JSON endpoints about the account itself. API clients call ``/api/me`` to
check that their token works and to learn who they are; the table page
saves its preferences through ``/api/me/preferences``."""

from django.http import JsonResponse
from django.views.decorators.http import require_http_methods, require_safe

from games.errors import ServiceError
from games.json_bodies import read_json

from .middleware import unauthorized
from .preferences import save_preferences, table_preferences


@require_safe
def me(request):
    user = request.user
    if not user.is_authenticated:
        return unauthorized("Log in, or send Authorization: Bearer <token>.")
    return JsonResponse(
        {
            "id": user.pk,
            "username": user.username,
            "display_name": user.display_name,
            "preferred_language": user.preferred_language,
        }
    )


@require_http_methods(["GET", "HEAD", "POST"])
def preferences(request):
    if not request.user.is_authenticated:
        return unauthorized("Log in, or send Authorization: Bearer <token>.", code="not_logged_in")
    if request.method != "POST":
        return JsonResponse({"preferences": table_preferences(request.user)})
    try:
        saved = save_preferences(request.user, read_json(request))
    except ServiceError as refusal:
        code = refusal.extra.get("code", "bad_body" if refusal.status == 400 else "body_too_large")
        return JsonResponse({"error": refusal.message, **refusal.extra, "code": code}, status=refusal.status)
    return JsonResponse({"preferences": saved})
