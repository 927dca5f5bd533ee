"""What the refusal tests share: the engine's codes read from its source, and what a player must never read."""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Iterator
from pathlib import Path

import games.engine
from games.engine import IllegalMove

ENGINE = Path(games.engine.__file__).parent
DEFAULT_CODE = inspect.signature(IllegalMove.__init__).parameters["code"].default

# A card code (rank then suit), as the engine writes it: no player should read one.
RAW_CARD = re.compile(r"\b[2-9TJQKAX][CDHSRB]\b")
# Seats as the engine counts them, from 0; people count from 1 and read names.
ZERO_SEAT = re.compile(r"\b(?:[Ss]eat|[Ll]ocul) 0\b")
# English a Romanian reader should not meet (the words a sentence is made of, and the ranks named in it).
ENGLISH_LEFT = re.compile(
    r"\b(?:or|and|the|you|seat|cannot|trick|card|cards"
    r"|an? (?:two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace|joker))\b"
)


def codes_raised_in(path: Path) -> Iterator[tuple[str, str]]:
    """(code, where) for every `IllegalMove(...)` and `BadOptions(...)` written in that file; a code that is not a
    literal is an error."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _called_name(node.func) in ("IllegalMove", "BadOptions")):
            continue
        where = f"{path}:{node.lineno}"
        code = node.args[1] if len(node.args) > 1 else next((kw.value for kw in node.keywords if kw.arg == "code"), None)
        unpacked = any(isinstance(arg, ast.Starred) for arg in node.args) or any(kw.arg is None for kw in node.keywords)
        if code is None and not unpacked:
            yield DEFAULT_CODE, where
        elif isinstance(code, ast.Constant) and isinstance(code.value, str):
            yield code.value, where
        else:
            raise AssertionError(f"{where}: the refusal's code is not written out, so no test can know it has words")


def engine_codes() -> dict[str, list[str]]:
    """Every code the engine can refuse a move or table options with, and where each is raised."""
    found: dict[str, list[str]] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        for code, where in codes_raised_in(path):
            found.setdefault(code, []).append(where)
    return found


def _called_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None
