"""Request bodies left to Django: daphne's HTTP requests skip Twisted's form parsing.

Twisted's `http.Request` reads a POST's multipart/form-data or urlencoded
body into `request.args` before daphne sees the request, and answers a body
it cannot parse as multipart itself: a bare 400 with no body and no
Content-Type, never reaching the site. That broke "every /api/ answer is
JSON" for a request as plain as JSON sent as multipart/form-data
(schemathesis found it, tests/web/test_api_fuzz.py). Daphne never reads
`request.args` for a body (it hands the raw body to the application), so
the parse bought nothing and cost a copy of every upload.

Twisted's own switch for that is the public `parsePOSTFormSubmission`
argument of `http.Request`; daphne builds its requests from the module
global `daphne.http_protocol.WebRequest`, which is the one name relied on
here (daphne is pinned in requirements.txt; tests/site/test_private_names.py
fails when an upgrade changes it).
"""

from __future__ import annotations

from daphne import http_protocol


class WebRequestWithRawBody(http_protocol.WebRequest):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, parsePOSTFormSubmission=False, **kwargs)


def install() -> None:
    http_protocol.WebRequest = WebRequestWithRawBody
