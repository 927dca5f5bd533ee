"""The pages of people and their numbers: a profile, a rule set's leaderboard, and how ratings work."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from . import reads, relations
from .chart import rating_chart
from .reliability import RECENT_MATCHES
from .skill import PROVISIONAL_UNTIL, SHOWN_BASE


def person_or_404(username: str, viewer):
    found = reads.person(username, viewer)
    if found is None:
        raise Http404("There is no such player.")
    return found


def result_words(outcome) -> str:
    if outcome.resigned:
        return _("Resigned")
    return _("Won") if outcome.won else _("Lost")


def place_words(outcome) -> str:
    return _("place %(place)d of %(players)d") % {"place": outcome.place, "players": outcome.players}


def reliability_words(found) -> str:
    if not found.finished:
        return _("No finished match yet.")
    return ngettext(
        "%(percent)d%% of their last %(count)d match finished without a bot standing in.",
        "%(percent)d%% of their last %(count)d matches finished without a bot standing in.",
        found.finished) % {"percent": found.percent, "count": found.finished}


@require_safe
def player(request, username: str):
    user = person_or_404(username, request.user)
    found = reads.profile(user, request.user)
    standings = [
        {"standing": standing,
         "chart": rating_chart(standing.chart, f"chart-{standing.rules}",
                               _("%(rules)s: rating over time") % {"rules": standing.name})}
        for standing in found.standings
    ]
    return render(request, "players/profile.html", {
        "person": user,
        "standings": standings,
        "reliability": found.reliability,
        "reliability_words": reliability_words(found.reliability),
        "matches": [past_match_row(past) for past in found.matches],
        "may_challenge": may_challenge(request.user, user),
        "challenge_url": f"{reverse('create_table')}?{urlencode({'challenge': user.username})}",
        "is_other": request.user.is_authenticated and request.user.pk != user.pk,
        "you_follow": relations.follows(request.user, user),
        "you_block": relations.blocks(request.user, user),
    })


CHANGES = {"follow": relations.follow, "unfollow": relations.unfollow,
           "block": relations.block, "unblock": relations.unblock}


def change_words(change: str, name: str) -> str:
    return {
        "follow": _("You follow %(name)s."),
        "unfollow": _("You no longer follow %(name)s."),
        "block": _("You block %(name)s: they cannot join your tables or challenge you, and you do not see "
                   "what they write."),
        "unblock": _("You no longer block %(name)s."),
    }[change] % {"name": name}


@require_POST
@login_required
def change_relation(request, username: str, change: str):
    """The profile's Follow / Unfollow / Block / Unblock buttons."""
    if change not in CHANGES:
        raise Http404("There is no such change.")
    try:
        other = CHANGES[change](request.user, username)
    except relations.RelationRefused as refusal:
        if refusal.status == 404:
            raise Http404(refusal.message) from None
        messages.error(request, refusal.message)
        return redirect("player", username)
    messages.success(request, change_words(change, other.shown_name))
    return redirect("player", other.username)


def may_challenge(viewer, user) -> bool:
    return viewer.is_authenticated and viewer.pk != user.pk and not user.banned


def past_match_row(past: reads.PastMatch) -> dict:
    outcome = past.outcome
    return {
        "outcome": outcome,
        "rules_name": reads.rules_name(outcome.rules),
        "result": result_words(outcome),
        "place": place_words(outcome) if outcome.players > 2 else "",
        "people": past.people,
        "bots": past.bots,
        "private": past.private,
        "replay_url": None if past.private else reverse("replay", args=[outcome.match_id]),
    }


# --- leaderboards ---------------------------------------------------------------------
@require_safe
def leaderboard_home(request):
    return redirect("leaderboard", next(iter(reads.RULE_SETS)))


@require_safe
def leaderboard(request, rules: str):
    if rules not in reads.RULE_SETS:
        raise Http404("There is no such rule set.")
    rows = reads.top(rules)
    place = reads.your_place(rules, request.user, rows)
    return render(request, "players/leaderboard.html", {
        "rules": rules,
        "rules_name": reads.rules_name(rules),
        "tabs": [{"slug": slug, "name": name, "url": reverse("leaderboard", args=[slug])}
                 for slug, name in reads.RULE_SETS.items()],
        "rows": rows,
        "you": place,
        "you_words": your_place_words(place, reads.rules_name(rules)) if place else "",
        "recent_days": reads.RECENT_DAYS,
        "provisional_until": PROVISIONAL_UNTIL,
    })


def your_place_words(place: reads.YourPlace, rules_name: str) -> str:
    if place.reason is None:
        return _("You are number %(rank)d, with %(rating)d.") % {"rank": place.rank, "rating": place.rating.shown}
    if place.reason == "no_rating":
        return _("You have no rating at %(rules)s yet: play a rated match to get one.") % {"rules": rules_name}
    if place.reason == "provisional":
        return ngettext(
            "You are not listed yet: your rating (%(rating)d) is provisional for %(count)d more rated match.",
            "You are not listed yet: your rating (%(rating)d) is provisional for %(count)d more rated matches.",
            place.matches_to_go) % {"rating": place.rating.shown, "count": place.matches_to_go}
    if place.reason == "not_recent":
        return _("You are not listed: your last rated match at %(rules)s was more than %(days)d days ago.") % {
            "rules": rules_name, "days": reads.RECENT_DAYS}
    return _("You are not listed while your account is suspended or banned.")


# --- the rules of fairness --------------------------------------------------------------
@require_safe
def how_ratings_work(request):
    return render(request, "players/how_ratings_work.html", {
        "provisional_until": PROVISIONAL_UNTIL,
        "shown_base": SHOWN_BASE,
        "recent_days": reads.RECENT_DAYS,
        "top": reads.TOP,
        "recent_matches": RECENT_MATCHES,
    })
