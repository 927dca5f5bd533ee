"""Playing a tutorial step through the real engine.

The server keeps nothing between requests: the page sends the learner's
moves so far, and every answer replays the step from its fixed deck, the
scripted opponent moves in between, up to the learner's next turn. Only the
learner's own view of the game ever leaves this module.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import Game, IllegalMove, rules_for

from .script import Step, You, opponent_move


class OffScript(ValueError):
    """The moves sent are not a path through this step (a page out of date, or made up)."""


@dataclass(frozen=True)
class Position:
    step: Step
    game: Game
    at: int  # index in the script of the learner's next turn; len(script) once the step is done
    news: tuple[dict, ...] = ()  # the moves made since the learner's last one, as everybody saw them

    @property
    def done(self) -> bool:
        return self.at >= len(self.step.script)

    @property
    def turn(self) -> You | None:
        return None if self.done else self.step.script[self.at]  # type: ignore[return-value]

    def fits(self) -> list[dict]:
        """The learner's legal moves that this turn of the step asks for."""
        turn = self.turn
        if turn is None or self.game.to_move != self.step.seat:
            return []
        return [move for move in self.game.legal_moves() if turn.accepts(move)]

    def view(self) -> dict:
        """The learner's own view, without the deal's log (the news says what just happened)."""
        view = self.game.view(self.step.seat)
        view.pop("log", None)
        return view


def start(step: Step) -> Position:
    game = rules_for(step.rules).new_game(
        players=step.players, options=step.options, seed=0, decks=[list(step.deck)]
    )
    return _run_opponents(step, game, 0)


def _run_opponents(step: Step, game: Game, at: int) -> Position:
    """Play the scripted opponent moves from ``at`` until the learner's turn or the script's end."""
    news = []
    script = step.script
    while at < len(script) and isinstance(script[at], str):
        if game.to_move == step.seat:
            raise AssertionError(f"{step.slug}: the script has an opponent move at the learner's turn ({at})")
        move = opponent_move(script[at])  # type: ignore[arg-type]
        after = game.play(move)
        news += _events(game, move, after)
        game, at = after, at + 1
    if at < len(script) and game.to_move != step.seat:
        raise AssertionError(f"{step.slug}: the script expects the learner to move at {at}, but it is not their turn")
    return Position(step, game, at, tuple(news))


class WrongMove(ValueError):
    """A legal move that this step does not teach."""


def apply(position: Position, move: dict) -> Position:
    """The learner's move, if this turn accepts it, and the scripted answers up to their next turn.

    Raises ``IllegalMove`` (the engine's reason), ``WrongMove`` (legal, but
    not what this step teaches) or ``OffScript`` (the step is over).
    """
    turn = position.turn
    if turn is None:
        raise OffScript("This step is already over.")
    after = position.game.play(move)  # IllegalMove when the rules refuse it
    if not turn.accepts(move):
        raise WrongMove("Not the move this step asks for.")
    answered = _run_opponents(position.step, after, position.at + 1)
    mine = _events(position.game, move, after)
    return Position(position.step, answered.game, answered.at, (*mine, *answered.news))


def replay(step: Step, moves: list) -> Position:
    """The position after the learner's earlier moves; each must be one the step accepted."""
    position = start(step)
    for number, move in enumerate(moves, start=1):
        try:
            position = apply(position, move)
        except (IllegalMove, WrongMove, OffScript) as error:
            raise OffScript(f"Move {number} of \"done\" is not one this step accepted: {error}") from None
    return position


def _events(before: Game, move: dict, after: Game) -> list[dict]:
    """What everybody saw of one move: who made it, and the cards it showed."""
    seat = before.to_move
    event = {"seat": seat, "type": move["type"]}
    if "card" in move:
        event["card"] = move["card"]
    if "suit" in move:
        event["suit"] = move["suit"]
    shown = before.view(None)
    if move["type"] == "take":
        taken = [played["card"] for played in shown["table"]]
        event["points"] = sum(1 for code in taken if code[0] in "TA")
    if move["type"] == "pass":
        event["skip"] = (shown.get("attack") or {}).get("kind") == "skip"
    if move["type"] == "draw":
        event["count"] = after.view(None)["hand_counts"][seat] - shown["hand_counts"][seat]
    events = [event]
    if after.view(None)["deal"] != shown["deal"] or after.finished:
        events.append({"seat": None, "type": "deal_over"})
    return events
