"""The rules of leaving a match fairly, as pure functions of a game's public view.

Resigning and aborting are the site's, not the engine's: the engine stays
about cards. These functions decide, from what everybody at the table can
see, whether a match is still young enough to abort alone, and what a
resignation makes of the result. The actions (games/actions/leaving.py), the
presenters (what a page may offer) and the replay check (games/replay.py)
share them, so the three can never disagree.
"""

from __future__ import annotations

from collections.abc import Collection

# Aborting alone is allowed before the second trick (septica, familie) or the fifth turn (americana).
TRICKS_BEFORE_CONSENT = 1
TURNS_BEFORE_CONSENT = 4
TURN_MOVES = frozenset({"play", "draw", "pass", "end", "take"})
# Rule sets whose scores are penalties: the lowest total is the best (as games/actions/finish.py).
LOWEST_SCORE_BEST = frozenset({"americana"})


def abort_alone_allowed(rules: str, view: dict) -> bool:
    """Whether the match is young enough for any seated person to abort it alone.

    Septica and familie: until the second trick begins (the first may be
    taken; the next lead is the line). Americana: until the fifth turn
    begins. Either way only in the first deal."""
    if view.get("finished") or view.get("deal", 0) != 0:
        return False
    log = view.get("log") or []
    if rules == "americana":
        return _turns_begun(log) <= TURNS_BEFORE_CONSENT
    taken = sum(entry.get("type") == "take" for entry in log)
    return taken < TRICKS_BEFORE_CONSENT or (taken == TRICKS_BEFORE_CONSENT and not view.get("table"))


def _turns_begun(log: list[dict]) -> int:
    """Runs of moves by one seat in the public log: each is a turn (the last may be under way)."""
    turns, last = 0, None
    for entry in log:
        if entry.get("type") in TURN_MOVES and entry.get("seat") is not None:
            if entry["seat"] != last:
                turns += 1
            last = entry["seat"]
    return turns


def sides_of(view: dict, players: int) -> list[list[int]]:
    """The sides at the table: the teams when partners play, else every seat alone."""
    teams = view.get("teams")
    return [list(team) for team in teams] if teams else [[seat] for seat in range(players)]


def ends_at_once(view: dict, players: int) -> bool:
    """Two players, or teams: a resignation ends the match (the resigner's side loses)."""
    return players == 2 or bool(view.get("teams"))


def resigned_result(scores: list, resigned: Collection[int], sides: list[list[int]]) -> dict:
    """The result of a match a resignation ended: the scores as they stood, and as winners
    every seat of a side with nobody who resigned."""
    resigned = sorted(set(resigned))
    winners = [seat for side in sides if not set(side) & set(resigned) for seat in side]
    return {"scores": list(scores), "winners": sorted(winners), "resigned": resigned}


def finished_with_resignations(rules: str, result: dict, resigned: Collection[int]) -> dict:
    """The engine's result of a free-for-all a bot played out for those who resigned:
    they never win; when only they were winning, the best of the rest win instead."""
    resigned = sorted(set(resigned))
    if not resigned or result is None:
        return result
    scores = list(result["scores"])
    winners = [seat for seat in result.get("winners") or () if seat not in resigned]
    rest = [seat for seat in range(len(scores)) if seat not in resigned]
    if not winners and result.get("winners") and rest:
        best = (min if rules in LOWEST_SCORE_BEST else max)(scores[seat] for seat in rest)
        winners = [seat for seat in rest if scores[seat] == best]
    return {**result, "winners": winners, "resigned": resigned}
