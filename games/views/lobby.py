"""The lobby (open tables and the create form) and My matches.

Every page works as plain HTML forms; static/js/lobby.js refreshes the lists
from the JSON API (GET /api/tables, GET /api/me/matches) and fills the create
form from a preset without a round trip.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from players import reads as players_reads

from .. import actions
from ..actions import challenges
from ..actions.tables import CHALLENGE_SEAT
from ..forms import PRESETS, QUICK_GAMES, CreateTableForm
from ..models import Seat, TableStatus
from ..presenters import my_table_order, table_summary
from ..reads import challenges_waiting, rematch_invitations, tables_with_seats
from ..table_creation_rate import check_table_creation_rate, count_table_created
from ..words.durations import clock_units, time_left_in_words
from ..words.rulesets import RULE_SETS

REFRESH_MS = 5000
URL_ID = 999999999  # stands for a table id in the URLs handed to the script


# --- the lobby ----------------------------------------------------------------
@require_safe
def lobby(request):
    listed = tables_with_seats().listed_in_lobby().order_by("-created_at")[:200]
    return render(
        request,
        "games/lobby.html",
        {
            "tables": [with_join(table_summary(table, request.user)) for table in listed],
            "script": script_config(request, api=reverse("api_tables")),
        },
    )


def with_join(summary: dict) -> dict:
    """Whether the viewer could take a seat: one is free and not kept for somebody else."""
    joinable = any(s["kind"] == "free" and (not s["reserved"] or s["reserved_for_you"]) for s in summary["seats"])
    return {**summary, "joinable": joinable}


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def create_table(request):
    status = 200
    challenge = challenge_of(request)
    if request.method == "POST":
        form = CreateTableForm(request.POST)
        if challenge.error:
            form.add_error(None, challenge.error)
        if form.is_valid():
            try:
                check_table_creation_rate(request)
            except actions.TooManyRequests as refusal:
                form.add_error(None, refusal.message)
                status = refusal.status
            else:
                table = form.create(request.user, challenged=challenge.people)
                if table is not None:
                    count_table_created(request)
                    return redirect("table", table.pk)
    else:
        initial = CreateTableForm.initial_for(request.GET.get("preset"))
        for number in range(CHALLENGE_SEAT, CHALLENGE_SEAT + len(challenge.people)):
            initial[f"seat_{number}"] = "person"  # the seats kept for them wait for people
        if challenge.people:
            initial["players"] = max(initial["players"], len(challenge.people) + 1)
        form = CreateTableForm(initial=initial)
    return render(
        request,
        "games/create_table.html",
        {
            "form": form,
            "presets": PRESETS,
            "chosen_preset": None if request.method == "POST" else request.GET.get("preset") or PRESETS[0].slug,
            "form_config": form_config(),
            "challenge": challenge,
        },
        status=status,
    )


@dataclass(frozen=True)
class Challenge:
    """`?challenge=<username>` (several: commas between, or the field repeated; the form sends them back):
    a seat kept for each person."""

    username: str = ""
    people: tuple = ()
    error: str = ""

    @property
    def person(self):
        return self.people[0] if self.people else None

    @property
    def names(self) -> str:
        return ", ".join(person.shown_name for person in self.people)


def challenge_of(request) -> Challenge:
    values = (request.POST if request.method == "POST" else request.GET).getlist("challenge")
    usernames = [name for value in values for name in value.replace(",", " ").split()]
    if not usernames:
        return Challenge()
    shown = ", ".join(usernames)
    people = []
    for username in usernames:
        person = players_reads.person(username, request.user)
        if person is None:
            return Challenge(shown, (), _("There is no such player to challenge."))
        if person.pk == request.user.pk:
            return Challenge(shown, (), _("You cannot challenge yourself."))
        people.append(person)
    return Challenge(shown, tuple(people))


def form_config() -> dict:
    """What the script needs to fill and trim the form: presets and each rule set's limits and defaults."""
    return {
        "presets": {preset.slug: preset.fields() for preset in PRESETS},
        "rules": {
            rules.slug: {
                "min": rules.min_players,
                "max": rules.max_players,
                "defaults": {n: rules.default_options(n) for n in range(rules.min_players, rules.max_players + 1)},
            }
            for rules in RULE_SETS
        },
    }


