"""The tutorial pages in both languages, and the step list with what each person has done."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from tutorial import lesson
from tutorial.models import TutorialProgress
from tutorial.scripts import GAMES, words

pytestmark = pytest.mark.django_db

ALL_STEPS = [pytest.param(game, number, step, id=f"{game}-{step.slug}")
             for game, steps in GAMES.items() for number, step in enumerate(steps, start=1)]


def embedded(html: str, name: str) -> dict:
    found = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


@pytest.mark.parametrize("language", ["en", "ro"])
@pytest.mark.parametrize(("game", "number", "step"), ALL_STEPS)
def test_every_step_renders_in_both_languages(client, game, number, step, language):
    response = client.get(reverse("tutorial_step", args=[game, number]), HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}"' in html
    assert escape(step.title[language]) in html
    assert escape(step.intro[language]) in html
    start = embedded(html, "tutorial-start")
    first = lesson.start(step)
    assert start["view"]["hand"] == first.view()["hand"]
    for code in start["view"]["hand"]:
        assert f'data-card="{code}"' in html  # drawn on the server with the table's card markup


def test_the_page_holds_only_the_learners_cards(client):
    step = next(step for step in GAMES["septica"] if step.slug == "teams")
    html = client.get(reverse("tutorial_step", args=["septica", 11])).content.decode()

    start = embedded(html, "tutorial-start")
    assert "hand" in start["view"] and "hands" not in start["view"] and "stock" in start["view"]
    visible = set(start["view"]["hand"]) | {played["card"] for played in start["view"]["table"]}
    hidden = set(step.deck) - visible
    for code in hidden:
        assert not re.search(rf'["\s>]{code}["<\s]', html), f"{code} is not the learner's to see"


def test_the_hint_and_the_words_follow_the_active_language(client):
    response = client.get(reverse("tutorial_step", args=["septica", 2]), HTTP_ACCEPT_LANGUAGE="ro")
    html = response.content.decode()
    assert "Ana a deschis cu K♠" in html
    assert "tăietura" in html.lower()


def test_the_index_lists_every_step_and_ticks_those_done(client, alice):
    TutorialProgress.objects.create(user=alice, game="septica", step="leading", completed_at="2026-01-01T00:00Z")
    client.force_login(alice)

    html = client.get(reverse("tutorial")).content.decode()

    for steps in GAMES.values():
        for step in steps:
            assert escape(words(step.title)) in html
    assert re.search(r'class="step-link is-done" data-step="leading"', html)
    assert not re.search(r'class="step-link is-done" data-step="taking"', html)


def test_the_nav_tutorial_link_points_at_the_tutorial(client):
    html = client.get("/").content.decode()
    assert f'href="{reverse("tutorial")}"' in html


def test_an_unknown_step_is_not_found(client):
    assert client.get("/tutorial/septica/13/").status_code == 404
    assert client.get("/tutorial/poker/1/").status_code == 404
