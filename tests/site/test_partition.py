"""A server cut from Redis by the network (packets dropped, nothing refused) keeps answering,
and once healed its sockets catch up without being opened again by hand.

The short version of bench/partition.py's phase (a), run by that script: PostgreSQL,
Redis, two servers, a worker and beat each in a network namespace of their own (made
and removed by the script), three live matches of bots and scripted people, server 1
cut from Redis for CUT_SECONDS: long enough that Redis's backed-off retransmission of a push
lost early in the cut comes well after the 5 s target, so the sockets catch up in time only
if server 1 notices its silent pub/sub connection and connects again
(septica_site/channel_layers.py). It needs root (CI runs as root) and nftables; it starts its own
PostgreSQL and Redis, so it runs the same in the embedded and the PostgreSQL + Redis suites.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.partition import CATCH_UP_TARGET, namespace_problem

ROOT = Path(__file__).resolve().parents[2]
PROBLEM = namespace_problem()
CUT_SECONDS = 15  # TCP doubles its retransmission timeout: a cut just short of a doubling shows it most

pytestmark = pytest.mark.skipif(PROBLEM is not None, reason=f"cannot make network namespaces here: {PROBLEM}")


@pytest.fixture(scope="module")
def drill(tmp_path_factory) -> dict:
    figures = tmp_path_factory.mktemp("partition") / "figures.json"
    done = subprocess.run(
        [sys.executable, "bench/partition.py", "--phases", "a", "--matches", "3", "--cut-seconds", str(CUT_SECONDS),
         "--settle-seconds", "3", "--json", str(figures), "--keep-logs"],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )
    assert figures.exists(), done.stdout + done.stderr
    return {"run": done, **json.loads(figures.read_text())}


def test_the_cut_server_answers_requests_all_along(drill):
    (cut,) = drill["phases"]
    assert cut["requests"] >= 10, drill["run"].stdout
    assert set(cut["statuses"]) == {"200"}, drill["run"].stdout


def test_every_socket_catches_up_within_5_s_of_the_heal(drill):
    (cut,) = drill["phases"]
    assert cut["sockets_behind_at_heal"] >= 1, drill["run"].stdout  # the cut hid some moves from them
    assert cut["sockets_caught_up"] == cut["sockets_behind_at_heal"], drill["run"].stdout
    assert cut["catch_up_max_s"] <= CATCH_UP_TARGET, drill["run"].stdout


def test_no_process_needed_a_restart(drill):
    (cut,) = drill["phases"]
    assert cut["exited"] == {}, drill["run"].stdout + drill["run"].stderr
    assert cut["first_bot_move_after_heal_s"] is not None, drill["run"].stdout  # the bots play on


def test_nothing_acknowledged_is_lost_or_doubled(drill):
    checked = drill["checked"]
    assert checked["acknowledged"] > 0
    assert (checked["lost"], checked["doubled"], checked["verify_exit"]) == (0, 0, 0), drill["run"].stdout
    assert drill["missed"] == [] and drill["run"].returncode == 0, drill["run"].stdout + drill["run"].stderr
