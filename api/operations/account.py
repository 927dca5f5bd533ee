"""Who you are and your table preferences: accounts/api.py's views."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from accounts import api as views

from ..schemas.account import Me, Preferences, PreferencesToSave
from ..site import SIGNED_IN, SiteRouter

router = SiteRouter()
YOU = ["You"]


@router.operation("GET", "/me", name="api_me", summary=_("Who you are: checks that your token works"),
                  access=SIGNED_IN, tags=YOU, ok={200: Me}, head=True)
def me(request):
    return views.me(request)


@router.operation("GET", "/me/preferences", name="api_preferences", summary=_("How the table page plays for you"),
                  access=SIGNED_IN, tags=YOU, ok={200: Preferences}, head=True)
def preferences(request):
    return views.preferences(request)


@router.operation("POST", "/me/preferences", name="api_preferences", summary=_("Change your table preferences"),
                  access=SIGNED_IN, tags=YOU, ok={200: Preferences}, refusals=[400], body=PreferencesToSave)
def save_preferences(request):
    return views.preferences(request)
