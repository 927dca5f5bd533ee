"""A practice match on the device (games/engine/practice_match.py), in CPython.

What the page receives is seat 0's view and nothing else; the bots choose from
their own seat's view; a saved record continues the match after a reload, from
its state or by replaying its moves, and a record no engine can continue is a
clear "cannot-load", never a crash; a refused move changes nothing.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from games.engine import practice_match, rules_for
from games.engine.practice_match import EXPERT_BUDGET_MS, Device

VERSION = "0123456789abcdef"


def bots(count: int, level: str = "medium") -> list[dict]:
    styles = ["balanced", "cautious", "aggressive", "team", "expert"]
    return [{"kind": "you"}] + [
        {"kind": "bot", "level": level, "style": styles[seat % len(styles)], "name": f"Bot {seat}"}
        for seat in range(1, count)
    ]


def settings(rules="septica", players=2, options=None, seed=11, level="medium") -> dict:
    return {"rules": rules, "players": players, "options": options or {}, "seed": seed, "seats": bots(players, level)}


def hidden_from_you(record: dict) -> set[str]:
    """The cards seat 0 cannot see: the other hands and the stock (septica: never shown before they are played)."""
    state = record["state"]
    return {card for hand in state["hands"][1:] for card in hand} | set(state["stock"])


def cards_in(answer: dict) -> set[str]:
    text = json.dumps(answer)
    return {card for card in rules_for("septica").full_deck(4, {}) if f'"{card}"' in text}


def step(device: Device, answer: dict, rng: random.Random) -> dict:
    """One move: a random legal one of yours, or the bot's."""
    if answer["to_move"] == 0:
        return device.play(rng.choice(answer["view"]["legal_moves"]))
    return device.bot_move()


def play_out(device: Device, reply: dict, rng: random.Random, on_reply=None) -> dict:
    while not reply["answer"]["finished"]:
        if on_reply:
            on_reply(reply)
        reply = step(device, reply["answer"], rng)
        assert "error" not in reply["answer"], reply["answer"]
    return reply


def test_the_page_gets_your_view_and_never_a_hidden_card():
    device = Device(VERSION)
    reply = device.start(settings(players=4, options={"teams": True}, seed=3))
    checked = []

    def check(reply):
        answer, record = reply["answer"], reply["record"]
        assert set(answer) == {"view", "seq", "to_move", "finished", "result", "seats", "rules", "players",
                               "options", "moved"}
        assert answer["view"]["seat"] == 0
        assert answer["view"]["hand"] == record["state"]["hands"][0]
        assert not cards_in(answer) & hidden_from_you(record)
        checked.append(answer["seq"])

    last = play_out(device, reply, random.Random(1), check)
    assert last["answer"]["result"]["winners"]
    assert len(checked) > 50


def test_bots_choose_from_their_own_view_only(monkeypatch):
    seen = []
    real = practice_match.choose_move

    def spy(view, level, style, rng, **kwargs):
        seen.append((view, level, style, kwargs))
        return real(view, level, style, rng, **kwargs)

    monkeypatch.setattr(practice_match, "choose_move", spy)
    device = Device(VERSION)
    reply = device.start(settings(players=3, seed=5, level="beginner"))
    rng = random.Random(2)
    while not reply["answer"]["finished"] and len(seen) < 40:
        answer = reply["answer"]
        if answer["to_move"] == 0:
            reply = device.play(rng.choice(answer["view"]["legal_moves"]))
            continue
        seat = answer["to_move"]
        game = device.match.game
        state = game.to_state()
        reply = device.bot_move()
        view = seen[-1][0]
        assert view == game.view(seat)
        others = {card for s, hand in enumerate(state["hands"]) if s != seat for card in hand}
        assert not cards_in(view) & (others | set(state["stock"]))
        assert reply["answer"]["moved"]["seat"] == seat
    assert len(seen) == 40


