"""The table page: rendered from the viewer's engine view, then driven by the API.

The page embeds `table_json` for the viewer (the only cards in it are the
viewer's own and the public ones) and a small config; static/js/table/main.js
draws it and keeps it current through the JSON API.
"""

from django.http import Http404
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import Resolver404, path, resolve, reverse
from django.views.decorators.http import require_safe

from accounts.preferences import table_preferences

from .. import actions
from ..presenters import table_json
from ..reads import visible_table
from ..words.cards import card_face
from ..words.rulesets import rules_name
from ..words.table_page import js_strings, rules_dialog_rows


@require_safe
def table_page(request, table_id: int):
    try:
        table = visible_table(request, table_id)
    except actions.NotFound:
        raise Http404("There is no such table.") from None
    get_token(request)  # the page's script posts with the csrftoken cookie
    data = table_json(table, request.user)
    context = {
        "table": table,
        "data": data,
        "view": data["view"],
        "ruleset_name": rules_name(table.rules),
        "rules_dialog_rows": rules_dialog_rows(table),
        "rules_url": existing_path(f"/rules/{table.rules}/"),
        "config": page_config(request, table),
        "hand": [card_face(card) for card in (data["view"] or {}).get("hand", [])],
        "trick": [{**card_face(c["card"]), "seat": c["seat"]} for c in (data["view"] or {}).get("table", [])],
        "top": card_face(data["view"]["top"]) if data["view"] and data["view"].get("top") else None,
    }
    return render(request, "games/table.html", context)


@require_safe
def table_invite(request, table_id: int, code: str):
    return redirect(f"/tables/{table_id}/?invite={code}")


def existing_path(url: str) -> str | None:
    """The URL if some page answers it, so the table never links to a 404."""
    try:
        resolve(url)
    except Resolver404:
        return None
    return url


def page_config(request, table) -> dict:
    invite = request.GET.get("invite")
    return {
        "id": table.pk,
        "api": reverse("api_table", args=[table.pk]),
        "invite": invite if invite == table.invite_code else None,
        "logged_in": request.user.is_authenticated,
        "login_url": f"{reverse('login')}?next={request.get_full_path()}",
        "lobby_url": existing_path("/play/"),
        "replay_url": existing_path(f"/tables/{table.pk}/replay/"),
        "matches_url": reverse("my_matches") if request.user.is_authenticated else None,
        "preferences": table_preferences(request.user),
        "preferences_api": reverse("api_preferences"),
        "poll_ms": 2000,
        "text": js_strings(),
    }


urlpatterns = [
    path("tables/<int:table_id>/", table_page, name="table"),
    path("tables/<int:table_id>/invite/<str:code>/", table_invite, name="table_invite"),
]
