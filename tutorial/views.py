"""The tutorial pages and the JSON endpoint that plays the learner's moves (thin: parse, replay, answer)."""

from __future__ import annotations

import logging

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games import actions as game_actions
from games.engine import IllegalMove
from games.json_bodies import read_json
from games.words.table_page import js_strings

from . import lesson, presenters, services
from .scripts import GAME_NAMES, GAMES, step_of, words

log = logging.getLogger(__name__)

# The table page's words the tutorial shows too: the same sentences for the same things.
TABLE_WORDS = (
    "rank_names", "suit_names", "card_name", "red_joker", "black_joker", "points_n", "to_move",
    "suit_in_force", "trick_empty", "stock_n", "removed", "attack_draw", "attack_draw_you", "attack_skip",
    "attack_skip_you", "draw_n", "take", "end", "draw", "pass",
)
MOVE_TYPES = {"play", "take", "end", "draw", "pass"}
MOVE_KEYS = {"type", "card", "suit"}


class BadInput(ValueError):
    """A request the endpoint cannot read: answered 400 with the reason."""


@require_safe
def index(request):
    done = services.steps_done(request.user)
    games = [
        {"slug": game, "name": GAME_NAMES[game], "steps": presenters.step_links(game),
         "done": sorted(done.get(game, ()))}
        for game in GAMES
    ]
    return render(request, "tutorial/index.html", {"games": games})


@require_safe
def step_page(request, game: str, number: int):
    step = step_of(game, number)
    if step is None:
        raise Http404("There is no such tutorial step.")
    position = lesson.start(step)
    steps = presenters.step_links(game)
    text = js_strings()
    config = {
        "move_url": reverse("tutorial_move", args=[game, number]),
        "game": game,
        "slug": step.slug,
        "next_url": steps[number]["url"] if number < len(steps) else None,
        "is_last": number == len(steps),
        "text": {key: text[key] for key in TABLE_WORDS},
    }
    get_token(request)
    return render(request, "tutorial/step.html", {
        "step": step,
        "number": number,
        "game_name": GAME_NAMES[game],
        "title": words(step.title),
        "intro": words(step.intro),
        "steps": steps,
        "done": sorted(services.steps_done(request.user).get(game, ())),
        "hand": presenters.hand_faces(position),
        "start": presenters.answer(position, number),
        "config": config,
        "practice": [{"slug": game, "name": GAME_NAMES[game]}],
    })


@require_POST
def move(request, game: str, number: int):
    step = step_of(game, number)
    if step is None:
        return JsonResponse({"error": "There is no such tutorial step."}, status=404)
    try:
        done, new_move = read_body(request, step.turns)
        position = lesson.replay(step, done)
    except game_actions.ServiceError as refusal:
        return JsonResponse({"error": refusal.message}, status=refusal.status)
    except (BadInput, lesson.OffScript) as error:
        return JsonResponse({"error": str(error)}, status=400)
    try:
        after = lesson.apply(position, new_move)
    except lesson.OffScript as error:
        return JsonResponse({"error": str(error)}, status=400)
    except IllegalMove as error:
        return JsonResponse(presenters.answer(position, number, False,
                                              presenters.wrong_move_words(position, new_move, error)))
    except lesson.WrongMove:
        return JsonResponse(presenters.answer(position, number, False, presenters.wrong_move_words(position, new_move)))
    if after.done and request.user.is_authenticated:
        services.record_step_done(request.user, game, step.slug)
    return JsonResponse(presenters.answer(after, number))


def read_body(request, turns: int) -> tuple[list[dict], dict]:
    """The learner's earlier moves in this step and the new one, checked for shape only."""
    body = read_json(request)  # its refusals (a 400, or a 413 for a body too large) answer as they are
    done = body.get("done", [])
    if not isinstance(done, list) or len(done) >= turns:
        raise BadInput(f'"done" must be a list of the moves already made in this step (at most {turns - 1}).')
    for item in [*done, body.get("move")]:
        check_move_shape(item)
    return done, body["move"]


def check_move_shape(move) -> None:
    if not isinstance(move, dict):
        raise BadInput('A move must be an object such as {"type": "play", "card": "7H"}.')
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in MOVE_TYPES:
        raise BadInput(f"Unknown move type {repr(kind)[:40]}; a move is one of: {', '.join(sorted(MOVE_TYPES))}.")
    extra = set(move) - MOVE_KEYS
    if extra:
        raise BadInput(f"A move has no {sorted(extra)[0]!r}; it has only type, card and (for a seven) suit.")
    if any(not isinstance(move.get(key, ""), str) for key in ("card", "suit")):
        raise BadInput("A move's card and suit are strings, such as \"7H\" and \"S\".")


@require_http_methods(["POST"])
def practice(request):
    rules = request.POST.get("rules")
    if rules not in GAMES:
        messages.error(request, _("Choose septica or americana for the practice match."))
        return redirect("tutorial")
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('tutorial')}%23practice")
    try:
        table = services.start_practice_match(request.user, rules)
    except game_actions.ServiceError as refusal:
        messages.error(request, refusal.message)
        return redirect("tutorial")
    log.info("practice match %s started from the tutorial", table.pk)
    return redirect("table", table_id=table.pk)
