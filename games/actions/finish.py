"""A match's end, as the players/ app keeps it: each seat's place, and each person's outcome and rating.

`record_finished` runs inside the transaction that ends the match (the last
move in moves.py `_store`, or a resignation in leaving.py), under the match's
lock, so a rated match changes its people's ratings exactly once, and only if
its end is stored. A moderator's abort never comes here: an aborted match
leaves no outcome.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from django.db.models import Count, Max

from players.outcomes import SeatResult, record_match, side_of

from ..models import Actor, Match, Move, Seat, Table
from . import on_commit

# Rule sets whose scores are penalties: the lowest total is the best.
LOWEST_SCORE_BEST = frozenset({"americana"})


def places_of(rules: str, result: dict, players: int, teams: bool, resigned_seats: Collection[int] = ()) -> list[int]:
    """Each seat's place (1 the best; sides that tie share a place, counted as a competition counts:
    1, 1, 3), from the engine's result: the winners first, then by score (the highest, or in
    americana the lowest penalty), and the sides with a seat that resigned share the last place."""
    resigned = set(resigned_seats) | set(result.get("resigned") or ())
    winners = set(result.get("winners") or ())
    scores = result["scores"]
    sign = 1 if rules in LOWEST_SCORE_BEST else -1
    seats_of: dict[int, list[int]] = {}
    for seat in range(players):
        seats_of.setdefault(side_of(seat, players, teams), []).append(seat)

    def rank_key(seats: list[int]) -> tuple:
        if any(seat in resigned for seat in seats):
            return (True,)  # every side that resigned shares the last place, whatever its cards
        # Partners hold the same score; the side's best seat speaks for it all the same.
        return (False, not any(seat in winners for seat in seats), min(sign * scores[seat] for seat in seats))

    keys = {side: rank_key(seats) for side, seats in seats_of.items()}
    place_of_side = {side: 1 + sum(other < key for other in keys.values()) for side, key in keys.items()}
    return [place_of_side[side_of(seat, players, teams)] for seat in range(players)]


def record_finished(match: Match, table: Table, seats: Sequence[Seat]) -> bool:
    """Store the finished match's outcomes (and ratings, on a rated table); False when already stored."""
    teams = bool(table.options.get("teams"))
    resigned = {seat.number for seat in seats if seat.resigned}
    places = places_of(table.rules, match.result, table.players, teams, resigned)
    winning_sides = {side_of(seat, table.players, teams) for seat in match.result.get("winners") or ()}
    stood_in = _stood_in_turns(match, resigned)
    results = [
        SeatResult(
            # A bot standing in for a person plays for them: the seat's result stays theirs.
            user_id=seat.user_id, seat=seat.number, side=side_of(seat.number, table.players, teams),
            place=places[seat.number], won=side_of(seat.number, table.players, teams) in winning_sides,
            resigned=seat.number in resigned or seat.number in (match.result.get("resigned") or ()),
            stood_in_turns=stood_in.get(seat.number, 0),
        )
        for seat in seats
    ]
    on_commit.match_finished(match.pk, [(result.user_id, result.won) for result in results if result.user_id])
    return record_match(match.pk, table.rules, match.finished_at, results, rated=table.rated)


def _stood_in_turns(match: Match, resigned: Collection[int]) -> dict[int, int]:
    """Per seat, the moves a bot made for its person after their time ran out (one query).

    A resigned seat's bot plays on because they resigned, a fair way to leave:
    only the timeouts before their own last move count for them."""
    counts = dict(
        Move.objects.filter(match=match, actor=Actor.TIMEOUT).values("seat").annotate(n=Count("pk"))
        .values_list("seat", "n")
    )
    for seat in resigned:
        last_own = Move.objects.filter(match=match, seat=seat, actor=Actor.PERSON).aggregate(seq=Max("seq"))["seq"]
        counts[seat] = 0 if last_own is None else Move.objects.filter(
            match=match, seat=seat, actor=Actor.TIMEOUT, seq__lt=last_own).count()
    return counts
