"""A request's JSON object body, or the refusal that says what is wrong with it (septica_site.client_json
says which JSON no field takes)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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
    return whole_numbers_as_int(body)


def whole_numbers_as_int(value):
    """`value` with every whole float (4.0) an int: JSON, and the document's "integer", make no difference
    between them, and the actions take only ints. No field of a body takes a fraction."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: whole_numbers_as_int(item) for key, item in value.items()}
    if isinstance(value, list):
        return [whole_numbers_as_int(item) for item in value]
    return value


KINDS = {int: gettext_lazy("a whole number"), str: gettext_lazy("a string")}


def optional(body: dict, key: str, kind: type):
    """`body[key]`, or None when it is left out; a refusal when it is sent as anything but a `kind`, null too
    (the document says such a key is left out or sent, never null)."""
    if key not in body:
        return None
    value = body[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BadRequest(_("\"%(key)s\" must be %(kind)s, or left out.") % {"key": key, "kind": KINDS[kind]},
                         code=f"bad_{key}", params={"key": key})
    return value
