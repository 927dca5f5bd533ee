"""The visitor's address, as every per-address limit counts it.

One answer for the log-in lock-out (django-axes), allauth's limits, the
bad-token throttle and the lobby's cap, over HTTP and websockets alike:
allauth's, which behind `BEHIND_PROXY` takes the address the nearest of
`PROXY_COUNT` proxies appended to X-Forwarded-For (never what the visitor
wrote there) and otherwise the peer's address. django-ipware, which axes
uses by default, wants the proxies' own addresses in the header as well:
behind one nginx it found no address at all, so every visitor shared one.
"""

from __future__ import annotations

from allauth.account.adapter import get_adapter
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

UNKNOWN = "unknown"


def request_address(request) -> str | None:
    """None when the request has no address (axes stores addresses in an inet column)."""
    if not settings.BEHIND_PROXY:
        return request.META.get("REMOTE_ADDR") or None
    try:
        return get_adapter(request).get_client_ip(request)
    except PermissionDenied:  # allauth's word for "no address at all"
        return None


def scope_address(scope) -> str:
    """A websocket's address: its handshake read as the same request would be."""
    request = HttpRequest()
    request.META = {"REMOTE_ADDR": str((scope.get("client") or ("",))[0])}
    for name, value in scope.get("headers", []):
        key = "HTTP_" + name.decode("latin1").upper().replace("-", "_")
        value = value.decode("latin1")
        # Repeated headers joined as Django joins them.
        request.META[key] = f"{request.META[key]},{value}" if key in request.META else value
    return request_address(request) or UNKNOWN
