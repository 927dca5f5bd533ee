"""A table's options in words, each linked to the section of its rules page that explains it."""

from __future__ import annotations

from django.urls import reverse

from .rulesets import words_for


def option_links(rules: str, players: int, options: dict) -> list[tuple[str, str]]:
    """(words, URL with the section's anchor) for every option this table plays with."""
    base = reverse("rules_page", args=[rules])
    return [(words, f"{base}#{anchor}") for words, anchor in words_for(rules).anchors(players, options)]
