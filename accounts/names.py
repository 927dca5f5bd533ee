"""Names people are known by: normalised, visible, and not mistakable for someone else's.

A name is shown at tables, in the lobby and in logs, so it must not hide
characters (bidi overrides, zero-width joiners, fillers), must not mix
alphabets to pass for a Latin name ("аlice" with a Cyrillic а), and must not
look like a bot's label or another person's username or display name.

"Looks like" is decided on a *skeleton*: the name casefolded, every letter
the Unicode confusables table (through confusable-homoglyphs) lists as a
look-alike of a Latin letter replaced by that letter, a few Latin look-alikes
folded together (l/1/I, rn/m, ş/ș), and everything but letters and digits
dropped. Each user's skeletons are stored (``User.username_key``,
``User.display_name_key``, indexed), so a clash is one indexed look-up.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext as _

from games.bot_names import FIRST_NAMES as BOT_FIRST_NAMES
from games.models import BotLevel, BotStyle

SKELETON_MAX_LENGTH = 255

# Characters that draw nothing (or draw blank) yet are letters to Unicode, so
# the category test below does not catch them.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u034f\u17b4\u17b5")
# Cc controls, Cf format (bidi embeddings/overrides/isolates, zero-width
# space/joiners, soft hyphen, BOM), Co private use, Cn unassigned, line and
# paragraph separators.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})

# Latin letters that pass for one another once lower-cased, and the comma and
# cedilla forms of Romanian ș/ț, which are hard to tell apart on screen.
_LATIN_LOOKALIKES = str.maketrans({"l": "i", "1": "i", "|": "i", "0": "o", "ş": "ș", "ţ": "ț"})
_LATIN_LOOKALIKE_PAIRS = (("rn", "m"), ("vv", "w"))

# Said in English and Romanian; the bots' level and style names are added from the models.
_RESERVED_WORDS = ("bot", "bots", "robot", "roboti", "roboții", "robotul", "septica", "șeptică", "admin",
                   "administrator", "moderator", "moderators", "staff", "system", "sistem", "support", "suport")
_BOT_WORDS = frozenset({"bot", "bots", "robot", "roboti", "robotul"})
# What tables put between a bot's name and its level and style ("Ștefan · Medium,
# balanced"), and the dots that pass for it (after NFKC, which folds a few more into these).
_BADGE_SEPARATORS = frozenset("\u00b7\u2022\u2027\u2219\u22c5\u30fb\u2e31\u16eb")


def normalise(name: str) -> str:
    """NFKC, trimmed, inner runs of white space made one space."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def has_hidden_characters(name: str) -> bool:
    return any(unicodedata.category(char) in _HIDDEN_CATEGORIES or char in _BLANK_LETTERS for char in name)


def _latin_lookalike(char: str) -> str:
    if char.isascii():
        return char
    # Latin letters, digits and marks stay: only other alphabets' letters are mapped.
    found = confusables.is_confusable(char, preferred_aliases=["latin", "common", "inherited"])
    if not found:
        return char
    for glyph in found[0]["homoglyphs"]:
        if all(part.isascii() or categories.alias(part) == "LATIN" for part in glyph["c"]):
            return glyph["c"].casefold()
    return char


def _folded(name: str) -> str:
    """Casefolded, non-Latin look-alikes replaced by their Latin letters; spaces and punctuation kept."""
    text = unicodedata.normalize("NFKC", name).casefold()
    return unicodedata.normalize("NFC", "".join(_latin_lookalike(char) for char in text))


def skeleton(name: str) -> str:
    """The key two names share when they look alike ("аlice", "Alice", "a1ice" and "alice" share one)."""
    text = _folded(name).translate(_LATIN_LOOKALIKES)
    for pair, single in _LATIN_LOOKALIKE_PAIRS:
        text = text.replace(pair, single)
    return "".join(char for char in text if char.isalnum())[:SKELETON_MAX_LENGTH]


def _without_marks(text: str) -> str:
    return "".join(char for char in unicodedata.normalize("NFD", text) if not unicodedata.combining(char))


