"""Websocket authentication by API token, and the origin check around it.

A script connects with `Authorization: Bearer <token>` (or `?token=<token>`
for clients that cannot set headers, such as a browser's WebSocket); the
token's person becomes `scope["user"]`, over any session, and the token's id
`scope["api_token_id"]` (accounts/credentials.py closes the socket when that
token is revoked, and every move checks it still stands). An unknown or
revoked token is not ignored: `scope["auth_error"]` says why, and the
consumer refuses the socket with 4401.

Browsers always send an Origin header with a websocket, so the origin check
is what stops another site from opening a socket with a visitor's session
cookie. A socket without Origin comes from a script: it is let through when
it brings a token, which proves who it is without any cookie.
"""

from __future__ import annotations

from importlib import import_module
from urllib.parse import parse_qs

from channels.auth import AuthMiddleware
from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from channels.security.websocket import AllowedHostsOriginValidator
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.contrib.auth.models import AnonymousUser

from septica_site.client_address import scope_address

from . import token_failures
from .middleware import _find_token

TOKEN_ID_SCOPE_KEY = "api_token_id"


def bearer_secret(scope) -> str | None:
    """The token the socket brings, from the Authorization header or ?token=; None when none."""
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            scheme, _, secret = value.decode("latin1").partition(" ")
            if scheme.lower() == "bearer":
                return secret.strip()
    tokens = parse_qs(scope.get("query_string", b"").decode("latin1")).get("token")
    return tokens[0].strip() if tokens else None


def has_origin(scope) -> bool:
    return any(name == b"origin" for name, _value in scope.get("headers", []))


def session_auth_stack(inner):
    """Channels' AuthMiddlewareStack, except that a socket with no session cookie skips it.

    Without the cookie there is no session to load and the person is
    anonymous; the stack would still make two trips to a thread of its own
    (the session store, then the user) for every such socket, and a storm of
    anonymous lobby connects made hundreds of them on the server's loop."""
    return CookieMiddleware(_SessionOrAnonymous(inner))


class _SessionOrAnonymous:
    def __init__(self, inner):
        self.inner = inner
        self.with_session = SessionMiddleware(AuthMiddleware(inner))
        self.session_store = import_module(settings.SESSION_ENGINE).SessionStore

    async def __call__(self, scope, receive, send):
        if settings.SESSION_COOKIE_NAME in scope.get("cookies", {}):
            return await self.with_session(scope, receive, send)
        scope = dict(scope, session=self.session_store(None), user=AnonymousUser())
        return await self.inner(scope, receive, send)


class BearerTokenAuthMiddleware(BaseMiddleware):
    """Sets scope["user"] from an API token; put it inside AuthMiddlewareStack so it wins."""

    async def __call__(self, scope, receive, send):
        secret = bearer_secret(scope)
        if secret is not None:
            scope = dict(scope)
            token, error = await _token_for(secret, _address(scope))
            if token is not None:
                scope["user"], scope[TOKEN_ID_SCOPE_KEY] = token.user, token.pk
            else:
                scope["auth_error"] = error
        return await super().__call__(scope, receive, send)


def _address(scope) -> str:
    return scope_address(scope)


@database_sync_to_async
def _token_for(secret: str, address: str):
    token = _find_token("bearer", secret)  # first: a valid token always works, only failures are throttled
    if token is None:
        if token_failures.count_failure(address) is not None:
            return None, token_failures.REFUSAL
        return None, "The token is unknown or revoked."
    token.note_use()
    return token, None


class TokenOrOriginValidator:
    """AllowedHostsOriginValidator, except that a script with a token and no Origin passes."""

    def __init__(self, application):
        self.application = application
        self.validated = AllowedHostsOriginValidator(application)

    async def __call__(self, scope, receive, send):
        if not has_origin(scope) and bearer_secret(scope) is not None:
            return await self.application(scope, receive, send)
        return await self.validated(scope, receive, send)
