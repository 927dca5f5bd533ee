"""The site's cache on Redis, with allauth's counts kept in this process's
memory while Redis cannot be reached.

allauth counts its limits (log-ins, sign-ups, password resets, e-mail
confirmations) and marks each TOTP code as taken in the cache, and answers
500 when the cache raises: with Redis away nobody could log in, sign up or
reset a password. For those keys alone (septica_site/allauth_private.py),
a connection error falls back to a per-process memory cache: a limit still
counts, per server process, and a code is still taken once in each
process; a count that cannot be made at all lets the request through. Every
other cache user sees Redis's errors as before, and decides for itself what
an unreachable Redis means (presence, claims, the bots' slots: see theirs).

After a failure the fallback is used without asking Redis for a few
seconds, so a Redis that hangs (rather than refuses) costs one timeout per
few seconds and process, not one per call; the outage is logged when it
starts and when it ends, once each.
"""

from __future__ import annotations

import logging
import threading
import time

import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

from .allauth_private import KEYS_KEPT_IN_MEMORY_WHILE_REDIS_IS_AWAY

logger = logging.getLogger(__name__)

UNREACHABLE = (redis.RedisError, OSError)
RETRY_AFTER_SECONDS = 5.0

# One per process (LocMemCache instances of one name share their store).
memory = LocMemCache("septica-while-redis-is-away", {"OPTIONS": {"MAX_ENTRIES": 10_000}})


class _Outage:
    """Whether Redis is away, for this process: since when, and when to ask it again."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.away = False
        self.retry_at = 0.0

    def skip_redis(self) -> bool:
        return self.away and time.monotonic() < self.retry_at

    def failed(self, error: BaseException) -> None:
        with self._lock:
            if not self.away:
                logger.warning("Redis is unreachable; allauth's limits count in this process's memory: %r", error)
            self.away = True
            self.retry_at = time.monotonic() + RETRY_AFTER_SECONDS

    def forget(self) -> None:
        """As if Redis had never been away (for tests that stop a Redis of their own)."""
        with self._lock:
            self.away = False
            self.retry_at = 0.0

    def answered(self) -> None:
        if self.away:
            with self._lock:
                if self.away:
                    logger.warning("Redis answers again; allauth's limits count in Redis")
                self.away = False


outage = _Outage()


def _kept_in_memory(key) -> bool:
    return isinstance(key, str) and key.startswith(KEYS_KEPT_IN_MEMORY_WHILE_REDIS_IS_AWAY)


class FallbackRedisCache(RedisCache):
    """Django's RedisCache; allauth's keys fall back to memory while Redis is away (see above)."""

    def _either(self, key, on_redis, in_memory):
        if not _kept_in_memory(key):
            return on_redis()
        if outage.skip_redis():
            return in_memory()
        try:
            answer = on_redis()
        except UNREACHABLE as error:
            outage.failed(error)
            return in_memory()
        outage.answered()
        return answer

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either(key, lambda: super(FallbackRedisCache, self).add(key, value, timeout, version),
                            lambda: memory.add(key, value, timeout, version))

    def get(self, key, default=None, version=None):
        return self._either(key, lambda: super(FallbackRedisCache, self).get(key, default, version),
                            lambda: memory.get(key, default, version))

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either(key, lambda: super(FallbackRedisCache, self).set(key, value, timeout, version),
                            lambda: memory.set(key, value, timeout, version))

    def delete(self, key, version=None):
        if _kept_in_memory(key):
            # Also from memory, so that a lock taken there while Redis was away
            # is not left to block the next outage's first count.
            memory.delete(key, version)
        return self._either(key, lambda: super(FallbackRedisCache, self).delete(key, version), lambda: True)

    def clear(self):
        memory.clear()
        return super().clear()
