"""What a process could not publish (Redis unreachable from it) goes out again, newest first, once it can."""

from __future__ import annotations

import threading
import time

import pytest

from games.after_commit import publish


class FlakyLayer:
    """A layer whose blocking publish fails while `down` is set, and records what got through."""

    def __init__(self) -> None:
        self.down = threading.Event()
        self.down.set()
        self.published: list[tuple[str, dict]] = []
        self.tries = 0

    def group_send_many_blocking(self, messages) -> None:
        self.tries += 1
        if self.down.is_set():
            raise ConnectionError("Redis unreachable")
        self.published += messages


def wait_for(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return bool(condition())


# Groups no other test publishes to: the list of what is still to publish is the process's, and an
# earlier test that stopped a Redis of its own may have left its announcements in it.
TABLE = 990_007
GROUPS = (f"match.{TABLE}", "user.990001")


def ours() -> list[tuple[str, dict]]:
    return [(group, message) for group, message in publish.unpublished() if group in GROUPS]


@pytest.fixture
def flaky_layer():
    layer = FlakyLayer()
    yield layer
    layer.down.clear()  # the republisher sends ours and lets them go
    assert wait_for(lambda: not ours(), 5)


def changed(seq: int) -> list[tuple[str, dict]]:
    return [(GROUPS[0], {"type": "match.changed", "match": TABLE, "seq": seq}),
            (GROUPS[1], {"type": "matches.changed", "table": TABLE})]


def test_a_move_announced_while_redis_is_unreachable_is_announced_once_it_is_back(flaky_layer):
    publish._send_all_blocking(flaky_layer, changed(12))
    assert wait_for(lambda: flaky_layer.tries >= 2, publish.REPUBLISH_EVERY_SECONDS * 10)  # tried again, still away
    assert flaky_layer.published == []

    flaky_layer.down.clear()

    assert wait_for(lambda: flaky_layer.published, publish.REPUBLISH_EVERY_SECONDS * 10)
    assert sorted(flaky_layer.published, key=str) == sorted(changed(12), key=str)
    assert ours() == []


def test_only_the_newest_announcement_of_each_group_is_sent_again(flaky_layer):
    publish._send_all_blocking(flaky_layer, changed(12))
    publish._send_all_blocking(flaky_layer, changed(13))

    flaky_layer.down.clear()

    assert wait_for(lambda: flaky_layer.published, publish.REPUBLISH_EVERY_SECONDS * 10)
    seqs = [message["seq"] for group, message in flaky_layer.published if group == GROUPS[0]]
    assert seqs == [13]
    assert len(flaky_layer.published) == 2
