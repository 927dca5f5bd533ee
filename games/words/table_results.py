"""The words of the table page's scores panel, result dialogs, log and last
trick (static/js/table/results.js and history.js); js_strings() merges them
into the page's text."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .rulesets import MATCH_FORMATS


def table_results_strings() -> dict:
    """Sentences the results and history modules show; %(name)s fills in."""
    return {
        "team": _("Team"),
        "team_n": _("Team %(n)s"),
        "names_and": _("%(names)s and %(last)s"),
        "points": _("Points"),
        "deals_won": _("Deals won"),
        "penalty_points": _("Penalty points"),
        "final_scores": _("Final scores"),
        "out_badge": _("went out"),
        "winner": _("winner"),
        "deal_most": _("Most points this deal: %(names)s (%(n)s)"),
        "you_won": _("You won the match!"),
        "your_team_won": _("Your team won the match!"),
        "continue": _("Continue"),
        "back_to_matches": _("Back to my matches"),
        "goal_label": _("Match"),
        "match_goals": {slug: str(words) for slug, words in MATCH_FORMATS.items()},
        "familie_goal": _("one deal; the most points wins"),
        # The rules dialog's own sentence; the script fills %(name)s only.
        "americana_goal": _("until someone reaches %(target)d points; the lowest total wins").replace(
            "%(target)d", "%(target)s"),
        "log_title": _("Moves of this deal"),
        "last_trick": _("Last trick"),
        "last_trick_by": _("Taken by %(name)s"),
        "last_trick_by_points": _("Taken by %(name)s (+%(n)s)"),
        "no_last_trick": _("No trick has been taken in this deal yet."),
    }
