"""One practice match held on a person's own device, against bots, in JSON-ready dicts.

The browser runs this module in Pyodide inside a Web Worker (static/js/practice/
engine-worker.js); CPython runs it in the tests. It is the whole of what the
page may learn of the match: every answer carries the view of seat 0 (the
person) and nothing built from ``to_state()`` or another seat's hand. The
saved record does hold the full state, because it never leaves the device and
a reload must continue the same deal; the worker stores it and never hands it
to the page.

    device = Device(engine_version)
    device.start({"rules", "players", "options", "seed", "seats"})  # -> Reply
    device.play(move)            # the person's move (seat 0)
    device.bot_move()            # the bot to move plays one move, chosen from its own view
    device.resume(record)        # a saved record: its state, else its moves replayed, else "cannot-load"
    device.forget()

Each call returns a ``Reply``: ``{"answer": {...}, "record": {...} | None}``.
``record`` is set when the match changed and must be saved before the answer
is shown. A refusal is an answer with ``"error": {"code", "params"}`` and an
unchanged match. ``handle(json)`` is the same calls as one JSON text in and
one out, which is how the worker talks to it.
"""

from __future__ import annotations

import json
import random
from typing import Any

from . import RULESETS, rules_for
from .base import Game, Rules, plain_move
from .bots import LEVELS, STYLES, choose_move
from .errors import BadOptions, IllegalMove

FORMAT = 1  # of the saved record; a record of another format is not read
YOU = 0  # the person's seat: the page shows this seat's view and nobody else's
# The Expert's thinking time on the device: Pyodide runs its search 1.6 to 2
# times slower than the server's CPython, so twice the server's 400 ms thinks
# about as deep there, and still answers within the second a player should wait
# (the figures are in the README's "Figures behind the code"). A budget is time,
# not rounds: a slower phone thinks as long, a little less deeply. The Master
# gets the same: its server's 600 ms, doubled, would keep a phone's player
# waiting past that second.
EXPERT_BUDGET_MS = 800.0
MAX_NAME = 40  # characters of a seat's name


