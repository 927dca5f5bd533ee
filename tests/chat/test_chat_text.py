"""What a chat line's text may hold: what the writer sees is what every reader sees.

Characters that draw nothing or turn the line around (the bidi controls,
the zero-width ones) are taken out of a line, as display names refuse them:
a line is said once and gone, so it is cleaned rather than refused for
something its writer cannot see.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.actions.chat import say
from games.errors import BadRequest
from games.models import ChatLine

pytestmark = pytest.mark.django_db

BIDI_CONTROLS = [*map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A)), "\u200e", "\u200f"]
ZERO_WIDTHS = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]


def test_a_direction_override_is_taken_out_so_the_line_reads_as_typed(alice, playing):
    line = say(alice, playing.pk, text="i won \u202egnp.exe")

    assert ChatLine.objects.get(pk=line.pk).text == "i won gnp.exe"


@pytest.mark.parametrize("hidden", BIDI_CONTROLS + ZERO_WIDTHS, ids=lambda char: f"U+{ord(char):04X}")
def test_every_bidi_control_and_zero_width_character_is_taken_out(alice, playing, hidden):
    line = say(alice, playing.pk, text=f"well{hidden} played {hidden} {hidden}")

    assert ChatLine.objects.get(pk=line.pk).text == "well played"


def test_a_line_of_nothing_but_hidden_characters_is_refused_as_empty(alice, playing):
    with pytest.raises(BadRequest) as refused:
        say(alice, playing.pk, text="\u200b\u202e\u2066\ufeff")

    assert refused.value.extra["code"] == "empty_line"
    assert not ChatLine.objects.exists()


def test_line_breaks_and_tabs_read_as_spaces(alice, playing):
    line = say(alice, playing.pk, text="good\ngame\tall\u2028round")

    assert ChatLine.objects.get(pk=line.pk).text == "good game all round"


def test_emoji_joined_into_one_keep_their_joiner_and_letters_of_every_alphabet_stay(alice, playing):
    family, flag = "\U0001F468\u200d\U0001F469\u200d\U0001F467", "\U0001F3F3\ufe0f\u200d\U0001F308"
    line = say(alice, playing.pk, text=f"{family} {flag} Noroc, Ștefan! שלום مرحبا")

    assert ChatLine.objects.get(pk=line.pk).text == f"{family} {flag} Noroc, Ștefan! שלום مرحبا"


def test_the_api_answers_and_stores_the_line_without_them(alice, playing):
    client = Client()
    client.force_login(alice)

    answer = client.post(f"/api/tables/{playing.pk}/chat", json.dumps({"text": "gg\u200b\u202e wp"}),
                         content_type="application/json")

    assert answer.status_code == 201
    assert answer.json()["line"]["text"] == "gg wp"
    history = client.get(f"/api/tables/{playing.pk}/chat").json()["lines"]
    assert [entry["text"] for entry in history] == ["gg wp"]
