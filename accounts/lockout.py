"""Which account a failed log-in counts against, for django-axes, and the
second factor's failures counted with the passwords'.

allauth calls ``authenticate()`` with ``username=`` or ``email=`` (or both)
as typed; the same account typed as "ALICE", "alice" or its e-mail address
must share one count, and a password-change guess counts against it too.
"""

from __future__ import annotations

from axes.handlers.proxy import AxesProxyHandler
from django import forms
from django.contrib.auth.signals import user_login_failed
from django.utils.translation import gettext

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


def count_failed_log_in(request, user) -> None:
    """A wrong second factor for `user`: one more failure for the account and
    the address, as a wrong password is (axes marks the request when that
    reaches the limit, and its middleware answers with the lock-out page)."""
    user_login_failed.send(sender=__name__, credentials={"username": user.get_username()}, request=request)


def refuse_if_locked_out(request, user) -> None:
    """Refuse, before any code is checked, when the account or the address is locked out."""
    if AxesProxyHandler.is_allowed(request, {"username": user.get_username()}):
        return
    # Counted as a password tried during the lock-out is: the wait starts again.
    count_failed_log_in(request, user)
    raise forms.ValidationError(gettext("Too many failed log-in attempts; try again later."), code="locked_out")
