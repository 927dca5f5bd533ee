"""The navigation bar: only links whose pages exist are shown, so the menu
grows as features land instead of pointing at empty pages."""

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _

NAVIGATION = [
    ("lobby", _("Play")),
    ("practice", _("Practice")),
    ("my_matches", _("My matches")),
    ("leaderboard_home", _("Leaderboard")),
    ("rules", _("Rules")),
    ("tutorial", _("Tutorial")),
]


def _links():
    for name, label in NAVIGATION:
        try:
            yield {"name": name, "label": label, "url": reverse(name)}
        except NoReverseMatch:
            continue


def navigation(request):
    return {"nav_links": list(_links())}