@lru_cache(maxsize=1)
def _reserved_keys() -> frozenset[str]:
    """Every name the site or its bots go by, in each of the site's languages, as diacritic-free keys."""
    names = set(_RESERVED_WORDS) | set(BOT_FIRST_NAMES)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            bot = _("Bot")
            levels = [str(label) for label in BotLevel.labels]
            styles = [str(label) for label in BotStyle.labels]
            names.update([bot, *levels, *styles])
            for word in [*levels, *styles]:
                names.update([f"{bot} {word}", f"{word} {bot}"])
            for level in levels:
                for style in styles:
                    names.add(_("Bot (%(level)s, %(style)s)") % {"level": level, "style": style})
    return frozenset(_without_marks(skeleton(name)) for name in names)


def is_reserved(name: str) -> bool:
    words = re.findall(r"[^\W\d_]+", _without_marks(_folded(name)))
    return bool(_BOT_WORDS.intersection(words)) or _without_marks(skeleton(name)) in _reserved_keys()


def _check_content(name: str, bots_too: bool = True) -> None:
    if has_hidden_characters(name):
        raise ValidationError(
            _("Names cannot contain invisible, control or text-direction characters."), code="hidden_characters")
    if not any(char.isalnum() for char in name):
        raise ValidationError(_("A name needs at least one letter or digit."), code="no_letters")
    if confusables.is_dangerous(name, preferred_aliases=["latin"]):
        raise ValidationError(
            _("Write the name in one alphabet: it mixes letters that look like Latin ones."), code="mixed_script")
    if bots_too and is_reserved(name):
        raise ValidationError(_("This name is kept for the site and its bots."), code="reserved")


def lookalike_taken(name: str, exclude_user_pk: int | None = None) -> bool:
    """Whether another account's username or display name looks like ``name`` (one indexed look-up)."""
    key = skeleton(name)
    clashes = get_user_model().objects.filter(Q(username_key=key) | Q(display_name_key=key))
    if exclude_user_pk is not None:
        clashes = clashes.exclude(pk=exclude_user_pk)
    return clashes.exists()


def _lookalike_error() -> ValidationError:
    return ValidationError(
        _("This name looks too much like another player's name. Please choose a different one."), code="lookalike")


def validate_username_content(username: str) -> None:
    # A username is typed to log in: it must be stored as plainly as it is compared.
    plain = unicodedata.normalize("NFKC", username)
    if plain != username:
        raise ValidationError(_("Write the username in plain letters: %(plain)s."), params={"plain": plain},
                              code="not_plain")
    _check_content(normalise(username))


def validate_username_not_lookalike(username: str) -> None:
    """For a new account: no existing username or display name may look like it.

    The very same username in another case is left to the uniqueness check,
    whose "already exists" says more.
    """
    name = normalise(username)
    key = skeleton(name)
    users = get_user_model().objects.filter(Q(username_key=key) | Q(display_name_key=key))
    if users.exists() and not users.filter(username__iexact=name).exists():
        raise _lookalike_error()


# For sign-up (SignUpForm, and allauth's ACCOUNT_USERNAME_VALIDATORS, which
# replaces the model field's own validators, hence Django's among them).
username_validators = [UnicodeUsernameValidator(), validate_username_content, validate_username_not_lookalike]


def clean_display_name(display_name: str, user) -> str:
    """The display name to store for ``user``, normalised; ValidationError when it may not be shown."""
    name = normalise(display_name)
    if not name:
        return ""
    # A name kept as it was stays (set before a rule about bots came; at a table
    # a bot takes another name than a person's there, games/bot_names.py).
    new = name != normalise(user.display_name or "")
    _check_content(name, bots_too=new)
    if new and _BADGE_SEPARATORS.intersection(name):
        raise ValidationError(
            _("Names cannot contain “·”: tables put it between a bot's name and its level."), code="badge_separator")
    if lookalike_taken(name, exclude_user_pk=user.pk):
        raise _lookalike_error()
    return name


def name_keys(username: str, display_name: str) -> tuple[str, str]:
    """The skeletons stored on the user, for the look-alike look-up."""
    return skeleton(username), skeleton(display_name) if display_name else ""
