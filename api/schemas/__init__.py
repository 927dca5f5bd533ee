"""The pydantic schemas of every request body and every answer of the JSON API.

They describe what the views answer; no answer is built or checked through
them (tests/web/test_openapi.py checks real answers against them).
"""
