"""How a person likes the table page to play: one tap per card, taking by itself, sounds, chat text.

The table page reads them from its config (`table_preferences`) and saves a
change through POST /api/me/preferences; guests keep theirs in the browser.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.errors import BadRequest

DEFAULTS = {"one_tap": True, "auto_take": False, "sounds": False, "chat_text": True}


def table_preferences(user) -> dict:
    """Each preference's value for `user`; the defaults for someone not logged in."""
    if user is None or not user.is_authenticated:
        return dict(DEFAULTS)
    return {name: getattr(user, name) for name in DEFAULTS}


def check_preferences(changes) -> dict:
    """The changes asked for, refused (BadRequest with a code) unless each names a preference and is true or false."""
    if not isinstance(changes, dict):
        raise BadRequest(_("Send the preferences as a JSON object."), code="bad_body")
    unknown = sorted(name for name in changes if name not in DEFAULTS)
    if unknown:
        raise BadRequest(_("Unknown preference: %(names)s. The preferences are %(known)s.") % {
            "names": ", ".join(unknown), "known": ", ".join(DEFAULTS)}, code="unknown_preference")
    not_boolean = sorted(name for name, value in changes.items() if type(value) is not bool)
    if not_boolean:
        raise BadRequest(_("A preference is true or false: %(names)s is not.") % {
            "names": ", ".join(not_boolean)}, code="not_boolean")
    return changes


def save_preferences(user, changes) -> dict:
    """Store the preferences named in `changes` (any of them), and answer them all."""
    changes = check_preferences(changes)
    if changes:
        for name, value in changes.items():
            setattr(user, name, value)
        user.save(update_fields=list(changes))
    return table_preferences(user)
