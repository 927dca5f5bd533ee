"""`manage.py verify_matches` replays matches from seed and log and reports any
that differ from what is stored."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.engine import rules_for
from games.models import Match, Move, TableStatus
from games.replay import verify
from tests.play import finished_match, play_moves, seated_table

pytestmark = pytest.mark.django_db


def run(*args) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("verify_matches", *args, stdout=out)
    except SystemExit as exit:
        return exit.code, out.getvalue()
    return 0, out.getvalue()


@pytest.mark.parametrize(
    ("rules", "options"),
    [
        ("septica", {"match": "points-8"}),
        ("familie", {}),
        ("americana", {"target": 101}),
    ],
)
def test_a_match_played_to_the_end_replays_exactly(alice, bob, rules, options):
    match = finished_match(alice, [bob], rules=rules, options=options)
    assert match.table.status == TableStatus.FINISHED

    code, out = run()

    assert code == 0, out
    assert "1 matches checked, 0 differ" in out


def test_it_reports_a_move_whose_card_was_changed_with_the_first_bad_seq(alice, bob):
    match = finished_match(alice, [bob], options={"match": "points-8"})
    first_play = Move.objects.filter(match=match, move__type="play").order_by("seq").first()
    dealt = rules_for(match.table.rules).new_game(players=2, options=match.table.options, seed=int(match.seed))
    in_the_other_hand = dealt.to_state()["hands"][1 - first_play.seat][0]
    first_play.move = {"type": "play", "card": in_the_other_hand}
    first_play.save()

    code, out = run()

    assert code == 1
    assert f"match {match.pk}: DIFFERS (first differing seq {first_play.seq})" in out
    assert "1 matches checked, 1 differ" in out


def test_it_reports_a_deleted_move_as_a_gap(alice, bob):
    match = finished_match(alice, [bob], rules="familie")
    Move.objects.filter(match=match, seq=5).delete()

    code, out = run("--match", str(match.pk))

    assert code == 1
    assert "first gap at 5" in out
    assert f"the match says seq {match.seq} but {match.seq - 1} moves are logged" in out


def test_it_reports_a_result_that_was_changed(alice, bob):
    match = finished_match(alice, [bob], rules="familie")
    Match.objects.filter(pk=match.pk).update(result={"scores": [999, 0], "winners": [0]})

    code, out = run()

    assert code == 1
    assert "differs from the stored" in out


def test_only_finished_matches_are_checked_unless_all_is_asked(alice, bob, charlie):
    finished_match(alice, [bob], rules="familie")
    running = play_moves(seated_table(alice, [charlie]), count=6)
    Match.objects.filter(pk=running.pk).update(state={**running.state, "points": [40, 40]})

    assert run()[0] == 0
    code, out = run("--all")

    assert code == 1
    assert f"match {running.pk}: DIFFERS" in out
    assert "the replayed state differs from the stored snapshot" in out


def test_a_running_match_agrees_with_its_snapshot(alice, bob):
    running = play_moves(seated_table(alice, [bob], rules="americana"), count=10)

    assert verify(running).ok
    assert run("--all")[0] == 0


def test_an_unknown_match_id_is_an_error(db):
    with pytest.raises(CommandError, match="no such match: 404"):
        call_command("verify_matches", "--match", "404", stdout=StringIO())


# --- matches still being played while they are checked ----------------------------------
def test_a_move_made_after_its_match_was_read_is_left_to_the_next_run(alice, bob, monkeypatch):
    from games.management.commands import verify_matches

    playing = seated_table(alice, [bob])
    play_moves(playing, count=4)

    def a_move_lands_then_verify(match):
        play_moves(playing, count=1, seed=match.seq)  # committed after the command read the match's row
        return verify(match)

    monkeypatch.setattr(verify_matches, "verify", a_move_lands_then_verify)
    code, out = run("--all")

    assert code == 0, out
    assert "1 matches checked, 0 differ" in out


@pytest.mark.django_db(transaction=True)
def test_matches_played_while_all_are_checked_agree_and_a_tampered_one_still_differs(alice, bob, charlie):
    import threading

    from django.db import connections

    checked_first = [finished_match(alice, [bob], rules="americana", options={"target": 101}, seed=seed)
                     for seed in range(3)]  # lower ids: checked before the match being played is
    tampered = play_moves(seated_table(alice, [charlie], rules="americana"), count=6)
    Move.objects.filter(match=tampered, seq=3).delete()
    playing = seated_table(bob, [charlie], rules="americana")
    stop, runs = threading.Event(), []

    def play_on():
        try:
            while not stop.is_set() and play_moves(playing, count=1, seed=len(runs)).to_move is not None:
                pass
        finally:
            connections.close_all()

    player = threading.Thread(target=play_on)
    player.start()
    try:
        while len(runs) < 10 and player.is_alive():
            runs.append(run("--all"))
    finally:
        stop.set()
        player.join()

    assert len(checked_first) == 3 and runs
    for code, out in runs:
        assert code == 1, out
        assert f"match {tampered.pk}: DIFFERS" in out and f"match {playing.pk}" not in out, out
        assert "5 matches checked, 1 differ" in out
