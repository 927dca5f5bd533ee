"""Finding English left on a page rendered in Romanian.

A page is rendered twice with the same data, once in English and once in
Romanian. Whatever a person reads (text, tooltips, labels, the words handed
to the scripts) and is the same in both renderings was not translated, unless
it is a name: a player's, a game's, a card code, a number. So a string that
was never marked for translation is caught as surely as one marked but left
without a Romanian text. Any English msgid of the catalog shown as it is on
the Romanian page is caught too, even where the English page differs. Text
marked as written in another language (`lang="en"`, such as "English" in the
language menu) is left out.
"""

from __future__ import annotations

import re

from games.bot_names import FIRST_NAMES

from .catalog import english_msgids
from .page_text import json_words, read_page

# Words that read the same in both languages: the players of the tests, the
# games' and cards' own names, and technical names used as they are.
SAME_IN_BOTH = {
    "Alice", "Bob", "Charlie", "alice", "bob", "charlie", "dana", "erin", "frank",
    "Americana", "americana", "Familie", "familie", "Septica", "septica", "Gata", "Ia", "joker", "Expert",
    "API", "JSON", "SHA", "HTTPS", "HTTP", "CSRF", "UTC", "Home", "End", "Bearer", "curl", "seed_sha256",
    "min",  # minutes, abbreviated alike
    "Chat", "mail",  # Romanian took both words as they are ("E-mail")
    "Noroc",  # the game's greeting, a quick phrase kept Romanian in every language (games/words/chat.py)
    # The players of the worked examples in the rules and the tutorial, and the card everyone calls Joker.
    "Ana", "Bogdan", "Cristi", "Dana", "Elena", "Florin", "Ioana", "Mihai", "Radu", "Joker",
    # Bots' first names, which depend on the table's id and so on the database.
    *FIRST_NAMES,
}
CARD_CODE = re.compile(r"^(?:[2-9TJQKA][CDHS]|X[RB])$")
# Keys under which the site hands its scripts the words they show.
WORD_KEYS = {"text", "words", "names", "label", "labels"}
WORD = re.compile(r"[^\W\d_]+")
CEDILLAS = re.compile("[şţŞŢ]")


def looks_english(text: str) -> bool:
    """Some ASCII word of two letters or more that is not a name kept in both languages."""
    return any(
        word.isascii() and len(word) > 1 and word not in SAME_IN_BOTH and not CARD_CODE.match(word)
        for word in WORD.findall(text)
    )


def untranslated(english_html: str, romanian_html: str) -> list[str]:
    """What the Romanian page still says in English, each with where it was found."""
    msgids = english_msgids("django") | english_msgids("djangojs")
    en_texts, en_documents = read_page(english_html)
    ro_texts, ro_documents = read_page(romanian_html)
    english = set(en_texts)
    found = [f"text: {text!r}" for text in ro_texts if looks_english(text) and (text in english or text in msgids)]
    for en_document, ro_document in zip(en_documents, ro_documents, strict=True):
        en_words = json_words(en_document)
        for path, word in json_words(ro_document).items():
            # Codes, URLs and names are the same in every language; words are
            # under the word keys, and a sentence has spaces wherever it is.
            if not (WORD_KEYS.intersection(map(str, path)) or " " in word.strip()):
                continue
            if looks_english(word) and (en_words.get(path) == word or word in msgids):
                found.append(f"script word {'.'.join(map(str, path))}: {word!r}")
    # Romanian is written with comma-below ș and ț; cedillas come from an old catalog (Django's own, say).
    found += [f"cedilla: {text!r}" for text in ro_texts if CEDILLAS.search(text)]
    return sorted(set(found))
