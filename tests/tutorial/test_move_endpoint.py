"""The JSON endpoint that plays the learner's move: checked, explained when wrong, saved when a step is done."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.models import Seat, Table, TableStatus
from tutorial.models import TutorialProgress

pytestmark = pytest.mark.django_db

SAYING_END = reverse("tutorial_move", args=["septica", 5])  # lead 9♣, Bogdan cuts with 9♦, say Gata


def post(client, url, body, language="en"):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, data, content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)


def test_a_fitting_move_is_played_and_the_script_answers_up_to_the_learners_next_turn(client):
    answer = post(client, SAYING_END, {"done": [], "move": {"type": "play", "card": "9C"}}).json()

    assert answer["accepted"] is True
    assert answer["view"]["table"] == [{"seat": 0, "card": "9C"}, {"seat": 1, "card": "9D"}]
    assert answer["view"]["hand"] == ["7S", "KH", "JS"]
    assert answer["fit_moves"] == ["end"] and answer["fits"] == []
    assert answer["news"] == ["Bogdan played 9♦"]
    assert "Gata" in answer["hint"]
    assert answer["finished"] is False


def test_the_answer_shows_only_the_learners_own_cards(client):
    answer = post(client, SAYING_END, {"done": [], "move": {"type": "play", "card": "9C"}}).json()

    text = json.dumps(answer)
    for code in ("QC", "8H", "JD"):  # Bogdan's hand
        assert code not in text
    assert "hands" not in answer["view"] and "log" not in answer["view"]


def test_a_legal_move_the_step_does_not_teach_gets_the_friendly_explanation_and_changes_nothing(client):
    answer = post(client, SAYING_END, {"done": [{"type": "play", "card": "9C"}],
                                       "move": {"type": "play", "card": "7S"}}).json()

    assert answer["accepted"] is False
    assert "Save it for a trick with points" in answer["explanation"]
    assert answer["view"]["hand"] == ["7S", "KH", "JS"]
    assert answer["view"]["to_move"] == 0


def test_the_explanation_is_in_romanian_on_a_romanian_page(client):
    answer = post(client, SAYING_END, {"done": [{"type": "play", "card": "9C"}],
                                       "move": {"type": "play", "card": "7S"}}, language="ro").json()
    assert "Păstrează-l pentru o levată cu puncte" in answer["explanation"]


def test_a_move_the_rules_refuse_is_explained_by_the_rule_naming_the_card(client):
    answer = post(client, SAYING_END, {"done": [{"type": "play", "card": "9C"}],
                                       "move": {"type": "play", "card": "KH"}}).json()
    assert answer["accepted"] is False
    assert answer["explanation"] == ("You cannot continue the trick with K♥: continue with a nine or a seven, "
                                     "or end it (Gata).")


@pytest.mark.parametrize(("body", "says"), [
    ("not json", "not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
    ({"done": []}, "A move must be an object"),
    ({"done": [], "move": "9C"}, "A move must be an object"),
    ({"done": [], "move": {"type": "fly"}}, "Unknown move type"),
    ({"done": [], "move": {"type": "play", "card": "9C", "colour": "red"}}, "has no 'colour'"),
    ({"done": [], "move": {"type": "play", "card": 9}}, "are strings"),
    ({"done": "9C", "move": {"type": "end"}}, '"done" must be a list'),
    ({"done": [{"type": "end"}], "move": {"type": "end"}}, "Move 1 of \"done\" is not one this step accepted"),
])
def test_malformed_input_is_refused_with_a_clear_error(client, body, says):
    response = post(client, SAYING_END, body)

    assert response.status_code == 400
    assert says in response.json()["error"]


def test_a_move_after_the_step_is_over_is_refused(client):
    done = [{"type": "play", "card": "9C"}, {"type": "end"}]
    response = post(client, SAYING_END, {"done": done[:1], "move": done[1]})
    assert response.json()["finished"] is True
    response = post(client, SAYING_END, {"done": done, "move": {"type": "take"}})
    assert response.status_code == 400


def test_an_unknown_step_and_a_get_are_refused(client):
    assert post(client, "/tutorial/septica/99/move", {"move": {"type": "end"}}).status_code == 404
    assert client.get(SAYING_END).status_code == 405


def test_finishing_a_step_saves_progress_for_a_logged_in_player(client, alice):
    client.force_login(alice)
    done = [{"type": "play", "card": "9C"}]

    answer = post(client, SAYING_END, {"done": done, "move": {"type": "end"}}).json()

    assert answer["finished"] is True
    assert answer["learned"].startswith("Saying Gata ends the trick")
    assert answer["news"] == ["Bogdan took the trick (0 points)"]
    progress = TutorialProgress.objects.get(user=alice)
    assert (progress.game, progress.step) == ("septica", "saying-end")
    post(client, SAYING_END, {"done": done, "move": {"type": "end"}})  # again: still one record
    assert TutorialProgress.objects.filter(user=alice).count() == 1


def test_a_visitor_can_play_a_step_and_nothing_is_stored(client):
    answer = post(client, SAYING_END, {"done": [{"type": "play", "card": "9C"}], "move": {"type": "end"}}).json()
    assert answer["finished"] is True
    assert not TutorialProgress.objects.exists()


def test_an_americana_seven_names_its_suit(client):
    url = reverse("tutorial_move", args=["americana", 2])
    wrong = post(client, url, {"done": [], "move": {"type": "play", "card": "7D", "suit": "S"}}).json()
    assert wrong["accepted"] is False and "name hearts" in wrong["explanation"]

    right = post(client, url, {"done": [], "move": {"type": "play", "card": "7D", "suit": "H"}}).json()
    assert right["accepted"] is True
    assert right["view"]["top"] == "6H" and right["view"]["suit"] == "H"
    assert right["fits"] == ["5H", "KH", "QH"]


def test_the_practice_button_starts_a_match_against_a_beginner_bot(client, alice):
    client.force_login(alice)

    response = client.post(reverse("tutorial_practice"), {"rules": "septica"})

    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("table", args=[table.pk])
    assert table.status == TableStatus.PLAYING and table.private
    bot = Seat.objects.get(table=table, number=1)
    assert bot.bot_level == "beginner"
    assert Seat.objects.get(table=table, number=0).user == alice


def test_a_visitor_is_asked_to_log_in_before_a_practice_match(client):
    response = client.post(reverse("tutorial_practice"), {"rules": "americana"})

    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not Table.objects.exists()


def test_a_practice_match_of_an_unknown_game_is_refused(client, alice):
    client.force_login(alice)
    response = client.post(reverse("tutorial_practice"), {"rules": "poker"})
    assert response.status_code == 302 and response["Location"] == reverse("tutorial")
    assert not Table.objects.exists()


def test_the_news_tells_an_ace_sat_out_from_a_plain_pass(client):
    url = reverse("tutorial_move", args=["americana", 4])
    done = [{"type": "play", "card": "AS"}]

    answer = post(client, url, {"done": done, "move": {"type": "play", "card": "AC"}}).json()

    assert answer["news"] == ["Bogdan sat the turn out"]
    assert answer["hint"].startswith("Bogdan sat his turn out")


def test_the_rules_reason_is_given_in_the_pages_language_too(client):
    answer = post(client, SAYING_END, {"done": [{"type": "play", "card": "9C"}],
                                       "move": {"type": "play", "card": "KH"}}, language="ro").json()
    assert "K♥" in answer["explanation"] and "cannot continue" not in answer["explanation"]
