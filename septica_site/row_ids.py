"""Ids in addresses that no row can have.

Django's `<int:...>` takes any run of digits, and SQLite cannot even compare
a number of 2**63 or more with a column (OverflowError, a 500), while
PostgreSQL just finds nothing. Such an id names nothing on either: it is
answered here, before any view or query, as a missing table is.
"""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _

from .api_errors import error, is_api

MAX_ROW_ID = 2**63 - 1  # the largest a 64-bit signed integer column holds


def fits_a_row(number: int) -> bool:
    return 0 <= number <= MAX_ROW_ID


class RowIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        if all(fits_a_row(value) for value in kwargs.values() if type(value) is int):
            return None
        if is_api(request):  # the API's only numbers in addresses are table ids
            return error(404, _("There is no such table."))
        raise Http404("There is no such table.")
