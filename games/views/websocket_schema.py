"""The websockets' AsyncAPI document (games/asyncapi.py), at /api/websocket.json."""

import orjson
from django.http import HttpResponse
from django.urls import path
from django.views.decorators.http import require_safe

from ..asyncapi import document


@require_safe
def websocket_schema(request):
    """Anyone may read it; its server is the host that was asked."""
    found = document(host=request.get_host(), secure=request.is_secure())
    return HttpResponse(orjson.dumps(found, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS),
                        content_type="application/json")


urlpatterns = [
    path("api/websocket.json", websocket_schema, name="api_websocket_schema"),
]
