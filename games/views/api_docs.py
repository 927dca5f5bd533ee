"""The JSON API's documentation page, at /api/docs/."""

from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_safe

from ..actions import MAX_SECONDS_PER_MOVE, MIN_SECONDS_PER_MOVE
from ..json_bodies import MAX_BODY_BYTES, MAX_DEPTH


@require_safe
def api_docs(request):
    return render(
        request,
        "games/api_docs.html",
        {
            "site": request.build_absolute_uri("/").rstrip("/"),
            "max_body_bytes": MAX_BODY_BYTES,
            "max_json_depth": MAX_DEPTH,
            "min_seconds": MIN_SECONDS_PER_MOVE,
            "max_seconds": MAX_SECONDS_PER_MOVE,
        },
    )


urlpatterns = [
    path("api/docs/", api_docs, name="api_docs"),
]
