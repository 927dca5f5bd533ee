"""Which account a failed log-in counts against, for django-axes.

allauth calls ``authenticate()`` with ``username=`` or ``email=`` (or both)
as typed; the same account typed as "ALICE", "alice" or its e-mail address
must share one count, and a password-change guess counts against it too.
"""

from __future__ import annotations

from .forms import resolve_username


def lockout_username(request, credentials: dict | None) -> str | None:
    credentials = credentials or {}
    typed = credentials.get("username") or credentials.get("email")
    if not typed and request is not None:
        typed = request.POST.get("login") or request.POST.get("username")
    if not typed:
        return None
    typed = typed.strip()
    # An unknown name still counts, in one case, so "Bob" and "bob" are one guesser's target.
    return resolve_username(typed) or typed.lower()
