"""The rules of septica, familie and americana: pure Python, no Django.

    from games.engine import rules_for, RULESETS, IllegalMove

See ``shared/design/engine-contract.md`` for the contract these names keep.

Beyond the contract, for the bots (``games.engine.bots``), which imagine the
hidden cards and play guessed deals out:

- ``rules.from_view(view, hands, stock, seed, pile=None)``: a game whose view
  for ``view["seat"]`` is exactly ``view``, with the cards that view hides
  where a guess puts them: every seat's hand, the stock (next card first) and,
  in americana, the whole pile (bottom first). Later deals shuffle from
  ``seed``. It is checked like a saved game, so a guess that does not fit the
  view is a ``ValueError``. ``games.engine.determinize`` makes the guesses.
- ``game.deal``: the number of the current deal, 0-based, as in the view.
- Read-only state a bot reads on its own guessed games, far quicker than a
  view; each is the same fact as the ``to_state()`` key of that name, as
  tuples. Septica: ``hands``, ``stock``, ``trick``, ``leader``, ``holder``,
  ``points``, ``last_deal`` (the last finished deal's number and points, or
  ``None``), and ``cutters``, ``sides``, ``side_of`` (the ranks that cut, the
  seats of each side, and each seat's side). Familie: ``hands``, ``stock``,
  ``table``, ``holder``, ``passed``, ``points``. ``hands`` and ``stock`` are
  the whole truth: on the server's game they are for nobody's eyes, and no
  view or message is ever built from them.
"""

from __future__ import annotations

from . import americana, familie, septica
from .base import Game, Rules
from .errors import BadOptions, IllegalMove

RULESETS: dict[str, Rules] = {module.RULES.slug: module.RULES for module in (septica, familie, americana)}


def rules_for(slug: str) -> Rules:
    try:
        return RULESETS[slug]
    except (KeyError, TypeError):
        known = ", ".join(sorted(RULESETS))
        raise ValueError(f"Unknown rule set {slug!r}; choose one of: {known}.") from None


__all__ = ["RULESETS", "BadOptions", "Game", "IllegalMove", "Rules", "rules_for"]
