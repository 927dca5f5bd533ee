"""What each rule set is called on the site, and its options in plain words."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# The games' own Romanian names, as the table page shows them.
RULES_NAMES = {"septica": "Șeptică", "familie": "Șeptică în familie", "americana": "Șeptică americană"}

MATCH_FORMATS = {
    "points-8": gettext_lazy("to 8 points"),
    "points-21": gettext_lazy("to 21 points"),
    "best-of-3": gettext_lazy("best of 3 games"),
    "best-of-5": gettext_lazy("best of 5 games"),
    "first-to-10": gettext_lazy("first to 10 games"),
}


def rules_name(slug: str) -> str:
    return str(RULES_NAMES.get(slug, slug))


def options_in_words(rules: str, players: int, options: dict) -> str:
    return ", ".join(str(phrase) for phrase in _option_phrases(rules, players, options))


def _option_phrases(rules: str, players: int, options: dict):
    if rules == "septica":
        yield MATCH_FORMATS.get(options.get("match"), options.get("match"))
        if players in (3, 5, 6):
            yield _("eights cut (tăietură)") if options.get("eights_cut") else _("eights do not cut")
        if players in (4, 6):
            yield _("in teams") if options.get("teams") else _("each for themselves")
    elif rules == "familie":
        yield _("one deal")
    elif rules == "americana":
        yield _("to %(target)s points") % {"target": options.get("target")}
        yield _("with jokers") if options.get("jokers") else _("no jokers")
        if options.get("pairs"):
            yield _("J on 2, Q on 3, K on 4")
        if options.get("jacks_draw"):
            yield _("jacks make the next player take two")
