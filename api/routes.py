"""The site's NinjaAPI, its routers mounted, and the OpenAPI document it makes."""

from __future__ import annotations

import json
from functools import lru_cache

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from django.urls import get_script_prefix
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from ninja import Schema
from pydantic import ConfigDict

from games.json_bodies import MAX_BODY_BYTES
from septica_site.client_json import MAX_DEPTH

from .operations import account, notify, people, tables
from .site import PUBLIC, SiteApi, SiteRouter

DESCRIPTION = f"""\
The JSON API of the site: everything its pages do, for your scripts and bots. /api/docs/ explains it in prose.

Authenticate with a personal token (`Authorization: Bearer <token>`) or, from the site's pages, with the log-in \
session, whose POST and DELETE requests carry the CSRF header. Request bodies are JSON objects of at most \
{MAX_BODY_BYTES} bytes, nested at most {MAX_DEPTH} levels deep, whose strings and keys never hold the NUL character \
(\\u0000): a body that breaks these is refused with a 400. Every answer is JSON, a refusal `{{"error": "a sentence", "code": "a_stable_name", ...}}` \
with its HTTP status. The sentence is in English unless the request asks for Romanian (`Accept-Language: ro`); \
keys, codes and statuses never change with the language. Answers may gain keys over time: ignore the ones you do \
not know.
"""
TAGS = [
    {"name": "Tables", "description": "The lobby, new tables, seats and My matches."},
    {"name": "Playing", "description": "Moves, resigning, aborting, rematches."},
    {"name": "Chat", "description": "A table's chat: the players' room, and the spectators' at public tables."},
    {"name": "You", "description": "Your account and preferences."},
    {"name": "People", "description": "Profiles, leaderboards, following and blocking."},
    {"name": "Challenges", "description": "Challenging people to a table, and answering."},
    {"name": "Notifications", "description": "Notifications and web push."},
    {"name": "Documents", "description": "This document."},
]

site_api = SiteApi(title="Septica", version="1", description=DESCRIPTION, openapi_url=None, docs_url=None,
                   urls_namespace="api", openapi_extra={"tags": TAGS})


class OpenApiDocument(Schema):
    model_config = ConfigDict(extra="allow")

    openapi: str
    info: dict
    paths: dict
    components: dict


documents = SiteRouter()


@documents.operation("GET", "/openapi.json", name="api_openapi", summary=_("This document: the API in OpenAPI 3.1"),
                     access=PUBLIC, tags=["Documents"], ok={200: OpenApiDocument}, head=True)
def openapi(request):
    return HttpResponse(document_json(get_script_prefix()), content_type="application/json")


for router in (tables.router, people.router, account.router, notify.router, documents):
    site_api.add_router("", router)


@lru_cache(maxsize=4)
def document(prefix: str = "/") -> dict:
    """The OpenAPI document for the site under this script prefix; summaries are lazy, in the active language."""
    found = site_api.get_openapi_schema()
    found["servers"] = [{"url": prefix.rstrip("/") or "/"}]
    return dict(found)


@lru_cache(maxsize=4)
def document_json(prefix: str = "/") -> bytes:
    """The document as served: in English, like the rest of the API's keys and codes."""
    with translation.override("en"):
        return json.dumps(document(prefix), cls=DjangoJSONEncoder, ensure_ascii=False).encode()
