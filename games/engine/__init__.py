"""The rules of septica, familie and americana: pure Python, no Django.

    from games.engine import rules_for, RULESETS, IllegalMove

See ``shared/design/engine-contract.md`` for the contract these names keep.
"""

from __future__ import annotations

from . import americana, familie, septica
from .base import Game, Rules
from .errors import IllegalMove

RULESETS: dict[str, Rules] = {module.RULES.slug: module.RULES for module in (septica, familie, americana)}


def rules_for(slug: str) -> Rules:
    try:
        return RULESETS[slug]
    except (KeyError, TypeError):
        known = ", ".join(sorted(RULESETS))
        raise ValueError(f"Unknown rule set {slug!r}; choose one of: {known}.") from None


__all__ = ["RULESETS", "Game", "IllegalMove", "Rules", "rules_for"]
