"""The practice page: a whole match against bots, played on the device.

The page is the same for everyone, logged in or not: the service worker keeps
a copy fetched without cookies to start practice offline, so nothing in it
may depend on who asks. Preferences and results stay in the browser.
"""

from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_safe

from games.bot_names import FIRST_NAMES, badge
from games.forms import CreateTableForm
from games.models import BotLevel, BotStyle
from games.words.rulesets import RULE_SETS
from games.words.table_page import js_strings

from .assets import engine_config, offline_assets

# How long a bot waits before its move shows: (value, words, milliseconds).
# "Quick" is for those who know the game (and for the tests); the others let the eye follow.
PACES = (
    ("quick", _lazy("Quick"), 0),
    ("normal", _lazy("Normal"), 700),
    ("slow", _lazy("Slow"), 1500),
)
DEFAULT_PACE = "normal"

# A new practice starts on a short septica against one Medium bot: a first match to learn on.
FIRST_PRESET = "septica-8"


@require_safe
def practice_page(request):
    form = CreateTableForm(initial=CreateTableForm.initial_for(FIRST_PRESET), auto_id="practice_%s")
    assets = offline_assets()
    context = {
        "form": form,
        "paces": PACES,
        "download_mb": assets["total_wire_bytes"] / 1_000_000,
        "unpacked_mb": assets["total_bytes"] / 1_000_000,
        "compressed": assets["total_wire_bytes"] < assets["total_bytes"],
        "config": practice_config(assets),
    }
    return render(request, "practice/practice.html", context)


def practice_config(assets: dict) -> dict:
    return {
        "id": "practice",
        "logged_in": False,  # preferences stay in this browser, like a guest's at a table
        "preferences": {},
        "engine": engine_config(),
        "offline": assets,
        "rules": {
            rules.slug: {
                "name": words.name,
                "min": rules.min_players,
                "max": rules.max_players,
                "defaults": {n: rules.default_options(n) for n in range(rules.min_players, rules.max_players + 1)},
                "rules_url": f"/rules/{rules.slug}/",
            }
            for rules, words in RULE_SETS.items()
        },
        "paces": {pace: milliseconds for pace, _words, milliseconds in PACES},
        "bot_names": list(FIRST_NAMES),
        "badges": {
            level: {style: badge(level_words, style_words, _("%(level)s, %(style)s"))
                    for style, style_words in BotStyle.choices}
            for level, level_words in BotLevel.choices
        },
        "login_url": f"{reverse('login')}?next={reverse('lobby')}",
        "signup_url": reverse("signup"),
        "text": {**js_strings(), **practice_strings()},
    }


def practice_strings() -> dict:
    """The sentences only the practice page's script shows."""
    return {
        "practice_you": _("You"),
        "practice_players": _("%(name)s: %(min)s to %(max)s players."),
        "not_legal": _("That card cannot be played now."),
        "missing": _("Practice cannot run in this browser: it lacks %(missing)s. Online play still works: log in or sign up to play people and bots."),
        "missing_words": {
            "webassembly": _("WebAssembly"),
            "service-worker": _("service workers"),
            "indexeddb": _("storage on the device (IndexedDB)"),
            "worker": _("web workers"),
        },
        "names_list_and": _("%(names)s and %(last)s"),
        "offline_ready": _("Practice is available offline on this device."),
        "offline_not_yet": _("Practice is not yet available offline on this device."),
        "offline_downloading": _("Downloading: %(done)s of %(total)s MB"),
        "offline_failed_network": _("The download stopped: the connection was lost. Press the button to try again."),
        "offline_failed_integrity": _("A downloaded file was damaged, even after trying again. Press the button to try again."),
        "offline_failed_quota": _("This device has no room left for practice (about %(total)s MB)."),
        "engine_starting": _("Starting the game on this device…"),
        "engine_failed": _("The game could not start on this device. Reload the page to try again."),
        "cannot_load": _("Your saved practice match was played on an older version of the site and cannot continue: it is over."),
        "resuming": _("Your unfinished practice match continues."),
        "other_settings": _("Other settings"),
        "play_online": _("Play people online"),
        "result_won": _("won"),
        "result_lost": _("lost"),
        "result_none": _("no winner"),
        "players_row": _("Players"),
        "pace_row": _("Bots' pace"),
        "yes": _("yes"),
        "no": _("no"),
    }
