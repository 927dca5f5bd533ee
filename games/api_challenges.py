"""Challenges' JSON API, under /api/ (issue 19): make one, list them, answer or withdraw one.

Routed and described by api/ (api.operations.people); documented in
templates/games/api_docs_people.html.
"""

from __future__ import annotations

from django.http import JsonResponse
from django.views.decorators.http import require_http_methods

from .actions import challenges
from .api import answers_coded_errors
from .errors import BadRequest
from .json_bodies import read_json
from .reads import challenge_json, challenges_of
from .table_creation_rate import check_table_creation_rate, count_table_created


@require_http_methods(["GET", "POST"])
@answers_coded_errors
def challenge_list(request):
    if request.method == "GET":
        challenges.expire_challenges_of(request.user)
        return JsonResponse(challenges_of(request.user))
    body = read_json(request)
    people = challenges.people_named(body.get("usernames"), request.user)
    check_table_creation_rate(request)
    if "rated" in body and type(body["rated"]) is not bool:
        raise BadRequest("\"rated\" must be true or false.", code="bad_rated")
    challenge = challenges.create_challenge(
        request.user, people,
        rules=body.get("rules"), players=body.get("players"), options=body.get("options") or {},
        seconds_per_move=body.get("seconds_per_move", 86400), private=body.get("private", False) is True,
        rated=body.get("rated"),
    )
    count_table_created(request)
    return JsonResponse(challenge_json(challenge, request.user), status=201)


def answer(change):
    @require_http_methods(["POST"])
    @answers_coded_errors
    def view(request, challenge_id: int):
        challenge = change(challenge_id, request.user)
        challenge.refresh_from_db()
        challenge.table.refresh_from_db()
        return JsonResponse(challenge_json(challenge, request.user))

    return view


accept = answer(challenges.accept_challenge)
decline = answer(challenges.decline_challenge)
withdraw = answer(challenges.withdraw_challenge)
