"""The engine in the browser plays exactly as the server's: Pyodide (in Node, from
node_modules/pyodide, loading the engine zip the site serves) against CPython.

50 matches per rule set, each with its own seed, player count and options, and
random legal moves; every seat's and the spectator's view after every move is
digested on both sides and the digests must be equal. A few practice matches
against Beginner and Medium bots, through the device's own calls, must give the
same answers on both sides too (the Expert thinks against the clock, so its
moves depend on the machine's speed: it is left out here).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from practice.engine_zip import engine_zip_bytes
from tests.practice import agreement

pytestmark = pytest.mark.device

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "pyodide_driver.mjs"
RULESETS = ("septica", "familie", "americana")
MATCHES = 50
RANDOM_JOBS = [[slug, seed] for slug in RULESETS for seed in range(1, MATCHES + 1)]
DEVICE_JOBS = [[slug, seed, level] for slug in RULESETS for seed in (7, 8) for level in ("beginner", "medium")]


def in_pyodide(zip_path: Path, call: str, jobs: list) -> subprocess.Popen:
    node = shutil.which("node")
    assert node, "Node is needed to run Pyodide: install nodejs (make test installs the npm packages)"
    assert (HERE.parents[1] / "node_modules" / "pyodide" / "pyodide.mjs").is_file(), "run `make node` (npm ci)"
    job = {"zip": str(zip_path), "code": Path(agreement.__file__).read_text(), "call": call, "arg": jobs}
    process = subprocess.Popen([node, str(DRIVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    process.stdin.write(json.dumps(job))
    process.stdin.close()
    return process


def answer_of(process: subprocess.Popen) -> list:
    out = process.stdout.read()
    error = process.stderr.read()
    assert process.wait(timeout=600) == 0, error
    return json.loads(out)["result"]


@pytest.fixture(scope="module")
def both_sides(tmp_path_factory):
    """Each job's digests from Pyodide and from CPython (Node runs while CPython plays its own)."""
    zip_path = tmp_path_factory.mktemp("engine") / "engine.zip"
    zip_path.write_bytes(engine_zip_bytes())
    random_run = in_pyodide(zip_path, "digests", RANDOM_JOBS)
    device_run = in_pyodide(zip_path, "device_digests", DEVICE_JOBS)
    cpython = json.loads(agreement.digests(json.dumps(RANDOM_JOBS)))
    cpython_device = json.loads(agreement.device_digests(json.dumps(DEVICE_JOBS)))
    return {
        "random": (answer_of(random_run), cpython),
        "device": (answer_of(device_run), cpython_device),
    }


@pytest.mark.parametrize("slug", RULESETS)
def test_every_view_after_every_move_is_the_same_in_pyodide(both_sides, slug):
    pyodide, cpython = both_sides["random"]
    assert len(pyodide) == len(cpython) == len(RANDOM_JOBS)
    pairs = [(job, mine, theirs) for job, mine, theirs in zip(RANDOM_JOBS, pyodide, cpython, strict=True)
             if job[0] == slug]
    assert len(pairs) == MATCHES
    for job, in_browser, on_server in pairs:
        assert in_browser == on_server, f"{job} differs: {in_browser} against {on_server}"
    # The matches are whole and varied: they end with a result, at several table sizes and options.
    assert all(on_server["result"] is not None and on_server["moves"] > 0 for _, _, on_server in pairs)
    assert len({on_server["players"] for _, _, on_server in pairs}) >= 3
    assert len({json.dumps(on_server["options"], sort_keys=True) for _, _, on_server in pairs}) >= (
        1 if slug == "familie" else 4
    )


def test_practice_against_bots_answers_the_same_in_pyodide(both_sides):
    pyodide, cpython = both_sides["device"]
    assert len(pyodide) == len(cpython) == len(DEVICE_JOBS)
    for job, in_browser, on_server in zip(DEVICE_JOBS, pyodide, cpython, strict=True):
        assert in_browser == on_server, f"{job} differs"
        assert on_server["result"] is not None
