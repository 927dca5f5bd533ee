"""Every step's script, played through the real engine: legal, and it reaches its end.

Where a turn accepts several moves (any seven, any card) every accepted move
is tried, so no choice the page allows can strand the learner.
"""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, rules_for
from tutorial import lesson
from tutorial.script import SEPTICA_CARDS, You, americana_deal, septica_deal
from tutorial.scripts import GAMES

ALL_STEPS = [pytest.param(step, id=f"{game}-{step.slug}") for game, steps in GAMES.items() for step in steps]


def every_path(position: lesson.Position, limit: int = 500):
    """Each finished position reachable by the moves the step accepts (depth first)."""
    if position.done:
        yield position
        return
    fits = position.fits()
    assert fits, f"{position.step.slug}: turn {position.at} accepts no legal move"
    for move in fits[:limit]:
        yield from every_path(lesson.apply(position, move), limit)


@pytest.mark.parametrize("step", ALL_STEPS)
def test_every_accepted_path_through_the_step_is_legal_and_reaches_its_end(step):
    ends = list(every_path(lesson.start(step)))
    assert ends
    for end in ends:
        assert end.at == len(step.script)


@pytest.mark.parametrize("step", ALL_STEPS)
def test_the_step_is_dealt_from_its_fixed_deck_whatever_the_seed(step):
    def dealt(seed):  # a ValueError unless the step's deck is a whole deck of its game
        game = rules_for(step.rules).new_game(players=step.players, options=step.options, seed=seed,
                                              decks=[list(step.deck)])
        return [game.view(seat)["hand"] for seat in range(step.players)]

    hands = dealt(0)
    assert hands == dealt(99)
    size = len(hands[0])  # one card at a time round the table, seat 0 first
    assert hands == [list(step.deck[seat: size * step.players: step.players]) for seat in range(step.players)]


@pytest.mark.parametrize("step", ALL_STEPS)
def test_each_step_has_its_words_in_english_and_romanian(step):
    texts = [step.title, step.intro, step.learned]
    texts += [text for turn in step.script if isinstance(turn, You) for text in turn.texts()]
    for text in texts:
        assert set(text) == {"en", "ro"}
        assert text["en"].strip() and text["ro"].strip() and text["en"] != text["ro"]


def test_the_tutorial_has_twelve_septica_steps_and_six_americana_steps():
    assert [step.slug for step in GAMES["septica"]] == [
        "leading", "cutting-with-a-seven", "cutting-with-the-led-rank", "continuing", "saying-end", "taking",
        "points", "refilling", "last-tricks", "eights-with-three", "teams", "the-match",
    ]
    assert len(GAMES["americana"]) >= 6


def test_the_match_step_ends_the_match_with_the_learner_winning():
    step = GAMES["septica"][-1]
    end = next(every_path(lesson.start(step)))
    assert end.game.finished
    assert end.game.result["winners"] == [step.seat]


def test_the_last_tricks_step_plays_the_deal_out():
    step = next(step for step in GAMES["septica"] if step.slug == "last-tricks")
    end = next(every_path(lesson.start(step)))
    assert end.game.view(step.seat)["last_deal"]["points"] == [6, 0, 0, 0, 0, 2]


def test_a_step_refuses_a_legal_move_it_does_not_teach_and_keeps_the_position():
    step = next(step for step in GAMES["septica"] if step.slug == "saying-end")
    position = lesson.apply(lesson.start(step), {"type": "play", "card": "9C"})
    with pytest.raises(lesson.WrongMove):
        lesson.apply(position, {"type": "play", "card": "7S"})  # legal: a seven continues the trick
    with pytest.raises(IllegalMove):
        lesson.apply(position, {"type": "play", "card": "KH"})  # a king cannot continue a trick of nines
    assert lesson.apply(position, {"type": "end"}).done


def test_a_replay_refuses_earlier_moves_the_step_never_accepted():
    step = GAMES["septica"][0]
    with pytest.raises(lesson.OffScript, match="Move 1"):
        lesson.replay(step, [{"type": "take"}])


def test_a_deck_helper_refuses_a_repeated_card():
    with pytest.raises(ValueError, match="repeats"):
        septica_deal([["7H", "7H", "8C", "9C"], ["TC", "JC", "QC", "KC"]])
    with pytest.raises(ValueError, match="buried"):
        americana_deal([["3H", "4H", "5H", "6H", "8H"], ["3C", "4C", "5C", "6C", "8C"]], top="7S")
    assert len(septica_deal([list(SEPTICA_CARDS[:4]), list(SEPTICA_CARDS[4:8])])) == 32
