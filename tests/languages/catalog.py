"""The Romanian message files as the tests read them: entries of locale/ro/LC_MESSAGES/*.po."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

LOCALE_DIR = Path(settings.LOCALE_PATHS[0]) / "ro" / "LC_MESSAGES"
DOMAINS = ("django", "djangojs")
PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?[sdifr%]")


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    where: list[str] = field(default_factory=list)

    @property
    def translations(self) -> list[str]:
        return [self.msgstr[index] for index in sorted(self.msgstr)]


def po_path(domain: str) -> Path:
    return LOCALE_DIR / f"{domain}.po"


def read_po(domain: str) -> list[Entry]:
    """Every entry but the header, in file order (obsolete `#~` entries are skipped)."""
    entries, entry, target = [], Entry(), None
    for line in po_path(domain).read_text(encoding="utf-8").splitlines() + [""]:
        if not line.strip():
            if target is not None:
                entries.append(entry)
            entry, target = Entry(), None
        elif line.startswith("#,"):
            entry.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#:"):
            entry.where += line[2:].split()
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            _append(entry, target, ast.literal_eval(line))
        else:
            keyword, _, literal = line.partition(" ")
            target = keyword
            _append(entry, target, ast.literal_eval(literal), start=True)
    return [entry for entry in entries if entry.msgid]


def _append(entry: Entry, target: str, text: str, start: bool = False) -> None:
    if target.startswith("msgstr"):
        index = int(target[7:-1]) if "[" in target else 0
        entry.msgstr[index] = ("" if start else entry.msgstr.get(index, "")) + text
    else:
        setattr(entry, target, ("" if start else getattr(entry, target) or "") + text)


def placeholders(text: str) -> set[str]:
    """The named %(...)s fields, and how many unnamed ones, a Python-format string uses."""
    found = PLACEHOLDER.findall(text)
    return {name for name in found if name} | {f"#{found.count('')}"} if "%" in text else set()


def english_msgids(domain: str = "django") -> set[str]:
    return {entry.msgid for entry in read_po(domain)} | {
        entry.msgid_plural for entry in read_po(domain) if entry.msgid_plural
    }
