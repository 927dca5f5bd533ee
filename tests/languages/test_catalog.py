"""The Romanian message files are complete, well-formed, compiled, and served to the scripts."""

from __future__ import annotations

import gettext
import json
import re
from pathlib import Path

import pytest
from django.conf import settings

from .catalog import DOMAINS, LOCALE_DIR, placeholders, read_po

STATIC_JS = Path(settings.BASE_DIR) / "static" / "js"
# gettext("..."), ngettext("...", "...", n) and pgettext as the scripts call them.
JS_CALL = re.compile(r"""\b(n?gettext|pgettext)\(\s*(["'])((?:\\.|(?!\2).)*)\2(?:\s*,\s*(["'])((?:\\.|(?!\4).)*)\4)?""")


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_has_a_romanian_text_and_none_is_a_guess(domain):
    entries = read_po(domain)

    assert entries
    assert [e.msgid for e in entries if not all(e.translations) or len(e.translations) < (3 if e.msgid_plural else 1)] == []
    assert [e.msgid for e in entries if "fuzzy" in e.flags] == []


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_translation_keeps_the_placeholders_of_its_english(domain):
    wrong = []
    for entry in read_po(domain):
        wanted = placeholders(entry.msgid) | placeholders(entry.msgid_plural or "")
        for text in entry.translations:
            # A Romanian singular may say the number in words ("o masă"), so it may drop the count.
            if not placeholders(text) <= wanted or (entry.msgid_plural is None and placeholders(text) != wanted):
                wrong.append((entry.msgid, text))
    assert wrong == []


@pytest.mark.parametrize("domain", DOMAINS)
def test_romanian_is_written_with_comma_below_letters_not_cedillas(domain):
    cedillas = [text for entry in read_po(domain) for text in entry.translations if re.search("[şţŞŢ]", text)]
    assert cedillas == []


def test_the_translations_carry_romanian_letters():
    texts = [text for entry in read_po("django") for text in entry.translations]
    assert sum(bool(re.search("[ăâîșțĂÂÎȘȚ]", text)) for text in texts) > len(texts) / 3


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_files_hold_exactly_what_the_message_files_say(domain):
    """A fresh clone needs no gettext: the committed .mo must be compiled from the current .po."""
    with (LOCALE_DIR / f"{domain}.mo").open("rb") as compiled:
        catalog = gettext.GNUTranslations(compiled)._catalog

    expected = {}
    for entry in read_po(domain):
        key = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        if entry.msgid_plural is None:
            expected[key] = entry.msgstr[0]
        else:
            expected.update({(key, index): text for index, text in entry.msgstr.items()})
    assert {key: value for key, value in catalog.items() if key != ""} == expected


def test_every_string_the_scripts_translate_is_in_the_javascript_catalog():
    known = {(e.msgid, e.msgid_plural) for e in read_po("djangojs")}
    called = set()
    for script in STATIC_JS.glob("*.js"):
        for kind, _q, msgid, _q2, plural in JS_CALL.findall(script.read_text(encoding="utf-8")):
            called.add((msgid, plural or None) if kind == "ngettext" else (msgid, None))

    assert called, "no script calls gettext()"
    assert called - known == set()


def test_the_javascript_catalog_speaks_romanian_with_three_plural_forms(client):
    response = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="ro")

    assert response.status_code == 200
    body = response.content.decode()
    catalog = json.loads(re.search(r"const newcatalog = (\{.*?\});", body, re.S).group(1))
    assert catalog["%(n)s card"] == ["%(n)s carte", "%(n)s cărți", "%(n)s de cărți"]
    assert "n%100>19" in body.replace(" ", "")  # Romanian plural rule: 1 carte, 2 cărți, 20 de cărți


def test_in_english_the_scripts_keep_their_own_words(client):
    body = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "django.ngettext = function" in body and "cărți" not in body
