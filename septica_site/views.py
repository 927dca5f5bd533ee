from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from accounts.forms import WELCOME_TAG
from games.forms import QUICK_GAMES
from games.words.rulesets import rules_name

from . import health

GAME_CARDS = ("septica", "familie", "americana")


@require_safe
def home(request):
    signed_in = request.user.is_authenticated
    return render(request, "home.html", {
        # The sign-up's welcome is said once, by its message; "welcome back" is for the visits after.
        "welcome_back": signed_in and not any(WELCOME_TAG in message.tags.split()
                                              for message in messages.get_messages(request)),
        "quick_games": [quick_game_button(slug, game) for slug, game in QUICK_GAMES.items()] if signed_in else [],
        "rules_urls": {slug: reverse("rules_page", args=[slug]) for slug in GAME_CARDS},
    })


def quick_game_button(slug: str, game) -> dict:
    return {"name": rules_name(slug), "blurb": game.blurb(), "url": reverse("quick_game", args=[slug])}


@never_cache
@require_safe
def healthz(request):
    """200 or 503 within about a second; staff with a second factor see why, everyone else only "ok" or "down"."""
    report = health.check_all()
    healthy = all(part["ok"] for part in report.values())
    if health.may_see_details(request):
        body = {"ok": healthy, **report, "warnings": health.warnings()}
    else:
        body = {"ok": healthy, **health.summary(report)}
    return JsonResponse(body, status=200 if healthy else 503)
