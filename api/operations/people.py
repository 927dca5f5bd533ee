"""Profiles, leaderboards, follows, blocks and challenges: players/api.py's and games/api_challenges.py's views."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games import api_challenges as challenge_views
from players import api as views

from ..schemas.people import (
    Blocked,
    Challenge,
    Challenges,
    Following,
    Leaderboard,
    NewChallenge,
    PeopleFollowed,
    Profile,
)
from ..site import OPTIONAL, SIGNED_IN, SiteRouter
from .tables import TABLE_RULE_CODES

router = SiteRouter()
PEOPLE, CHALLENGES = ["People"], ["Challenges"]
YOURSELF = ["yourself"]  # following or blocking yourself
CHALLENGE_RULE_CODES = [*TABLE_RULE_CODES, "challenge_yourself", "challenge_twice", "too_many_challenged",
                        "challenged_cannot_play", "challenge_seat_taken"]


@router.operation("POST", "/players/{username}/follow", name="api_follow", summary=_("Follow a person"),
                  access=SIGNED_IN, tags=PEOPLE, ok={200: Following}, refusals=[400, 403, 404],
                  rule_codes=YOURSELF)
def follow(request, username: str):
    return views.follow(request, username)


@router.operation("DELETE", "/players/{username}/follow", name="api_follow", summary=_("Stop following a person"),
                  access=SIGNED_IN, tags=PEOPLE, ok={200: Following}, refusals=[400, 404],
                  rule_codes=YOURSELF)
def unfollow(request, username: str):
    return views.follow(request, username)


@router.operation("POST", "/players/{username}/block", name="api_block", summary=_("Block a person"),
                  access=SIGNED_IN, tags=PEOPLE, ok={200: Blocked}, refusals=[400, 404],
                  rule_codes=YOURSELF)
def block(request, username: str):
    return views.block(request, username)


@router.operation("DELETE", "/players/{username}/block", name="api_block", summary=_("Unblock a person"),
                  access=SIGNED_IN, tags=PEOPLE, ok={200: Blocked}, refusals=[400, 404],
                  rule_codes=YOURSELF)
def unblock(request, username: str):
    return views.block(request, username)


@router.operation("GET", "/me/following", name="api_following", summary=_("The people you follow"),
                  access=SIGNED_IN, tags=PEOPLE, ok={200: PeopleFollowed}, head=True)
def people_followed(request):
    return views.following(request)


@router.operation("GET", "/players/{username}", name="api_player",
                  summary=_("A person's profile: ratings, reliability, last matches"), access=OPTIONAL, tags=PEOPLE,
                  ok={200: Profile}, refusals=[404], head=True)
def player(request, username: str):
    return views.player(request, username)


@router.operation("GET", "/leaderboard/{slug:rules}", name="api_leaderboard",
                  summary=_("The top players at a rule set, and your place"), access=OPTIONAL, tags=PEOPLE,
                  ok={200: Leaderboard}, refusals=[404], head=True)
def leaderboard(request, rules: str):
    return views.leaderboard(request, rules)


@router.operation("GET", "/challenges", name="api_challenges", summary=_("The challenges you made and received"),
                  access=SIGNED_IN, tags=CHALLENGES, ok={200: Challenges})
def list_challenges(request):
    return challenge_views.challenge_list(request)


@router.operation("POST", "/challenges", name="api_challenges", summary=_("Challenge people to a new table"),
                  access=SIGNED_IN, tags=CHALLENGES, ok={201: Challenge}, refusals=[400, 403, 404, 409, 429],
                  rule_codes=CHALLENGE_RULE_CODES, body=NewChallenge)
def create_challenge(request):
    return challenge_views.challenge_list(request)


@router.operation("POST", "/challenges/{int:challenge_id}/accept", name="api_challenge_accept",
                  summary=_("Accept a challenge: take the seat kept for you"), access=SIGNED_IN, tags=CHALLENGES,
                  ok={200: Challenge}, refusals=[403, 404, 409])
def accept_challenge(request, challenge_id: int):
    return challenge_views.accept(request, challenge_id)


@router.operation("POST", "/challenges/{int:challenge_id}/decline", name="api_challenge_decline",
                  summary=_("Decline a challenge"), access=SIGNED_IN, tags=CHALLENGES, ok={200: Challenge},
                  refusals=[403, 404, 409])
def decline_challenge(request, challenge_id: int):
    return challenge_views.decline(request, challenge_id)


@router.operation("POST", "/challenges/{int:challenge_id}/withdraw", name="api_challenge_withdraw",
                  summary=_("Withdraw your challenge and call its table off"), access=SIGNED_IN, tags=CHALLENGES,
                  ok={200: Challenge}, refusals=[403, 404, 409])
def withdraw_challenge(request, challenge_id: int):
    return challenge_views.withdraw(request, challenge_id)
