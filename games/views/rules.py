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
from django.views.decorators.http import require_safe

from ..words.rulesets import RULE_SETS

# A rule set's page, and its templates, are named by its slug.
PAGES = {**{rules.slug: rules.slug for rules in RULE_SETS}, "which-game": "which_game"}
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
        "rule_sets": [
            (rules.slug, words.name, reverse("rules_page", args=[rules.slug])) for rules, words in RULE_SETS.items()
        ],
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


urlpatterns = [
    path("rules/", rules_index, name="rules"),
    path("rules/<slug:page>/", rules_page, name="rules_page"),
]
