"""The JSON of profiles and leaderboards (GET /api/players/<username>, GET /api/leaderboard/<rules>),
follows and blocks.

The first two are public, as the pages are; "you" in a leaderboard needs a
session or a token. Routed and described by api/ (api.operations.people);
documented at /api/docs/.
"""

from __future__ import annotations

from django.http import JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from septica_site.api_errors import error

from . import reads, relations
from .skill import is_provisional


def rating_json(rating) -> dict | None:
    if rating is None:
        return None
    return {
        "shown": rating.shown, "mu": rating.mu, "sigma": rating.sigma, "rated_matches": rating.rated_matches,
        "provisional": is_provisional(rating.rated_matches),
        "last_rated_at": rating.last_rated_at.isoformat() if rating.last_rated_at else None,
    }


def person_json(user) -> dict:
    return {"username": user.username, "display_name": user.shown_name,
            "url": reverse("player", args=[user.username])}


def past_match_json(past: reads.PastMatch) -> dict:
    outcome = past.outcome
    return {
        "table_id": outcome.match_id,
        "rules": outcome.rules,
        "finished_at": outcome.finished_at.isoformat(),
        "players": outcome.players,
        "seat": outcome.seat,
        "place": outcome.place,
        "won": outcome.won,
        "resigned": outcome.resigned,
        "rated": outcome.rated,
        "shown_before": outcome.shown_before,
        "shown_after": outcome.shown_after,
        "private": past.private,
        "people": [person_json(user) for user in past.people],
        "bots": past.bots,
        "replay_url": None if past.private else reverse("replay", args=[outcome.match_id]),
    }


@require_safe
def player(request, username: str):
    user = reads.person(username, request.user)
    if user is None:
        return error(404, _("There is no such player."), code="no_such_player")
    found = reads.profile(user, request.user)
    return JsonResponse({
        **person_json(user),
        "ratings": {standing.rules: rating_json(standing.rating) for standing in found.standings},
        "counts": {standing.rules: {"played": standing.played, "won": standing.won} for standing in found.standings},
        "reliability": {"percent": found.reliability.percent, "counted": found.reliability.finished},
        "matches": [past_match_json(past) for past in found.matches],
    })


def row_json(row: reads.Row) -> dict:
    rating = row.rating
    return {"rank": row.rank, "username": rating.user.username, "display_name": rating.user.shown_name,
            "rating": rating.shown, "rated_matches": rating.rated_matches}


def you_json(place: reads.YourPlace | None) -> dict | None:
    if place is None:
        return None
    rating = place.rating
    return {"rank": place.rank, "listed": place.reason is None, "reason": place.reason,
            "rating": rating.shown if rating else None, "rated_matches": rating.rated_matches if rating else 0}


@require_safe
def leaderboard(request, rules: str):
    if rules not in reads.RULE_SETS:
        return error(404, _("There is no such rule set; choose one of: %(rules)s.")
                     % {"rules": ", ".join(reads.RULE_SETS)}, code="no_such_rules")
    rows = reads.top(rules)
    return JsonResponse({
        "rules": rules,
        "rows": [row_json(row) for row in rows],
        "you": you_json(reads.your_place(rules, request.user, rows)),
    })


# --- follows and blocks -------------------------------------------------------------------
def relation_view(add, remove, answer_key: str):
    """POST adds the relation, DELETE removes it; both answer what now holds."""
    @require_http_methods(["POST", "DELETE"])
    def view(request, username: str):
        if not request.user.is_authenticated:
            return error(401, "Log in, or send Authorization: Bearer <token>.", code="not_logged_in")
        change = add if request.method == "POST" else remove
        try:
            other = change(request.user, username)
        except relations.RelationRefused as refusal:
            return error(refusal.status, refusal.message, code=refusal.code)
        return JsonResponse({**person_json(other), answer_key: request.method == "POST"})

    return view


@require_safe
def following(request):
    if not request.user.is_authenticated:
        return error(401, "Log in, or send Authorization: Bearer <token>.", code="not_logged_in")
    return JsonResponse({"following": [person_json(user) for user in relations.followed_people(request.user)]})


follow = relation_view(relations.follow, relations.unfollow, "following")
block = relation_view(relations.block, relations.unblock, "blocked")
