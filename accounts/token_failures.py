"""Failed API tokens, counted per address (django-ratelimit).

Only failures count: the token is looked up first, so a valid token always
works, whoever else failed from its address. The secrets are 256 random
bits, so the limit guards the database, not them; and when the cache cannot
be reached nothing is refused (logged instead): a cache that is down must
not turn valid tokens away.
"""

from __future__ import annotations

import logging

import redis
from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.core import get_usage

logger = logging.getLogger(__name__)

# What a cache on Redis raises when Redis is down or slow (the settings bound its timeouts).
CACHE_ERRORS = (redis.RedisError, OSError)
BEARER_FAILURE_LIMIT = getattr(settings, "BEARER_FAILURE_LIMIT", 20)
BEARER_FAILURE_WINDOW = getattr(settings, "BEARER_FAILURE_WINDOW_SECONDS", 15 * 60)
REFUSAL = "Too many failed token attempts; try again later."


def count_failure(address: str) -> int | None:
    """Count a failed token from `address`; the seconds to wait when it is past the limit, else None."""
    try:
        usage = get_usage(
            HttpRequest(),  # the address is the key; HTTP and websockets alike
            group="accounts.bearer-failures",
            key=lambda _group, _request: address,
            rate=f"{BEARER_FAILURE_LIMIT}/{BEARER_FAILURE_WINDOW}s",
            increment=True,
        )
    except CACHE_ERRORS as error:
        logger.warning("token failure not counted, the cache is unreachable: %r", error)
        return None
    if usage is None or not usage["should_limit"]:
        return None
    return max(1, usage["time_left"])
