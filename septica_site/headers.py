"""Security headers on the site's answers.

`ContentSecurityPolicyMiddleware` is django-csp's middleware (the policy is
CONTENT_SECURITY_POLICY in settings) plus this host's websocket origin in
connect-src: CSP 3 lets 'self' match ws:/wss: of the same host, but browsers
older than that rule need the origin named.

`NoStoreMiddleware` keeps hands out of browser and proxy caches (see its
docstring for which answers and why).
"""

from __future__ import annotations

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost
from django.utils.cache import add_never_cache_headers

# HTML and JSON outside /api/ that show a hand: the table page (the player's
# own), the tutorial (the learner's) and the replay (everyone's, once over).
PAGES_WITH_A_HAND = frozenset({"table", "table_invite", "replay", "replay_json", "tutorial_step", "tutorial_move"})
# The same whoever asks (the favicon is cached a week; the service worker and
# the manifest set no-cache themselves, so browsers check them on each visit).
SAME_FOR_EVERYONE = frozenset({"favicon", "service_worker", "web_manifest"})


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    def get_policy_parts(self, request, response, report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        if report_only:
            return parts  # the site sets no report-only policy
        try:
            host = request.get_host()
        except DisallowedHost:
            return parts  # answered with a 400 already; no socket will be opened from it
        websocket = f"{'wss' if request.is_secure() else 'ws'}://{host}"
        parts.update = {**(parts.update or {}), "connect-src": [websocket]}
        return parts


class NoStoreMiddleware:
    """`Cache-Control: no-store` (with Django's other never-cache headers) on:

    - every /api/ answer: each is one person's view (hands, their tables,
      their tokens) and none is worth caching, errors included;
    - the pages holding a hand by URL name, whoever asks (the tutorial and
      the replay are open to visitors);
    - every answer to a signed-in person: each names them and most are theirs
      alone (profile, tokens, My matches), so after they log out on a shared
      computer the back button or a proxy must not show them again.

    Static files never reach it (WhiteNoise answers them earlier), nor does
    /favicon.ico, the same for everyone; visitors' public pages (rules,
    lobby, home) stay cacheable.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if self.holds_private_data(request):
            add_never_cache_headers(response)
        return response

    @staticmethod
    def holds_private_data(request) -> bool:
        if request.path_info.startswith("/api/"):
            return True
        match = getattr(request, "resolver_match", None)
        if match is not None and match.url_name in PAGES_WITH_A_HAND:
            return True
        if match is not None and match.url_name in SAME_FOR_EVERYONE:
            return False
        user = getattr(request, "user", None)
        return bool(user is not None and user.is_authenticated)
