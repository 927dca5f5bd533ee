"""What the site knows of django-allauth's insides, here alone: the cache keys
under which it counts its limits and marks TOTP codes as taken.

No name of allauth is used, only the shape of the keys it writes, so that
the site's cache (septica_site/cache.py) can keep those few in memory while
Redis is away. allauth is pinned (requirements.txt);
tests/site/test_allauth_private.py fails when an upgrade changes the keys.
"""

from __future__ import annotations

# allauth.core.internal.ratelimit: "allauth:rl:<app>:<action>:<rate>:<source>",
# and the same with ":lock" for the moment a count is being changed.
RATE_LIMIT_KEYS = "allauth:rl:"
# allauth.mfa.totp.internal.auth: a TOTP code taken once, for one TOTP period.
USED_TOTP_CODE_KEYS = "allauth.mfa.totp.used?"

KEYS_KEPT_IN_MEMORY_WHILE_REDIS_IS_AWAY = (RATE_LIMIT_KEYS, USED_TOTP_CODE_KEYS)
