"""JSON endpoints about the account itself. API clients call ``/api/me`` to
check that their token works and to learn who they are."""

from django.http import JsonResponse
from django.views.decorators.http import require_safe

from .middleware import unauthorized


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
