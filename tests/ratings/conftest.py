"""People enough for six seats, and tables played to their end."""

from __future__ import annotations

import pytest


@pytest.fixture
def people(make_user):
    """Six people (alice ... frank), the first three as the shared fixtures make them."""
    names = ["alice", "bob", "charlie", "dave", "erin", "frank"]
    return [make_user(name, display_name=name.title()) for name in names]
