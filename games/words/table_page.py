"""The table page's words: its rules dialog, and the sentences its script shows
(and the tutorial's, which draws the same table)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .cards import a_rank_names, rank_names
from .durations import LONG, clock_units, duration_in_words
from .rulesets import RULE_SETS, words_for
from .table_results import table_results_strings


def rules_dialog_rows(table) -> list[tuple[str, str]]:
    """(what, how it plays) for every rule of this table, its own options among them."""
    return [
        (_("Players"), str(table.players)),
        *words_for(table.rules).rows(table.players, table.options),
        (_("Time per move"), duration_in_words(table.seconds_per_move, LONG)),
        (_("Table"), _("private: by invitation") if table.private else _("public: listed in the lobby")),
        (_("Rated or casual"), _("rated: the result changes the players' ratings") if table.rated
         else _("casual: no rating changes")),
    ]


def js_strings() -> dict:
    """Every sentence the table page's script may show, translated here; %(name)s fills in."""
    every_rule_set = {key: text for words in RULE_SETS.values() for key, text in words.table_text().items()}
    return {
        **every_rule_set,
        **table_results_strings(),
        "units": clock_units(),
        "you": _("you"),
        "your_move_tab": _("Your move"),
        "bot": _("bot"),
        "standing_in": _("bot standing in"),
        "free_seat": _("free seat"),
        "reserved": _("kept for a player"),
        "seat_n": _("Seat %(n)s"),
        "points_n": _("%(n)s pts"),
        "to_move": _("to move"),
        "holds": _("holds the trick"),
        "you_hold": _("You hold the trick"),
        "dealer": _("dealer"),
        "stock_n": _("Stock: %(n)s"),
        "trick_empty": _("No cards on the table yet"),
        "your_turn_play": _("Your turn: play a card."),
        "your_turn_take": _("You won the trick: take it (Ia)."),
        "waiting_for": _("Waiting for %(name)s."),
        "time_left": _("%(time)s left"),
        "play": _("Play"),
        "play_card": _("Play %(card)s"),
        "take": _("Ia — Take the trick"),
        "pass": _("Pass"),
        "picked": _("%(card)s picked up. Press Play, drag it to the middle, or use the arrow keys to move it."),
        "put_down": _("%(card)s put down."),
        "moved_to": _("%(card)s moved to place %(n)s."),
        "not_your_turn": _("It is not your turn."),
        "network": _("The server could not be reached; trying again."),
        "gone": _("This table is no longer available."),
        "join": _("Take a seat"),
        "leave": _("Leave the table"),
        "log_in_to_play": _("Log in to take a seat"),
        "copy": _("Copy"),
        "copied": _("Copied"),
        "invite": _("Invite link"),
        "aborted": _("This table was closed before the match started."),
        "deal_over": _("Deal %(n)s is over"),
        "match_over": _("The match is over"),
        "winners": _("Winner: %(names)s"),
        "winners_many": _("Winners: %(names)s"),
        "nobody_won": _("Nobody won this match."),
        "rematch": _("Rematch"),
        "replay": _("Watch the replay"),
        "close": _("Close"),
        "scores": _("Scores"),
        "score": _("Score"),
        "last_deal": _("Last deal"),
        "this_deal": _("This deal"),
        "player": _("Player"),
        "points_word": _("%(n)s points"),
        "deal_n": _("Deal %(n)s"),
        "log_play": _("%(name)s played %(card)s"),
        "log_cut": _("%(name)s cut with %(card)s"),
        "log_take": _("%(name)s took the trick"),
        "log_pass": _("%(name)s passed"),
        "log_deal": _("New deal"),
        "log_deal_over": _("The deal is over"),
        "rank_names": {rank: name for rank, name in zip("23456789TJQKAX", rank_names(), strict=True)},
        "a_rank": {rank: name for rank, name in zip("23456789TJQKAX", a_rank_names(), strict=True)},
        "suit_names": {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")},
        "card_name": _("%(rank)s of %(suit)s"),
        "red_joker": _("red joker"),
        "black_joker": _("black joker"),
        "or": _("or"),
        "no_moves": _("No moves yet."),
        "add_bot": _("Add a bot"),
    }