class PracticeError(Exception):
    """A request the match refuses: a stable ``code`` and the ``params`` a sentence about it names."""

    def __init__(self, code: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.params = {} if params is None else params

    def as_json(self) -> dict:
        return {"code": self.code, "params": self.params}


def bot_rng(seed: int, seq: int) -> random.Random:
    """A bot's dice for the move at ``seq``: the same on every device and every reload."""
    return random.Random(f"practice-bot:{seed}:{seq}")


class PracticeMatch:
    """A match in progress: the settings it began with, every move since, and the game they lead to."""

    def __init__(self, rules: Rules, seed: int, seats: list[dict], game: Game, moves: list[dict]) -> None:
        self.rules, self.seed, self.seats, self.game, self.moves = rules, seed, seats, game, moves

    @classmethod
    def start(cls, settings: Any) -> PracticeMatch:
        if not isinstance(settings, dict):
            raise PracticeError("bad-settings", {"field": "settings"})
        slug = settings.get("rules")
        if not isinstance(slug, str) or slug not in RULESETS:
            raise PracticeError("unknown-rules", {"rules": str(slug)})
        rules = rules_for(slug)
        players = settings.get("players")
        if type(players) is not int:
            raise PracticeError("bad-settings", {"field": "players"})
        options = settings.get("options") or {}
        try:
            options = rules.validate_options(players, options)
        except BadOptions as refusal:
            raise PracticeError(refusal.code, refusal.params) from None
        except ValueError:
            raise PracticeError("bad-options", {"rules": rules.slug}) from None
        seed = settings.get("seed")
        if type(seed) is not int or not 0 <= seed < 2**53:
            raise PracticeError("bad-settings", {"field": "seed"})
        seats = check_seats(settings.get("seats"), players)
        game = rules.new_game(players=players, options=options, seed=seed)
        return cls(rules, seed, seats, game, [])

    # --- moves ------------------------------------------------------------
    def play(self, move: Any) -> dict:
        """The person's move; the played move as a plain dict."""
        self._require_turn("you")
        try:
            self.game = self.game.play(move)
        except IllegalMove as refusal:
            raise PracticeError(refusal.code, refusal.params) from None
        played = plain_move(move)  # it played, so it is a mapping of the rules' own keys
        self.moves.append(played)
        return played

    def bot_move(self) -> dict:
        """The bot to move plays one move, chosen from its own seat's view and nothing else."""
        seat = self._require_turn("bot")
        bot = self.seats[seat]
        view = self.game.view(seat)
        move = choose_move(
            view, bot["level"], bot["style"], bot_rng(self.seed, len(self.moves)), budget_ms=EXPERT_BUDGET_MS
        )
        self.game = self.game.play(move)
        self.moves.append(move)
        return move

    def _require_turn(self, kind: str) -> int:
        seat = self.game.to_move
        if seat is None:
            raise PracticeError("match-over")
        if self.seats[seat]["kind"] != kind:
            raise PracticeError("not-your-turn" if kind == "you" else "not-a-bot-turn", {"seat": seat})
        return seat

    # --- what leaves the engine -----------------------------------------------
    def answer(self, moved: dict | None = None) -> dict:
        """What the page may know: seat 0's view and the match's public facts."""
        game = self.game
        return {
            "view": game.view(YOU),
            "seq": len(self.moves),
            "to_move": game.to_move,
            "finished": game.finished,
            "result": game.result,
            "seats": [dict(seat) for seat in self.seats],
            "rules": self.rules.slug,
            "players": game.players,
            "options": dict(game.options),
            "moved": moved,
        }

    def record(self, engine_version: str) -> dict:
        """What the device keeps: enough to continue this exact deal after a reload (never shown to the page)."""
        game = self.game
        return {
            "format": FORMAT,
            "engine_version": engine_version,
            "rules": self.rules.slug,
            "players": game.players,
            "options": dict(game.options),
            "seed": self.seed,
            "seats": [dict(seat) for seat in self.seats],
            "moves": [dict(move) for move in self.moves],
            "seq": len(self.moves),
            "finished": game.finished,
            "result": game.result,
            "state": game.to_state(),
        }

    @classmethod
    def load(cls, record: Any) -> PracticeMatch:
        """The match of a saved record: its state if this engine still reads it, else its moves replayed."""
        if not isinstance(record, dict) or record.get("format") != FORMAT or not isinstance(record.get("moves"), list):
            raise PracticeError("cannot-load", loaded_params(record))
        try:
            match = cls.start(record)
        except PracticeError:
            raise PracticeError("cannot-load", loaded_params(record)) from None
        moves = [dict(move) for move in record["moves"] if isinstance(move, dict)]
        if len(moves) != len(record["moves"]):
            raise PracticeError("cannot-load", loaded_params(record))
        match.moves = moves
        try:
            match.game = match.rules.from_state(record["state"])
        except (ValueError, TypeError, KeyError, AttributeError):
            match.game = replayed(match, moves, record)
        if match.game.players != record["players"]:
            raise PracticeError("cannot-load", loaded_params(record))
        return match


def replayed(match: PracticeMatch, moves: list[dict], record: dict) -> Game:
    """The game its moves lead to from the seed, or ``cannot-load`` when one no longer plays."""
    game = match.game
    try:
        for move in moves:
            game = game.play(move)
    except ValueError:
        raise PracticeError("cannot-load", loaded_params(record)) from None
    return game


def loaded_params(record: Any) -> dict:
    """What the page may say of a record it cannot continue: which game it was."""
    if not isinstance(record, dict):
        return {}
    params = {key: record[key] for key in ("rules", "players", "seq") if isinstance(record.get(key), (str, int))}
    if isinstance(record.get("engine_version"), str):
        params["engine_version"] = record["engine_version"]
    return params


def check_seats(seats: Any, players: int) -> list[dict]:
    """Normalised seats: seat 0 is the person, every other seat a bot with a known level and style."""
    if not isinstance(seats, list) or len(seats) != players:
        raise PracticeError("bad-seats", {"players": players})
    normal = []
    for index, seat in enumerate(seats):
        kind = seat.get("kind") if isinstance(seat, dict) else None
        if kind != ("you" if index == YOU else "bot"):
            raise PracticeError("bad-seats", {"seat": index})
        name = seat.get("name")
        if name is not None and (not isinstance(name, str) or len(name) > MAX_NAME):
            raise PracticeError("bad-seats", {"seat": index})
        entry: dict[str, Any] = {"kind": kind, "name": name}
        if kind == "bot":
            if seat.get("level") not in LEVELS:
                raise PracticeError("bad-bot-level", {"seat": index, "levels": list(LEVELS)})
            if seat.get("style") not in STYLES:
                raise PracticeError("bad-bot-style", {"seat": index, "styles": list(STYLES)})
            entry.update(level=seat["level"], style=seat["style"])
        normal.append(entry)
    return normal


class Device:
    """The one practice match of this device, if any, behind calls that each return a ``Reply``."""

    def __init__(self, engine_version: str) -> None:
        self.engine_version = engine_version
        self.match: PracticeMatch | None = None

    def start(self, settings: Any) -> dict:
        try:
            match = PracticeMatch.start(settings)
        except PracticeError as refusal:
            return {"answer": {"error": refusal.as_json()}, "record": None}
        self.match = match
        return self._changed(None)

    def play(self, move: Any) -> dict:
        return self._move(lambda match: match.play(move))

    def bot_move(self) -> dict:
        return self._move(lambda match: match.bot_move())

    def _move(self, make) -> dict:
        match = self.match
        if match is None:
            return {"answer": {"error": {"code": "no-match", "params": {}}}, "record": None}
        try:
            moved_seat = match.game.to_move
            move = make(match)
        except PracticeError as refusal:
            return {"answer": {**match.answer(), "error": refusal.as_json()}, "record": None}
        return self._changed({"seat": moved_seat, "move": move})

    def resume(self, record: Any) -> dict:
        try:
            self.match = PracticeMatch.load(record)
        except PracticeError as refusal:
            self.match = None
            return {"answer": {"error": refusal.as_json()}, "record": None}
        except Exception:  # a record no release foresaw is a match that is over, never a crash
            self.match = None
            return {"answer": {"error": {"code": "cannot-load", "params": loaded_params(record)}}, "record": None}
        return self._changed(None)

    def forget(self) -> dict:
        self.match = None
        return {"answer": None, "record": None}

    def _changed(self, moved: dict | None) -> dict:
        assert self.match is not None
        return {"answer": self.match.answer(moved), "record": self.match.record(self.engine_version)}

    def handle(self, request: str) -> str:
        """One call as JSON text: ``{"op": "start"|"play"|"bot_move"|"resume"|"forget", "arg": ...}``."""
        call = json.loads(request)
        op, arg = call.get("op"), call.get("arg")
        if op == "start":
            reply = self.start(arg)
        elif op == "play":
            reply = self.play(arg)
        elif op == "bot_move":
            reply = self.bot_move()
        elif op == "resume":
            reply = self.resume(arg)
        elif op == "forget":
            reply = self.forget()
        else:
            reply = {"answer": {"error": {"code": "unknown-call", "params": {"op": str(op)}}}, "record": None}
        return json.dumps(reply)