@pytest.mark.parametrize("level", ["expert", "master"])
def test_the_expert_and_the_master_think_within_the_devices_budget(monkeypatch, level):
    budgets = []
    real = practice_match.choose_move
    monkeypatch.setattr(practice_match, "choose_move",
                        lambda view, level, style, rng, **kw: budgets.append((level, kw)) or real(view, level, style, rng, **kw))
    device = Device(VERSION)
    device.start(settings(seed=9, level=level))
    device.play(device.match.game.legal_moves()[0])
    device.bot_move()
    assert budgets == [(level, {"budget_ms": EXPERT_BUDGET_MS})]
    assert EXPERT_BUDGET_MS < 1000


def test_the_bots_play_the_same_moves_for_the_same_seed_and_moves():
    def match(seed):
        device = Device(VERSION)
        return play_out(device, device.start(settings("americana", 3, seed=seed)), random.Random(4))

    assert match(21) == match(21)
    assert match(21)["record"]["moves"] != match(22)["record"]["moves"]


def test_every_change_comes_with_the_record_to_save_and_the_answer_never_holds_it():
    device = Device(VERSION)
    reply = device.start(settings("familie", 3, seed=4))
    record = reply["record"]
    assert record["format"] == practice_match.FORMAT and record["engine_version"] == VERSION
    assert (record["rules"], record["players"], record["seed"], record["seq"]) == ("familie", 3, 4, 0)
    assert record["seats"][1]["level"] == "medium" and record["moves"] == [] and not record["finished"]
    assert record["state"] == device.match.game.to_state()
    move = reply["answer"]["view"]["legal_moves"][0]
    reply = device.play(move)
    assert reply["record"]["moves"] == [move] and reply["record"]["seq"] == 1
    assert reply["answer"]["moved"] == {"seat": 0, "move": move}
    assert "state" not in json.dumps(reply["answer"])


def unfinished(rules="septica", players=2, moves=7, seed=13) -> tuple[Device, dict]:
    device = Device(VERSION)
    reply = device.start(settings(rules, players, seed=seed))
    rng = random.Random(seed)
    while reply["answer"]["seq"] < moves:
        reply = step(device, reply["answer"], rng)
    return device, reply


@pytest.mark.parametrize("rules", ["septica", "familie", "americana"])
def test_a_reload_continues_from_the_saved_state(rules):
    device, reply = unfinished(rules, 3)
    resumed = Device("fedcba9876543210").resume(json.loads(json.dumps(reply["record"])))
    assert resumed["answer"] == {**reply["answer"], "moved": None}
    assert resumed["record"]["engine_version"] == "fedcba9876543210"


def test_a_state_this_engine_cannot_read_is_rebuilt_from_the_moves():
    device, reply = unfinished("americana", 4, moves=12)
    record = copy.deepcopy(reply["record"])
    record["state"]["version"] = 99  # a later state format, or a state the rules now refuse
    record["engine_version"] = "older-engine-000"
    resumed = Device(VERSION).resume(record)
    assert resumed["answer"]["view"] == reply["answer"]["view"]
    assert resumed["record"]["state"] == reply["record"]["state"]
    del record["state"]
    assert Device(VERSION).resume(record)["answer"]["view"] == reply["answer"]["view"]


@pytest.mark.parametrize(
    "spoil",
    [
        lambda record: record.update(format=0),
        lambda record: record.update(moves=[{"type": "play", "card": "XR"}] + record["moves"], state=None),
        lambda record: record.update(rules="whist"),
        lambda record: record["seats"][1].update(level="grandmaster"),
        lambda record: record.update(moves="a lot"),
        lambda record: record.update(state={"rules": "septica", "version": 1}, moves=[{"type": 3}]),
        lambda record: record.clear(),
    ],
)
def test_an_old_or_broken_record_is_over_with_a_clear_word_never_a_crash(spoil):
    device, reply = unfinished()
    record = copy.deepcopy(reply["record"])
    spoil(record)
    fresh = Device(VERSION)
    resumed = fresh.resume(record)
    assert resumed["record"] is None
    assert resumed["answer"]["error"]["code"] == "cannot-load"
    if record.get("rules") == "septica":
        assert resumed["answer"]["error"]["params"]["rules"] == "septica"
    assert fresh.bot_move()["answer"]["error"]["code"] == "no-match"