@require_POST
def quick_game(request, rules: str):
    """The home page's "play now": a table of this game with bots in every other seat, started at once."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("home"))
    game = QUICK_GAMES.get(rules)
    if game is None:
        raise Http404("There is no such game.")
    try:
        check_table_creation_rate(request)
        table = game.create(request.user)
    except actions.ServiceError as refusal:
        messages.error(request, refusal.message)
        return redirect("home")
    count_table_created(request)
    return redirect("table", table.pk)


# --- the page forms: join, leave, rematch -----------------------------------
@require_POST
def join(request, table_id: int):
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("lobby"))
    try:
        actions.join_table(table_id, request.user, invite_code=invite_for(request, table_id))
    except actions.ServiceError as refusal:
        messages.error(request, refusal.message)
        return redirect(next_page(request, "lobby"))
    return redirect("table", table_id)


def invite_for(request, table_id: int) -> str | None:
    """The invite code sent with the form, or the table's own when a seat is kept for this player."""
    code = request.POST.get("invite")
    if code:
        return code
    kept = Seat.objects.filter(table_id=table_id, reserved_for=request.user, user__isnull=True)
    return kept.values_list("table__invite_code", flat=True).first()


@require_POST
@login_required
def add_bot(request, table_id: int):
    """The table page's form for its creator: a bot in a free seat (the one named, or the first)."""
    seat = request.POST.get("seat", "")
    try:
        actions.add_bot(table_id, request.user, seat=int(seat) if seat.isdigit() else None,
                        level=request.POST.get("level") or "medium", style=request.POST.get("style") or "balanced")
    except actions.NotFound as refusal:
        messages.error(request, refusal.message)
        return redirect("lobby")
    except actions.ServiceError as refusal:
        messages.error(request, refusal.message)
    return redirect("table", table_id)


@require_POST
@login_required
def leave(request, table_id: int):
    try:
        actions.leave_table(table_id, request.user)
    except actions.ServiceError as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("You left table %(id)d.") % {"id": table_id})
    return redirect(next_page(request, "my_matches"))


@require_POST
@login_required
def rematch(request, table_id: int):
    try:
        table = actions.rematch(table_id, request.user)
    except actions.ServiceError as refusal:
        messages.error(request, refusal.message)
        return redirect("my_matches")
    return redirect("table", table.pk)


def next_page(request, default: str) -> str:
    wanted = request.POST.get("next", "")
    if wanted and url_has_allowed_host_and_scheme(wanted, {request.get_host()}, request.is_secure()):
        return wanted
    return reverse(default)


# --- answering a challenge ----------------------------------------------------
CHALLENGE_ANSWERS = {"accept": challenges.accept_challenge, "decline": challenges.decline_challenge,
                     "withdraw": challenges.withdraw_challenge}


@require_POST
@login_required
def answer_challenge(request, challenge_id: int, answer: str):
    """My matches' Accept / Decline (for the people challenged) and Withdraw (for the challenger)."""
    if answer not in CHALLENGE_ANSWERS:
        raise Http404("There is no such answer.")
    try:
        challenge = CHALLENGE_ANSWERS[answer](challenge_id, request.user)
    except actions.ServiceError as refusal:
        messages.error(request, refusal.message)
        return redirect("my_matches")
    if answer == "accept":
        return redirect("table", challenge.table_id)
    messages.success(request, _("You declined the challenge.") if answer == "decline"
                     else _("You withdrew the challenge; its table is called off."))
    return redirect("my_matches")


# --- My matches ---------------------------------------------------------------
SECTIONS = ("my_move", "playing", "open", "finished")


@require_safe
@login_required
def my_matches(request):
    challenges.expire_challenges_of(request.user)
    mine = tables_with_seats().filter(seats__user=request.user).distinct()
    summaries = sorted((table_summary(table, request.user) for table in mine), key=my_table_order)
    invitations = [table_summary(table, request.user) for table in rematch_invitations(request.user)]
    grouped = sections(summaries)
    return render(
        request,
        "games/my_matches.html",
        {
            "sections": grouped,
            "has_any": any(section["tables"] for section in grouped),
            "invitations": invitations,
            "challenges": challenges_waiting(request.user),
            "script": script_config(request, api=reverse("api_my_matches")),
        },
    )


