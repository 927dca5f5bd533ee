"""How many tables one account may make in a while (TABLE_CREATION_RATE), for the create page and the API."""

from __future__ import annotations

import logging

from django.conf import settings
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage
from redis.exceptions import RedisError

from .errors import TooManyRequests

logger = logging.getLogger(__name__)


def _table_creation_usage(request, *, increment: bool) -> dict | None:
    # One budget per account for the create page and the API. The count lives
    # in the cache; when it cannot be reached the request goes on (the open
    # tables limit, kept in the database, still holds).
    try:
        return get_usage(request, group="games.create_table", key="user", method="POST",
                         rate=settings.TABLE_CREATION_RATE, increment=increment)
    except RedisError:
        logger.warning("the table creation rate could not be read", exc_info=True)
        return None


def check_table_creation_rate(request) -> None:
    """TooManyRequests when the account made its TABLE_CREATION_RATE of tables already."""
    usage = _table_creation_usage(request, increment=False)
    if usage is not None and usage["count"] >= usage["limit"]:
        raise TooManyRequests(
            _("You have made too many tables in a short time. Wait a little and try again."))


def count_table_created(request) -> None:
    _table_creation_usage(request, increment=True)
