"""Django's private names that the site uses, all here: they let rows already read answer
`table.seats.all()` without a query, and let a snapshot drop its references back up to its table.

Django is pinned (requirements.txt); tests/site/test_private_names.py fails when an upgrade
changes what these do.
"""

from __future__ import annotations


def cache_prefetched(instance, name: str, rows: list, holder) -> None:
    """Make `instance.<name>.all()` (a reverse foreign key) answer `rows` without a query.

    `holder` is the queryset of their model that `all()` then returns, filled with them."""
    holder._result_cache, holder._prefetch_done = rows, True
    instance._prefetched_objects_cache = {**getattr(instance, "_prefetched_objects_cache", {}), name: holder}


def cached_related(instance, name: str):
    """What `instance.<name>` (a foreign key, or either side of a one-to-one) holds already, else None."""
    return instance._state.fields_cache.get(name)


def forget_related(instance, name: str) -> None:
    """Let go of what `instance.<name>` holds (asking for it again reads it)."""
    instance._state.fields_cache.pop(name, None)
