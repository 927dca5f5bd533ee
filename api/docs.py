"""The JSON API's documentation page, at /api/docs/: the prose of templates/games/api_docs.html,
and every operation of the OpenAPI document, listed from it."""

from __future__ import annotations

from django.shortcuts import render
from django.urls import get_script_prefix, reverse
from django.views.decorators.http import require_safe

from games.actions import MAX_SECONDS_PER_MOVE, MIN_SECONDS_PER_MOVE
from games.json_bodies import MAX_BODY_BYTES
from septica_site.client_json import MAX_DEPTH

from .routes import document

METHODS = ("get", "head", "post", "put", "patch", "delete")


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
            "openapi_url": reverse("api_openapi"),
            "websocket_schema_url": reverse("api_websocket_schema"),
            "operations": operations(document(get_script_prefix())),
        },
    )


def operations(found: dict) -> list[dict]:
    """Each operation of the document, in its order: method, path and summary (in the page's language)."""
    return [{"method": method.upper(), "path": address, "summary": operation["summary"]}
            for address, item in found["paths"].items()
            for method, operation in item.items() if method in METHODS]
