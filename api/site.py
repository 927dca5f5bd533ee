"""The one `NinjaAPI` of the site, and how its operations are declared.

The views authenticate and refuse as they always have: the session and
Django's CSRF check (accounts.middleware lets a Bearer token skip it), their
own `{"error": ...}` answers, septica_site.api_errors for what Django answers
around them. So this API checks nothing itself: no ninja auth (the security
requirements are declared for the document only), no parsed body (each body's
schema goes into the document, and the view reads the body as before, with its
own sentences), and no exception handler but the one that keeps a failed
parameter a 400 in the site's shape. Any other exception goes on to Django.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from ninja import NinjaAPI, Router, Schema
from ninja.errors import ValidationError
from ninja.openapi.schema import REF_TEMPLATE, OpenAPISchema
from ninja.schema import NinjaGenerateJsonSchema

from septica_site.api_errors import SAYINGS

from .schemas.common import Error

BEARER, SESSION, CSRF = "bearer", "session", "csrf"
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


@dataclass(frozen=True)
class Access:
    """Who may call an operation: its OpenAPI security requirements, for safe methods and for the others."""

    anonymous: bool
    signed_in: bool

    def security(self, method: str) -> list[dict]:
        session = {SESSION: [], CSRF: []} if method in UNSAFE else {SESSION: []}
        ways = [{BEARER: []}, session] if self.signed_in else []
        return [{}, *ways] if self.anonymous else ways


PUBLIC = Access(anonymous=True, signed_in=False)  # the same answer for everyone
OPTIONAL = Access(anonymous=True, signed_in=True)  # the answer says more to the person who asks
SIGNED_IN = Access(anonymous=False, signed_in=True)

# What every operation may answer whatever it does, and what the answer means there.
ALWAYS = {
    401: "Not logged in, or the token is unknown or revoked.",
    429: "Too many failed tokens from this address (Retry-After says how long), or too many requests of this kind.",
}
WITH_A_BODY = {
    403: "The CSRF check failed: a session's request without the X-CSRFToken header.",
    413: "The request body is larger than the site reads.",
}
MEANINGS = {
    400: "The request is wrong: bad JSON, a bad option, an illegal move; nothing changed.",
    403: "Not yours: no seat at this table, not your turn, not allowed.",
    404: "No such table, person or challenge (or a private table you may not see).",
    409: "A conflict: the table moved on, the match is over, the table is full or has started.",
}
DEFAULT_ANSWER = {
    "description": "Any other refusal (405 for a method the path does not answer, 500 for a fault in the server).",
    "content": {"application/json": {"schema": {"$ref": REF_TEMPLATE.format(model="Error")}}},
}


class SiteApi(NinjaAPI):
    """A NinjaAPI whose routers' request bodies are documented without being parsed, with the site's
    security schemes, and no exception handler of ninja's (see the module's docstring)."""

    def __init__(self, **options) -> None:
        self.site_routers: list[SiteRouter] = []
        super().__init__(**options)

    def set_default_exception_handlers(self) -> None:
        self.add_exception_handler(ValidationError, malformed)

    def add_router(self, prefix: str, router, **options) -> None:
        if isinstance(router, SiteRouter):  # not ninja's own default router
            self.site_routers.append(router)
        super().add_router(prefix, router, **options)

    def get_openapi_schema(self, *, path_prefix: str | None = None, path_params=None) -> OpenAPISchema:
        document = super().get_openapi_schema(path_prefix="/api/" if path_prefix is None else path_prefix)
        bodies = {model.__name__: model for router in self.site_routers for model in router.bodies}
        for name, model in sorted(bodies.items()):
            found = model.model_json_schema(ref_template=REF_TEMPLATE, schema_generator=NinjaGenerateJsonSchema,
                                            mode="validation")
            document.add_schema_definitions({**found.pop("$defs", {}), name: found})
        document["components"]["securitySchemes"] = security_schemes()
        return document


def malformed(request: HttpRequest, exc: ValidationError) -> JsonResponse:
    """A parameter the schema refuses: the site's 400, never ninja's 422 (the URL converters make it unlikely)."""
    return JsonResponse({"error": SAYINGS[400], "code": "bad_request"}, status=400)


def security_schemes() -> dict:
    csrf_header = settings.CSRF_HEADER_NAME.removeprefix("HTTP_").replace("_", "-")
    csrf_header = "X-CSRFToken" if csrf_header == "X-CSRFTOKEN" else csrf_header  # Django's default, as spelt
    return {
        BEARER: {
            "type": "http", "scheme": "bearer",
            "description": f"A personal API token, sent as `Authorization: Bearer <token>`. Make one, logged in, on "
                           f"{reverse('api_tokens')} (an HTML page, not part of this API); it acts as you under "
                           f"/api/ and on the websockets only, needs no CSRF token, and can be revoked there at any "
                           f"time. GET /api/me says whether a token works. Only failed tokens count against an "
                           f"address (429 after too many).",
        },
        SESSION: {
            "type": "apiKey", "in": "cookie", "name": settings.SESSION_COOKIE_NAME,
            "description": f"The log-in session of the site's pages ({reverse('account_login')}).",
        },
        CSRF: {
            "type": "apiKey", "in": "header", "name": csrf_header,
            "description": f"With the session, every POST and DELETE sends the value of the "
                         f"{settings.CSRF_COOKIE_NAME} cookie in this header, as Django checks; without it the "
                         f"answer is a 403 saying so. A Bearer token needs none.",
        },
    }


# The vendor extension of a 400 answer that lists the codes of its refusals of a well-formed request.
RULE_CODES = "x-rule-codes"


def answers(method: str, success: dict[int, type[Schema]], refusals: Iterable[int],
            rule_codes: Iterable[str] = ()) -> tuple[dict, dict]:
    """The `response` of an operation (its models by status) and the descriptions of its refusals."""
    meanings = {**{status: MEANINGS.get(status) for status in refusals}, **ALWAYS}
    rule_codes = sorted(rule_codes)
    if rule_codes:
        listed = ", ".join(f"`{code}`" for code in rule_codes)
        meanings[400] = (f"{meanings.get(400) or MEANINGS[400]} A request that fits this document may still be "
                         f"refused by the rules, with one of these codes: {listed}.")
    if method in UNSAFE:
        for status, meaning in WITH_A_BODY.items():
            meanings[status] = f"{meanings[status]} Or {meaning[0].lower()}{meaning[1:]}" if meanings.get(status) else meaning
    models = {**success, **dict.fromkeys(sorted(meanings), Error)}
    described = {status: {"description": meaning} for status, meaning in meanings.items() if meaning}
    if rule_codes:
        described[400][RULE_CODES] = rule_codes
    if method == "HEAD":  # the GET's statuses and headers, never a body
        return dict.fromkeys(models), {**described, "default": {"description": DEFAULT_ANSWER["description"]}}
    return models, {**described, "default": DEFAULT_ANSWER}


class SiteRouter(Router):
    """A router of the site's operations, each declared with `operation`."""

    def __init__(self, **options) -> None:
        super().__init__(**options)
        self.bodies: set[type[Schema]] = set()

    def operation(self, method: str, path: str, *, name: str, summary, access: Access, tags: list[str],
                  ok: dict[int, type[Schema]], refusals: Iterable[int] = (), rule_codes: Iterable[str] = (),
                  body: type[Schema] | None = None, query: Iterable[dict] = (), description: str = "",
                  head: bool = False) -> Callable:
        """Declare one operation (and a HEAD beside a GET, when `head`): `name` is its URL name, `ok` its
        answers by status, `refusals` the statuses it refuses with, `rule_codes` the codes of the 400s that
        the rules give a request fitting the document, `body` the JSON body the view reads (documented, never
        parsed here), `query` its query parameters."""
        rule_codes = tuple(rule_codes)

        def add(view: Callable, verb: str, operation_id: str) -> None:
            models, described = answers(verb, ok, refusals, rule_codes)
            extra = {"security": access.security(verb), "responses": described}
            if query:
                extra["parameters"] = list(query)
            if body is not None and verb != "HEAD":
                self.bodies.add(body)
                # A body whose schema asks for one of several fields (oneOf) cannot be left out either.
                one_of = "oneOf" in (body.model_config.get("json_schema_extra") or {})
                required = one_of or any(field.is_required() for field in body.model_fields.values())
                extra["requestBody"] = {"required": required, "content": {
                    "application/json": {"schema": {"$ref": REF_TEMPLATE.format(model=body.__name__)}}}}
            self.api_operation([verb], path, url_name=name, summary=summary, description=description, tags=tags,
                               response=models, operation_id=operation_id, openapi_extra=extra)(view)

        def declare(view: Callable) -> Callable:
            add(view, method, view.__name__)
            if head:
                add(view, "HEAD", f"{view.__name__}_head")
            return view

        return declare


def query_parameter(name: str, description: str) -> dict:
    return {"in": "query", "name": name, "required": False, "schema": {"type": "string"}, "description": description}


INVITE = query_parameter("invite", "A private table's invite code, for someone who has no seat there.")
