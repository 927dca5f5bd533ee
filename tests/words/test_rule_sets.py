"""Every rule set the engine knows has its home on the site (games/words/rulesets.py)
and among the bots (games/engine/bots/registry.py): a fourth game cannot be half added."""

from __future__ import annotations

from django.utils import translation

from games.engine import RULESETS
from games.engine.bots.registry import BOTS
from games.words.rulesets import RULE_SETS


def test_every_rule_set_of_the_engine_has_words_and_bots():
    engine_rules = set(RULESETS.values())

    assert set(RULE_SETS) == engine_rules
    assert set(BOTS) == engine_rules


def test_every_rule_set_is_named_and_its_default_options_are_in_words_in_both_languages():
    for rules, words in RULE_SETS.items():
        players = rules.min_players
        for language in ("en", "ro"):
            with translation.override(language):
                phrases = [str(phrase) for phrase in words.phrases(players, rules.default_options(players))]
            assert words.name and all(phrases), (rules.slug, language)
