"""The rules engine's refusals in the reader's language.

The engine refuses a move with `IllegalMove`: an English sentence for
scripts, a `code` naming the rule and `params` (card codes, 0-based seats,
counts). People read the words made here from the code and the params,
never from the sentence, with cards as faces (A♥, 10♠, jokers by name) and
seats by the players' names. Table options the rules refuse come as
`BadOptions`, with a code and params too. A refusal with no words here
reads as the engine's sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .cards import RANKS, a_rank_names, card_short, suit_name

__all__ = ["WORDS", "Refusal", "card_short", "rank_list", "refusal_in_words", "suit_name"]


@dataclass(frozen=True)
class Refusal:
    """One refusal as the words below read it: the engine's params, and who sits where."""

    params: Mapping[str, Any]
    names: Mapping[int, str | None] = field(default_factory=dict)
    reader: int | None = None  # the reader's own seat, named "you"

    def card(self, key: str = "card") -> str:
        return card_short(self.params[key])

    def count(self) -> int:
        return self.params["count"]

    def by_reader(self) -> bool:
        return self.reader is not None and self.params["seat"] == self.reader

    def seat_name(self) -> str:
        seat = self.params["seat"]
        return self.names.get(seat) or _("seat %(n)s") % {"n": seat + 1}  # people count seats from 1


def refusal_in_words(refusal: ValueError, names: Mapping[int, str | None] | None = None,
                     reader: int | None = None) -> str:
    """What the reader should read for the engine's `refusal`.

    `names` maps seat numbers to the players' shown names; `reader` is the
    seat of the person reading, whose own seat the words call "you".
    """
    code = getattr(refusal, "code", None)
    words = WORDS.get(code) if isinstance(code, str) else None
    if words is None:
        return str(refusal)
    try:
        return words(Refusal(getattr(refusal, "params", {}), names or {}, reader))
    except (KeyError, TypeError, ValueError, IndexError):  # params not as the engine documents them
        return str(refusal)


def rank_list(ranks: list[str]) -> str:
    """ "a king, a seven or an eight" in the reader's language, each rank once."""
    names = dict(zip(RANKS, a_rank_names(), strict=True))
    said = [names[rank] for rank in dict.fromkeys(ranks)]
    if len(said) == 1:
        return said[0]
    return _("%(first)s or %(last)s") % {"first": ", ".join(said[:-1]), "last": said[-1]}


def draw_answers(refusal: Refusal) -> str:
    """The cards that may answer a draw; the engine does not name them yet, so then a phrase that holds for any table."""
    if "ranks" in refusal.params:
        return rank_list(refusal.params["ranks"])
    return _("a card that makes the next player draw")


# --- septica ------------------------------------------------------------------
def take_before_leader_decides(refusal: Refusal) -> str:
    if refusal.by_reader():
        return _("The trick is not over yet: continue it or end it (Gata) first.")
    return _("The trick is not over yet: %(name)s must continue it or end it (Gata) first.") % {
        "name": refusal.seat_name()}


def take_mid_round(refusal: Refusal) -> str:
    if refusal.by_reader():
        return _("The trick is not over yet: you still have to play a card.")
    return _("The trick is not over yet: %(name)s still has to play a card.") % {"name": refusal.seat_name()}


def trick_must_be_taken(refusal: Refusal) -> str:
    if refusal.by_reader():
        return _("The trick is over and it is yours: take it (Ia) first.")
    return _("The trick is over: %(name)s won it and must take it first.") % {"name": refusal.seat_name()}


def end_not_allowed(refusal: Refusal) -> str:
    if refusal.by_reader():
        return _("Only the leader can end a trick (Gata), after a full round that an opponent won: play a card now.")
    return _("Only the leader can end a trick (Gata), after a full round that an opponent won: "
             "now %(name)s must play a card.") % {"name": refusal.seat_name()}


def cannot_continue(refusal: Refusal) -> str:
    return _("You cannot continue the trick with %(card)s: continue with %(ranks)s, or end it (Gata).") % {
        "card": refusal.card(), "ranks": rank_list(refusal.params["ranks"])}


# --- familie ------------------------------------------------------------------
def does_not_cut(refusal: Refusal) -> str:
    return _("You cannot cut with %(card)s: play %(ranks)s, or pass.") % {
        "card": refusal.card(), "ranks": rank_list([refusal.params["led_rank"], "7", "X"])}


# --- americana ----------------------------------------------------------------
def seven_cannot_answer_draw(refusal: Refusal) -> str:
    return ngettext(
        "Not even a seven answers a draw: take the %(n)s card or pass the draw on with %(ranks)s.",
        "Not even a seven answers a draw: take the %(n)s cards or pass them on with %(ranks)s.",
        refusal.count(),
    ) % {"n": refusal.count(), "ranks": draw_answers(refusal)}


def cannot_answer_draw(refusal: Refusal) -> str:
    return ngettext(
        "You cannot answer a draw of %(n)s card with %(card)s: only %(ranks)s can. Otherwise take it.",
        "You cannot answer a draw of %(n)s cards with %(card)s: only %(ranks)s can. Otherwise take them.",
        refusal.count(),
    ) % {"n": refusal.count(), "card": refusal.card(), "ranks": draw_answers(refusal)}


def cannot_pass_draw(refusal: Refusal) -> str:
    return ngettext(
        "You cannot pass while a draw is on you: take the %(n)s card or pass the draw on with %(ranks)s.",
        "You cannot pass while a draw is on you: take the %(n)s cards or pass them on with %(ranks)s.",
        refusal.count(),
    ) % {"n": refusal.count(), "ranks": draw_answers(refusal)}