def section_of(summary: dict) -> str | None:
    status = summary["status"]
    if status == TableStatus.PLAYING:
        return "my_move" if summary["to_move"] == summary["your_seat"] else "playing"
    if status == TableStatus.OPEN:
        return "open"
    if status == TableStatus.ABORTED and summary["seq"] == 0:
        return None  # called off before a card was played: nothing to remember
    return "finished"


def sections(summaries: list[dict]) -> list[dict]:
    titles = section_titles()
    grouped: dict[str, list[dict]] = {name: [] for name in SECTIONS}
    now = timezone.now()
    for summary in summaries:
        name = section_of(summary)
        if name is not None:
            grouped[name].append(
                {**summary, "to_move_name": to_move_name(summary), "time_left": time_left(summary, now)}
            )
    return [{"name": name, "title": titles[name], "tables": grouped[name]} for name in SECTIONS]


def section_titles() -> dict:
    return {
        "my_move": _("Your move"),
        "playing": _("Waiting for the others"),
        "open": _("Waiting for players"),
        "finished": pgettext("the My matches section of finished matches", "Finished"),
    }


def to_move_name(summary: dict) -> str:
    seat = next((s for s in summary["seats"] if s["seat"] == summary["to_move"]), None)
    return seat["name"] or "" if seat else ""


def time_left(summary: dict, now) -> str:
    if not summary["deadline"]:
        return ""
    seconds = max(0, int((datetime.fromisoformat(summary["deadline"]) - now).total_seconds()))
    return _("%(time)s left") % {"time": time_left_in_words(seconds)}


# --- the script's words and URLs ---------------------------------------------
def script_config(request, api: str) -> dict:
    return {
        "api": api,
        "refresh_ms": REFRESH_MS,
        "logged_in": request.user.is_authenticated,
        "username": request.user.username if request.user.is_authenticated else "",
        "urls": {
            "join": reverse("lobby_join", args=[URL_ID]),
            "leave": reverse("lobby_leave", args=[URL_ID]),
            "rematch": reverse("rematch", args=[URL_ID]),
            "login": f"{reverse('login')}?next={request.path}",
            "url_id": str(URL_ID),
            **{f"challenge_{answer}": reverse("answer_challenge", args=[URL_ID, answer]) for answer in CHALLENGE_ANSWERS},
        },
        "words": {
            "join": _("Join"),
            "leave": _("Leave"),
            "rematch": _("Rematch"),
            "open_table": _("Go to the table"),
            "log_in_to_join": _("Log in to join"),
            "kept": _("Seat kept for a rematch"),
            "kept_invited": _("Seat kept for an invited player"),
            "free": _("free"),
            "you": _("you"),
            "bot": _("bot"),
            "seats": _("%(taken)s of %(total)s seats"),
            "per_move": _("%(time)s per move"),
            "live": _("live"),
            "correspondence": _("correspondence"),
            "no_tables": _("No open tables right now. Create one!"),
            "no_matches": _("Nothing here yet."),
            "to_move": _("%(name)s to move"),
            "time_left": _("%(time)s left"),
            "asks_rematch": _("%(name)s asks for a rematch"),
            "challenges_you": _("%(name)s challenges you"),
            "also_challenged": _("Also challenged:"),
            "accept": _("Accept"),
            "decline": _("Decline"),
            "withdraw": _("Withdraw"),
            "table_number": _("Table %(id)s"),
            "new_table": _("New table: %(rules)s"),
            "play": _("Play"),
            "called_off": _("Called off"),
            "sections": section_titles(),
            "units": clock_units(),
        },
    }


urlpatterns = [
    path("play/", lobby, name="lobby"),
    path("play/new/", create_table, name="create_table"),
    path("play/now/<slug:rules>/", quick_game, name="quick_game"),
    path("play/<int:table_id>/join/", join, name="lobby_join"),
    path("play/<int:table_id>/leave/", leave, name="lobby_leave"),
    path("play/<int:table_id>/bot/", add_bot, name="lobby_add_bot"),
    path("matches/", my_matches, name="my_matches"),
    path("matches/<int:table_id>/rematch/", rematch, name="rematch"),
    path("matches/challenges/<int:challenge_id>/<slug:answer>/", answer_challenge, name="answer_challenge"),
]
