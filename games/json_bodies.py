"""A request's JSON object body, or the refusal that says what is wrong with it (septica_site.client_json
says which JSON no field takes)."""

from __future__ import annotations

from septica_site.client_json import TooDeep, Unreadable, parse

from .errors import BadRequest, ServiceError

MAX_BODY_BYTES = 16 * 1024


class BodyTooLarge(ServiceError):
    status = 413


def read_json(request) -> dict:
    """A request's JSON object body; a refusal (400, or 413 when too large) for anything else."""
    if len(request.body) > MAX_BODY_BYTES:
        raise BodyTooLarge(f"The request body is larger than {MAX_BODY_BYTES} bytes.")
    try:
        body = parse(request.body or b"{}")
    except TooDeep as refusal:
        raise BadRequest(f"The request body is {refusal}: a move needs three levels.") from None
    except Unreadable as refusal:
        raise BadRequest(f"The request body is {refusal}.") from None
    except ValueError:  # UnicodeDecodeError is one too
        raise BadRequest("The request body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise BadRequest("The request body must be a JSON object.")
    return body
