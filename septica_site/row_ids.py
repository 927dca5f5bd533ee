"""Ids and names in addresses that no row can have.

Django's `<int:...>` takes any run of digits, and SQLite cannot even compare
a number of 2**63 or more with a column (OverflowError, a 500), while
PostgreSQL just finds nothing. `<str:...>` takes the NUL character (%00),
which PostgreSQL cannot even compare with a text column (a 500), while SQLite
just finds nothing. Such an id or name names nothing on either: it is answered
here, before any view or query, as a missing table or person is.
"""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext_lazy as _

from .api_errors import SAYINGS, error, is_api
from .client_json import NUL

MAX_ROW_ID = 2**63 - 1  # the largest a 64-bit signed integer column holds
# What the API says of an address whose id or name nothing can have, by the name of its part.
MISSING = {
    "table_id": (_("There is no such table."), {}),
    "challenge_id": (_("There is no such challenge."), {"code": "no_such_challenge"}),
    "username": (_("There is no such player."), {"code": "no_such_player"}),
}


def fits_a_row(number: int) -> bool:
    return 0 <= number <= MAX_ROW_ID


def fits_a_name(text: str) -> bool:
    return NUL not in text


def fits(value) -> bool:
    if type(value) is int:
        return fits_a_row(value)
    return not isinstance(value, str) or fits_a_name(value)


class RowIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        unfit = next((name for name, value in kwargs.items() if not fits(value)), None)
        if unfit is None:
            return None
        if not is_api(request):
            raise Http404("No page has this address.")
        message, extra = MISSING.get(unfit, (SAYINGS[404], {}))
        return error(404, str(message), **extra)
