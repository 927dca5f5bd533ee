from __future__ import annotations

from typing import Any


class IllegalMove(ValueError):
    """A move the rules do not allow now; the message says why, for a person.

    ``code`` is a short stable slug naming the rule (the site words the refusal
    from it), and ``params`` the card codes, seats and counts the sentence names.
    """

    code: str
    params: dict[str, Any]

    def __init__(self, message: str, code: str = "illegal-move", params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params = {} if params is None else params

    def __reduce__(self) -> tuple:
        return IllegalMove, (str(self), self.code, self.params)


class BadOptions(ValueError):
    """Table options (or a player count) a rule set does not allow; the message says why, for a person.

    ``code`` and ``params`` as for IllegalMove: the site words the refusal from them."""

    code: str
    params: dict[str, Any]

    def __init__(self, message: str, code: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params = {} if params is None else params

    def __reduce__(self) -> tuple:
        return BadOptions, (str(self), self.code, self.params)
