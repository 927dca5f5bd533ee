"""The JSON API under /api/, as one django-ninja `NinjaAPI` (issue 20).

Each operation calls the site's existing view (games/api.py, players/api.py,
...), so statuses, keys and sentences stay theirs; what ninja adds is the
routing and the OpenAPI 3.1 document at /api/openapi.json, generated from the
pydantic schemas in `api.schemas`. `api.urls` is the only way in.
"""
