"""{% rules_links table as links %}: the rules sections of a table's own options."""

from __future__ import annotations

from django import template

from games.words.rule_links import option_links

register = template.Library()


@register.simple_tag
def rules_links(table) -> list[tuple[str, str]]:
    return option_links(table.rules, table.players, table.options)
