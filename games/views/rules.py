"""The rules pages: one per rule set, a "which game?" page and an index.

The prose is long, so each page is one content template per language
(templates/rules/<page>.<lang>.html) picked by the active language, rather
than hundreds of message-file entries. The section ids are the same in every
language, so the table page can link to the rules of its own options.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.urls import NoReverseMatch, path, reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from ..describe import MATCH_FORMATS, rules_name

RULE_SETS = ("septica", "familie", "americana")
PAGES = {"septica": "septica", "familie": "familie", "americana": "americana", "which-game": "which_game"}
WRITTEN_IN = ("en", "ro")  # every page has one content template per language


def page_language() -> str:
    language = (translation.get_language() or "en").split("-")[0]
    return language if language in WRITTEN_IN else "en"


def content_template(page: str) -> str:
    return f"rules/{page}.{page_language()}.html"


def optional_url(name: str) -> str | None:
    """A page that another part of the site may not have yet (the tutorial)."""
    try:
        return reverse(name)
    except NoReverseMatch:
        return None


def page_context(current: str) -> dict:
    return {
        "current": current,
        "rule_sets": [(slug, rules_name(slug), reverse("rules_page", args=[slug])) for slug in RULE_SETS],
        "which_game_url": reverse("rules_page", args=["which-game"]),
        "tutorial_url": optional_url("tutorial"),
        "new_table_url": reverse("create_table"),
    }


@require_safe
def rules_index(request):
    return render(request, content_template("index"), page_context("index"))


@require_safe
def rules_page(request, page: str):
    if page not in PAGES:
        raise Http404("There is no rules page of that name.")
    return render(request, content_template(PAGES[page]), page_context(page))


# --- links from a table to the rules of its own options ---------------------------------
def option_links(rules: str, players: int, options: dict) -> list[tuple[str, str]]:
    """(words, URL with the section's anchor) for every option this table plays with."""
    base = reverse("rules_page", args=[rules])
    return [(words, f"{base}#{anchor}") for words, anchor in _option_anchors(rules, players, options)]


def _option_anchors(rules: str, players: int, options: dict):
    if rules == "septica":
        match = options.get("match", "best-of-3")
        yield str(MATCH_FORMATS.get(match, match)), f"match-{match}"
        if players in (3, 5, 6):
            yield _("two eights taken out"), "eights-out"
            if options.get("eights_cut"):
                yield _("eights cut (tăietură)"), "eights-cut"
        if options.get("teams"):
            yield _("in teams"), "teams"
    elif rules == "familie":
        yield _("one deal"), "match"
    elif rules == "americana":
        yield _("to %(target)s points") % {"target": options.get("target", 101)}, "target"
        for name, words in (
            ("jokers", _("with jokers")),
            ("pairs", _("J on 2, Q on 3, K on 4")),
            ("jacks_draw", _("jacks make the next player take two")),
        ):
            if options.get(name):
                yield words, name.replace("_", "-")


urlpatterns = [
    path("rules/", rules_index, name="rules"),
    path("rules/<slug:page>/", rules_page, name="rules_page"),
]
