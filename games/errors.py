"""The refusals the site raises (actions, reads, request bodies): each is an HTTP status and a sentence for a person.

The API and the sockets answer with `status` and `message`; pages show the message.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A request the rules of the site refuse; `status` is the HTTP answer."""

    status = 400

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra


class BadRequest(ServiceError):
    status = 400


class NotLoggedIn(ServiceError):
    status = 401


class NotAllowed(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class TooManyRequests(ServiceError):
    status = 429
