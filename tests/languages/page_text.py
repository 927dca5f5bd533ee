"""What a person reads on a page: text, the attributes screen readers and
tooltips say, and the words handed to the page's scripts in JSON.

Code samples (<code>, <pre>, <kbd>, <samp>) are left out: they are commands
and JSON keys, the same in every language.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

SKIPPED = {"code", "pre", "kbd", "samp", "style", "template"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SPOKEN_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "aria-description"}
SPACES = re.compile(r"\s+")


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.languages: list[str | None] = []  # the lang of each open element, None when it has none
        self.page_language: str | None = None
        self.texts: list[str] = []
        self.json_blobs: list[str] = []
        self.in_json = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "html":
            self.page_language = attributes.get("lang")
        if tag not in VOID:
            self.open.append(tag)
            self.languages.append(attributes.get("lang"))
        if self.foreign():
            return
        for name, value in attributes.items():
            if value and (name in SPOKEN_ATTRIBUTES or (name.startswith("data-") and " " in value.strip())):
                self.texts.append(value)
        if tag == "input" and attributes.get("type") in ("submit", "button") and attributes.get("value"):
            self.texts.append(attributes["value"])
        if tag == "script":
            self.in_json = attributes.get("type") == "application/json"

    def foreign(self) -> bool:
        """Inside an element written in another language than the page's, on purpose."""
        marked = [language for language in self.languages[1:] if language]
        return bool(marked) and marked[-1] != self.page_language

    def handle_endtag(self, tag):
        if tag in self.open:
            while self.open:
                self.languages.pop()
                if self.open.pop() == tag:
                    break
        if tag == "script":
            self.in_json = False

    def handle_data(self, data):
        if "script" in self.open:
            if self.in_json:
                self.json_blobs.append(data)
            return
        if not SKIPPED.intersection(self.open) and not self.foreign():
            self.texts.append(data)


def read_page(html: str) -> tuple[list[str], list[object]]:
    """(the page's text pieces, whitespace folded; the JSON documents embedded for its scripts)."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    texts = [SPACES.sub(" ", text).strip() for text in reader.texts]
    return [text for text in texts if text], [json.loads(blob) for blob in reader.json_blobs]


def json_words(document, path: tuple = ()) -> dict[tuple, str]:
    """Every string in a JSON document, by its path of keys and indexes."""
    if isinstance(document, dict):
        return {p: w for key, value in document.items() for p, w in json_words(value, (*path, key)).items()}
    if isinstance(document, list):
        return {p: w for index, value in enumerate(document) for p, w in json_words(value, (*path, index)).items()}
    return {path: document} if isinstance(document, str) else {}
