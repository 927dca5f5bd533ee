"""Every rule set as the site says it, keyed by the rules object (what ``rules_for(slug)`` returns).

An entry holds a rule set's name, its options in short words (lists, the
API's words, e-mails), as the table's rules dialog lists them, as links to
the sections of its rules page, and the sentences the table page's script
shows only in this rule set. A new rule set adds its entry to `RULE_SETS`
here, beside its engine module and its bots.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..engine import Rules, rules_for

OptionPairs = Callable[[int, dict], Iterable[tuple[str, str]]]  # (players, options) -> pairs of words


@dataclass(frozen=True)
class RuleSetWords:
    """What the site says of one rule set."""

    name: str  # the game's own Romanian name, the same in every language
    phrases: Callable[[int, dict], Iterable[str]]  # each option in a few words
    rows: OptionPairs  # (what, how it plays) for the table's rules dialog
    anchors: OptionPairs  # (words, section id of its rules page) for each option the table plays with
    table_text: Callable[[], dict[str, str]] = dict  # sentences the table page's script shows only in this rule set


def yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


# --- septica --------------------------------------------------------------------------
EIGHTS_OUT_PLAYERS = (3, 5, 6)  # two eights are taken out, so they may cut
TEAM_PLAYERS = (4, 6)

MATCH_FORMATS = {
    "points-8": gettext_lazy("to 8 points"),
    "points-21": gettext_lazy("to 21 points"),
    "best-of-3": gettext_lazy("best of 3 games"),
    "best-of-5": gettext_lazy("best of 5 games"),
    "first-to-10": gettext_lazy("first to 10 games"),
}
MATCHES_IN_FULL = {
    "points-8": gettext_lazy("first to 8 points (if several pass 8 in one deal, the highest total wins)"),
    "points-21": gettext_lazy("first to 21 points (if several pass 21 in one deal, the highest total wins)"),
    "best-of-3": gettext_lazy("best of 3 deals (a deal is won by the most points; a tied deal does not count)"),
    "best-of-5": gettext_lazy("best of 5 deals (a deal is won by the most points; a tied deal does not count)"),
    "first-to-10": gettext_lazy("first to win 10 deals (a tied deal does not count)"),
}


def septica_phrases(players: int, options: dict):
    yield MATCH_FORMATS.get(options.get("match"), options.get("match"))
    if players in EIGHTS_OUT_PLAYERS:
        yield _("eights cut (tăietură)") if options.get("eights_cut") else _("eights do not cut")
    if players in TEAM_PLAYERS:
        yield _("in teams") if options.get("teams") else _("each for themselves")


def septica_rows(players: int, options: dict):
    yield _("Match"), str(MATCHES_IN_FULL.get(options.get("match"), options.get("match")))
    yield _("Sevens cut"), _("yes, always")
    yield _("Eights cut"), yes_no(options.get("eights_cut"))
    if players in EIGHTS_OUT_PLAYERS:
        yield _("Eights taken out"), _("two, shown to everyone at each deal")
    if options.get("teams"):
        half = players // 2
        pairs = ", ".join(f"{seat + 1}+{seat + half + 1}" for seat in range(half))
        yield _("Teams"), _("yes: partners sit opposite (seats %(pairs)s)") % {"pairs": pairs}
    else:
        yield _("Teams"), _("no, everyone plays for themselves")
    yield _("Points"), _("each ten and each ace taken is worth one point")


def septica_anchors(players: int, options: dict):
    match = options.get("match", "best-of-3")
    yield str(MATCH_FORMATS.get(match, match)), f"match-{match}"
    if players in EIGHTS_OUT_PLAYERS:
        yield _("two eights taken out"), "eights-out"
        if options.get("eights_cut"):
            yield _("eights cut (tăietură)"), "eights-cut"
    if options.get("teams"):
        yield _("in teams"), "teams"


def septica_table_text() -> dict[str, str]:
    return {
        "your_turn_decide": _("Your turn: continue the trick with %(rank)s, or end it (Gata)."),
        "end": _("Gata — end the trick"),
        "removed": _("Taken out:"),
        "log_end": _("%(name)s ended the trick (Gata)"),
        "log_take_points": _("%(name)s took the trick (+%(n)s)"),
        "log_refill": _("Everyone drew back up from the stock"),
        "log_remove": _("Taken out of the deck: %(cards)s"),
    }


# --- familie --------------------------------------------------------------------------
def familie_phrases(players: int, options: dict):
    yield _("one deal")


def familie_rows(players: int, options: dict):
    yield _("Match"), _("one deal; the most points wins")
    yield _("Deck"), _("38 cards: sixes to aces and both jokers")
    yield _("Cutting"), _("the led rank, any seven or a joker cuts; a player who passes is out of that trick")
    yield _("Points"), _("each card counts its face: six 6 … ten 10, jack 11, queen 12, king 13, ace 14; jokers 0")


def familie_anchors(players: int, options: dict):
    yield _("one deal"), "match"


def familie_table_text() -> dict[str, str]:
    return {
        "your_turn_cut": _("Your turn: cut with %(rank)s, a seven or a joker, or pass."),
        "passed": _("passed"),
        "log_trick_points": _("%(name)s took the trick: %(n)s points"),
    }


# --- americana ------------------------------------------------------------------------
def americana_phrases(players: int, options: dict):
    yield _("to %(target)s points") % {"target": options.get("target")}
    yield _("with jokers") if options.get("jokers") else _("no jokers")
    if options.get("pairs"):
        yield _("J on 2, Q on 3, K on 4")
    if options.get("jacks_draw"):
        yield _("jacks make the next player take two")


def americana_rows(players: int, options: dict):
    target = options.get("target", 101)
    yield _("Match"), _("until someone reaches %(target)d points; the lowest total wins") % {"target": target}
    yield _("Jokers"), _("yes, a joker makes the next player take five") if options.get("jokers") else _("no")
    yield _("Pairs"), (_("yes: a jack may go on a two, a queen on a three, a king on a four")
                       if options.get("pairs") else _("no"))
    yield _("Jacks draw"), _("yes, a jack makes the next player take two") if options.get("jacks_draw") else _("no")
    yield _("Twos"), _("make the next player take two, unless they answer with another")
    yield _("Aces"), _("make the next player miss a turn, unless they answer with an ace")
    yield _("Sevens"), _("go on anything and name the suit to follow")


def americana_anchors(players: int, options: dict):
    yield _("to %(target)s points") % {"target": options.get("target", 101)}, "target"
    for name, words in (
        ("jokers", _("with jokers")),
        ("pairs", _("J on 2, Q on 3, K on 4")),
        ("jacks_draw", _("jacks make the next player take two")),
    ):
        if options.get(name):
            yield words, name.replace("_", "-")


def americana_table_text() -> dict[str, str]:
    return {
        "your_turn_americana": _("Your turn: play a card, or draw."),
        "pile_n": _("Pile: %(n)s"),
        "suit_in_force": _("Suit to follow:"),
        "any_suit": _("any suit (joker)"),
        "attack_draw": _("%(name)s must take %(n)s cards, or pass them on"),
        "attack_draw_you": _("You must take %(n)s cards, or pass them on"),
        "attack_skip": _("%(name)s misses a turn, unless they answer with an ace"),
        "attack_skip_you": _("You miss this turn, unless you answer with an ace"),
        "pass_skip": _("Pass — sit the turn out"),
        "draw": _("Draw a card"),
        "draw_n": _("Take the %(n)s cards waiting"),
        "went_out": _("%(name)s went out"),
        "nobody_out": _("Nobody went out"),
        "charged": _("charged %(n)s"),
        "log_seven": _("%(name)s played %(card)s and asked for %(suit)s"),
        "log_draw": _("%(name)s drew %(n)s"),
        "log_draw_written_off": _("%(name)s drew %(n)s (%(off)s written off)"),
        "log_pass_skip": _("%(name)s sat the turn out"),
        "log_pass_written_off": _("%(name)s passed; the %(n)s cards waiting are written off"),
        "log_turn_up": _("Turned up: %(card)s"),
        "log_bury": _("%(card)s went to the bottom of the stock"),
        "log_reshuffle": _("The pile was shuffled into a new stock"),
    }


# --- the registry -------------------------------------------------------------------------
# In the order the site offers them: the rules index links to them by position.
RULE_SETS: dict[Rules, RuleSetWords] = {
    rules_for("septica"): RuleSetWords(
        name="Șeptică", phrases=septica_phrases, rows=septica_rows, anchors=septica_anchors,
        table_text=septica_table_text,
    ),
    rules_for("familie"): RuleSetWords(
        name="Șeptică în familie", phrases=familie_phrases, rows=familie_rows, anchors=familie_anchors,
        table_text=familie_table_text,
    ),
    rules_for("americana"): RuleSetWords(
        name="Șeptică americană", phrases=americana_phrases, rows=americana_rows, anchors=americana_anchors,
        table_text=americana_table_text,
    ),
}
# For callers that hold a slug (a table's column, an engine sentence); a name for any other slug is the slug.
RULES_NAMES = {rules.slug: words.name for rules, words in RULE_SETS.items()}


def words_for(slug: str) -> RuleSetWords:
    return RULE_SETS[rules_for(slug)]


def rules_name(slug: str) -> str:
    return RULES_NAMES.get(slug, slug)


def options_in_words(rules: str, players: int, options: dict) -> str:
    return ", ".join(str(phrase) for phrase in words_for(rules).phrases(players, options))
