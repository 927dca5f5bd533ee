"""What a socket says when the database did not answer the work a message asked for."""

from __future__ import annotations

from django.utils.translation import gettext as _

DATABASE_UNAVAILABLE = "database_unavailable"  # the JSON API's code for the same outage (septica_site/outage.py)


def database_unavailable() -> str:
    """The refusal's words: nothing was done, and the same message may be sent again."""
    return _("The server could not reach its database just now, so this was not done. Try again in a moment.")
