"""JSON Schemas with every listed object closed to the keys it lists.

The published documents (/api/openapi.json, /api/websocket.json) let clients
ignore keys added later; the tests close them, so that any key an answer or a
message carries and the document does not list fails.
"""

from __future__ import annotations


def close_objects(schema, *, untyped_too=False):
    """`schema`, changed in place and returned: `additionalProperties: false` on every object type that lists
    properties and says nothing of other keys. A bare list of properties is left open unless `untyped_too`:
    in the AsyncAPI document it is a part of an allOf, closed where it is whole; the OpenAPI document's
    component schemas list properties without saying "object"."""
    if isinstance(schema, dict):
        typed = schema.get("type") == "object" or untyped_too
        if typed and "properties" in schema and "additionalProperties" not in schema:
            schema["additionalProperties"] = False
        for value in schema.values():
            close_objects(value, untyped_too=untyped_too)
    elif isinstance(schema, list):
        for value in schema:
            close_objects(value, untyped_too=untyped_too)
    return schema
