"""Staff and moderators open the admin only with a second factor.

A staff member without one (TOTP or a passkey) is sent to set one up; one who
has it but whose session was not opened with it (a password-only log-in from
before it was set up, say) is asked for it before any admin page. The admin's
own log-in form, which knows nothing of second factors, hands over to the
site's (allauth's) log-in, which asks for the second factor; its password
change hands over to the site's, which counts wrong current passwords.
"""

from __future__ import annotations

from allauth.account.authentication import get_authentication_records
from allauth.mfa.utils import is_mfa_enabled
from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _

# Kinds that are a second factor in their own right; recovery codes only stand in for a lost one.
SECOND_FACTORS = ["totp", "webauthn"]


def needs_second_factor(user) -> bool:
    return user.is_authenticated and (user.is_staff or user.is_superuser)


def used_second_factor(request) -> bool:
    """Whether this session's log-in (or a re-authentication in it) included a second factor."""
    return any(record.get("method") == "mfa" for record in get_authentication_records(request, request.user))


class AdminSecondFactorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        admin = reverse("admin:index")
        if not request.path_info.startswith(admin):
            return self.get_response(request)
        user = request.user
        if request.path_info == reverse("admin:login"):
            # The admin's own form would log in with the password alone.
            if not user.is_authenticated:
                return redirect(f"{reverse('login')}?{urlencode({'next': request.GET.get('next') or admin})}")
            return self.get_response(request)
        if request.path_info == reverse("admin:password_change"):
            # The site's form counts wrong current passwords as failed log-ins; the admin's would not.
            return redirect("password_change")
        if not needs_second_factor(user):
            return self.get_response(request)
        back = urlencode({"next": request.get_full_path()})
        if not is_mfa_enabled(user, SECOND_FACTORS):
            messages.info(request, _("Staff open the admin with a second factor. Set one up first."))
            return redirect(f"{reverse('mfa_activate_totp')}?{back}")
        if not used_second_factor(request):
            messages.info(request, _("Confirm it is you with your second factor to open the admin."))
            return redirect(f"{reverse('mfa_reauthenticate')}?{back}")
        return self.get_response(request)