def test_records_that_are_not_records_cannot_load():
    for record in (None, "text", [], {"format": 1}):
        assert Device(VERSION).resume(record)["answer"]["error"]["code"] == "cannot-load"


def test_an_illegal_move_is_refused_with_its_rule_and_changes_nothing():
    device = Device(VERSION)
    before = device.start(settings(seed=2))["answer"]
    held = set(before["view"]["hand"])
    not_held = next(card for card in rules_for("septica").full_deck(2, {}) if card not in held)
    reply = device.play({"type": "play", "card": not_held})
    assert reply["record"] is None
    assert reply["answer"]["error"]["code"] == "card-not-held"
    assert reply["answer"]["error"]["params"]["card"] == not_held
    assert {key: value for key, value in reply["answer"].items() if key != "error"} == before
    for move in ({"type": "draw"}, {"type": "play"}, "KH", {"type": "play", "card": "KH", "x": 1}):
        assert device.play(move)["answer"]["error"]["code"] in {"unknown-move-type", "missing-card", "not-a-move",
                                                                "unexpected-key"}
    assert device.play(before["view"]["legal_moves"][0])["answer"]["seq"] == 1


def test_turns_are_kept():
    device = Device(VERSION)
    assert device.play({"type": "take"})["answer"]["error"]["code"] == "no-match"
    device.start(settings(seed=2))
    assert device.bot_move()["answer"]["error"] == {"code": "not-a-bot-turn", "params": {"seat": 0}}
    device.play(device.match.game.legal_moves()[0])
    refused = device.play({"type": "end"})
    assert refused["answer"]["error"] == {"code": "not-your-turn", "params": {"seat": 1}}
    last = play_out(device, device.bot_move(), random.Random(3))
    assert last["record"]["finished"] and last["record"]["result"] == last["answer"]["result"]
    assert device.bot_move()["answer"]["error"]["code"] == "match-over"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"rules": "poker"}, "unknown-rules"),
        ({"players": 7}, "player-count"),
        ({"players": "2"}, "bad-settings"),
        ({"options": {"teams": True}}, "teams-player-count"),
        ({"options": {"colour": "red"}}, "unknown-option"),
        ({"seed": -1}, "bad-settings"),
        ({"seed": 1.5}, "bad-settings"),
        ({"seats": [{"kind": "you"}]}, "bad-seats"),
        ({"seats": [{"kind": "bot", "level": "medium", "style": "balanced"}, {"kind": "you"}]}, "bad-seats"),
        ({"seats": [{"kind": "you"}, {"kind": "bot", "level": "godlike", "style": "balanced"}]}, "bad-bot-level"),
        ({"seats": [{"kind": "you"}, {"kind": "bot", "level": "medium", "style": "sly"}]}, "bad-bot-style"),
        ({"seats": [{"kind": "you"}, {"kind": "bot", "level": "medium", "style": "team", "name": "x" * 41}]},
         "bad-seats"),
    ],
)
def test_settings_the_rules_refuse_are_named(change, code):
    device = Device(VERSION)
    reply = device.start({**settings(), **change})
    assert reply["record"] is None
    assert reply["answer"]["error"]["code"] == code
    assert device.match is None


def test_the_worker_talks_to_it_in_json_text():
    device = Device(VERSION)
    reply = json.loads(device.handle(json.dumps({"op": "start", "arg": settings(seed=8)})))
    move = reply["answer"]["view"]["legal_moves"][0]
    played = json.loads(device.handle(json.dumps({"op": "play", "arg": move})))
    assert played["answer"]["moved"] == {"seat": 0, "move": move}
    assert json.loads(device.handle(json.dumps({"op": "bot_move"})))["answer"]["seq"] == 2
    again = json.loads(Device(VERSION).handle(json.dumps({"op": "resume", "arg": played["record"]})))
    assert again["answer"]["seq"] == 1
    assert json.loads(device.handle(json.dumps({"op": "forget"}))) == {"answer": None, "record": None}
    assert json.loads(device.handle('{"op": "shuffle"}'))["answer"]["error"]["code"] == "unknown-call"
