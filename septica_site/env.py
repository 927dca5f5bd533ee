"""Strict readers for environment variables: a typo fails at start-up rather
than silently turning a feature off."""

from __future__ import annotations

import os
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean; use 1/0, true/false, yes/no or on/off.")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name, "")
    if not raw.strip():
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


_EMAIL_BACKENDS = {
    "console": "django.core.mail.backends.console.EmailBackend",
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "smtps": "django.core.mail.backends.smtp.EmailBackend",
    "memory": "django.core.mail.backends.locmem.EmailBackend",
    "dummy": "django.core.mail.backends.dummy.EmailBackend",
}


def parse_email_url(url: str) -> dict:
    """``smtp://user:password@host:587?tls=1`` into Django's EMAIL_* settings.

    ``console:`` (the default) prints every e-mail to the server's output.
    """
    parts = urlsplit(url)
    backend = _EMAIL_BACKENDS.get(parts.scheme)
    if backend is None:
        raise ImproperlyConfigured(f"EMAIL_URL scheme {parts.scheme!r} is not one of {', '.join(_EMAIL_BACKENDS)}.")
    settings: dict = {"BACKEND": backend}
    if parts.scheme.startswith("smtp"):
        query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        settings.update(
            HOST=parts.hostname or "localhost",
            PORT=parts.port or (465 if parts.scheme == "smtps" else 587),
            HOST_USER=unquote(parts.username or ""),
            HOST_PASSWORD=unquote(parts.password or ""),
            USE_SSL=parts.scheme == "smtps",
            USE_TLS=parts.scheme == "smtp" and query.get("tls", "1").lower() in _TRUE,
            TIMEOUT=10,
        )
    return settings
