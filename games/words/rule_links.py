"""A table's options in words, each linked to the section of its rules page that explains it."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from .rulesets import MATCH_FORMATS


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
