"""The matches the agreement test plays, run as the same source in CPython and in Pyodide.

Imports only the standard library and games.engine, so pyodide_driver.mjs can
run this file as it stands. ``digests(json)`` plays each job's match with
random legal moves drawn from ``random.Random(seed)`` and returns, per match,
one SHA-256 over every seat's and the spectator's view after every move (the
deal's first views included), the number of moves and the result.
``device_digests(json)`` plays practice matches against bots through
``practice_match.Device`` and digests every answer it gives.
"""

from __future__ import annotations

import hashlib
import json
import random

from games.engine import rules_for
from games.engine.practice_match import Device

# Each option's values, drawn at random per match; a draw the rules refuse
# (teams with 3 players...) is drawn again.
OPTION_VALUES: dict[str, dict[str, list]] = {
    "septica": {
        "eights_cut": [True, False],
        "teams": [True, False],
        # The long formats (21 points, first to 10 games) once in a while: at six players they run to thousands of moves.
        "match": ["points-8", "best-of-3", "points-8", "best-of-3", "best-of-5", "points-21", "first-to-10"],
    },
    "familie": {},
    "americana": {"jokers": [True, False], "pairs": [True, False], "jacks_draw": [True, False], "target": [101, 301]},
}
PLAY_FIRST = 0.9  # random players that draw or pass half the time make americana deals of thousands of moves


def settings(slug: str, seed: int) -> tuple[int, dict]:
    rules = rules_for(slug)
    rng = random.Random(f"settings:{slug}:{seed}")
    while True:
        players = rng.randint(rules.min_players, rules.max_players)
        options = {name: rng.choice(values) for name, values in OPTION_VALUES[slug].items()}
        try:
            return players, rules.validate_options(players, options)
        except ValueError:
            continue


def pick(rng: random.Random, moves: list[dict]) -> dict:
    plays = [move for move in moves if move["type"] == "play"]
    if plays and rng.random() < PLAY_FIRST:
        return rng.choice(plays)
    return rng.choice(moves)


def views_digest(game, players: int, digest) -> None:
    for seat in [None, *range(players)]:
        digest.update(json.dumps(game.view(seat), sort_keys=True).encode())


def play(slug: str, seed: int) -> dict:
    players, options = settings(slug, seed)
    game = rules_for(slug).new_game(players=players, options=options, seed=seed)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    views_digest(game, players, digest)
    moves = 0
    while not game.finished:
        game = game.play(pick(rng, game.legal_moves()))
        moves += 1
        views_digest(game, players, digest)
    return {"players": players, "options": options, "moves": moves, "result": game.result, "digest": digest.hexdigest()}


def digests(request: str) -> str:
    """``[[slug, seed], ...]`` -> one ``play`` answer per match, in order."""
    return json.dumps([play(slug, seed) for slug, seed in json.loads(request)])


def device_match(slug: str, seed: int, level: str) -> dict:
    """A practice match through the device's calls: the person plays at random, the bots choose."""
    players, options = settings(slug, seed)
    seats = [{"kind": "you"}] + [
        {"kind": "bot", "level": level, "style": style, "name": f"Bot {seat}"}
        for seat, style in zip(range(1, players), ["balanced", "cautious", "aggressive", "team", "expert"], strict=False)
    ]
    device = Device("agreement")
    rng = random.Random(seed)
    digest = hashlib.sha256()
    reply = device.start({"rules": slug, "players": players, "options": options, "seed": seed, "seats": seats})
    while True:
        digest.update(json.dumps(reply, sort_keys=True).encode())
        answer = reply["answer"]
        if answer["finished"]:
            return {"moves": answer["seq"], "result": answer["result"], "digest": digest.hexdigest()}
        mine = answer["to_move"] == 0
        reply = device.play(pick(rng, answer["view"]["legal_moves"])) if mine else device.bot_move()


def device_digests(request: str) -> str:
    """``[[slug, seed, level], ...]`` -> one ``device_match`` answer per match (levels without a time budget)."""
    return json.dumps([device_match(slug, seed, level) for slug, seed, level in json.loads(request)])