def cannot_answer_skip(refusal: Refusal) -> str:
    return _("You cannot answer a skip with %(card)s: only an ace can. Otherwise sit the turn out (pass).") % {
        "card": refusal.card()}


def does_not_follow(refusal: Refusal) -> str:
    return _("You cannot play %(card)s on %(top)s: play a card of %(suit)s, or one of the same rank.") % {
        "card": refusal.card(), "top": refusal.card("top"), "suit": suit_name(refusal.params["suit"])}


# --- any rule set: the shape of a move (what a script sent) ---------------------
def unknown_move_type(refusal: Refusal) -> str:
    return _("Unknown move type; here a move is one of: %(types)s.") % {"types": ", ".join(refusal.params["types"])}


def unexpected_key(refusal: Refusal) -> str:
    return _("A %(type)s move has no \"%(key)s\".") % {"type": refusal.params["type"], "key": refusal.params["key"]}


def missing_card(refusal: Refusal) -> str:
    return _("A %(type)s move needs a \"card\".") % {"type": refusal.params["type"]}


# --- table options (what the create form or a script asked for) ------------------
# In English these read exactly as the engine's sentences, which scripts have always read.
def unknown_option(refusal: Refusal) -> str:
    return _("Unknown option '%(option)s' for %(rules)s; the options are: %(known)s.") % {
        "option": refusal.params["option"], "rules": refusal.params["rules"],
        "known": ", ".join(refusal.params["known"]) or _("none")}


OPTION_WORDS: dict[str, Callable[[Refusal], str]] = {
    "options-not-object": lambda refusal: _("Options must be an object of option names and values."),
    "unknown-option": unknown_option,
    "players-not-a-number": lambda refusal: _("The number of players must be a whole number."),
    "player-count": lambda refusal: _("%(rules)s is played by %(low)s to %(high)s players, not %(n)s.") % {
        "rules": refusal.params["rules"], "low": refusal.params["low"], "high": refusal.params["high"],
        "n": refusal.params["players"]},
    "option-not-boolean": lambda refusal: _("The option '%(option)s' must be true or false, not %(value)s.") % {
        "option": refusal.params["option"], "value": refusal.params["value"]},
    "eights-cut-player-count": lambda refusal: _(
        "Eights cut only with 3, 5 or 6 players, where two eights are taken out; not with %(n)s.") % {
        "n": refusal.params["players"]},
    "teams-player-count": lambda refusal: _("Teams play only with 4 or 6 players, not with %(n)s.") % {
        "n": refusal.params["players"]},
    "unknown-match-format": lambda refusal: _("Unknown match format %(value)s; choose one of: %(formats)s.") % {
        "value": refusal.params["value"], "formats": ", ".join(refusal.params["formats"])},
    "target-not-allowed": lambda refusal: _("The target must be 101, 301 or 501, not %(value)s.") % {
        "value": refusal.params["value"]},
}


# Every code the engine can refuse a move or table options with (tests/words checks the engine's source against it).
WORDS: dict[str, Callable[[Refusal], str]] = {
    **OPTION_WORDS,
    "illegal-move": lambda refusal: _("That move is not allowed now."),
    "match-over": lambda refusal: _("The match is over: no more moves can be made."),
    "card-not-held": lambda refusal: _("You do not hold %(card)s.") % {"card": refusal.card()},
    "not-a-move": lambda refusal: _("A move must be an object with a \"type\"."),
    "unknown-move-type": unknown_move_type,
    "unexpected-key": unexpected_key,
    "missing-card": missing_card,
    "not-a-card": lambda refusal: _("That is not a card: a card is its rank, then its suit."),
    "not-a-suit": lambda refusal: _("That is not a suit: name one of C, D, H, S."),
    # septica
    "take-before-leader-decides": take_before_leader_decides,
    "take-mid-round": take_mid_round,
    "trick-must-be-taken": trick_must_be_taken,
    "end-not-allowed": end_not_allowed,
    "cannot-continue": cannot_continue,
    # familie
    "take-before-trick-over": lambda refusal: _("The trick is not over yet, so nobody can take it."),
    "leader-cannot-pass": lambda refusal: _("You lead this trick, so you cannot pass: play any card from your hand."),
    "does-not-cut": does_not_cut,
    # americana
    "seven-needs-suit": lambda refusal: _("Name the suit to follow when you play %(card)s.") % {
        "card": refusal.card()},
    "only-seven-names-suit": lambda refusal: _("Only a seven names a suit: play %(card)s without one.") % {
        "card": refusal.card()},
    "seven-cannot-answer-draw": seven_cannot_answer_draw,
    "cannot-answer-draw": cannot_answer_draw,
    "seven-cannot-answer-skip": lambda refusal: _(
        "Not even a seven answers a skip: sit the turn out (pass) or hand it on with an ace."),
    "cannot-answer-skip": cannot_answer_skip,
    "does-not-follow": does_not_follow,
    "skip-cannot-draw": lambda refusal: _(
        "You are missing this turn: sit it out (pass) or hand the skip on with an ace; you cannot draw."),
    "nothing-to-draw": lambda refusal: _("There is nothing left to draw: play a card if you can, otherwise pass."),
    "cannot-pass-draw": cannot_pass_draw,
    "pass-while-stock": lambda refusal: _("You may pass only when nothing can be drawn: draw a card instead."),
    "pass-while-playable": lambda refusal: _("You may pass only when you have nothing to play, and a card of yours fits."),
}
