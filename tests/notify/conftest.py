from __future__ import annotations

import pytest

from notify import push
from tests.notify.push_service import PushService


@pytest.fixture(autouse=True)
def own_vapid_key(settings, tmp_path):
    """Each test makes its key in its own VAR_DIR, read afresh."""
    settings.VAR_DIR = tmp_path
    settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_PUBLIC_KEY = ""
    push.vapid.cache_clear()
    yield
    push.vapid.cache_clear()


@pytest.fixture
def push_service(reach_the_local_push_services):
    with PushService() as service:
        yield service


@pytest.fixture
def reach_the_local_push_services(settings):
    """The tests' push services listen on 127.0.0.1, which a site reaches only when told to."""
    settings.PUSH_ALLOWED_NETWORKS = ["127.0.0.0/8"]
