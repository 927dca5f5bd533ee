"""The menu's count of unread notifications."""

from __future__ import annotations

from .reads import unread_count


def notifications(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": unread_count(user)}
