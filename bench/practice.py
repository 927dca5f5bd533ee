"""Practice on the device: the engine in Pyodide against CPython, the Expert in the browser, the offline start.

    .venv/bin/python bench/practice.py                 # everything, about seven minutes
    .venv/bin/python bench/practice.py --quick         # about three minutes
    .venv/bin/python bench/practice.py --only engine,expert
    .venv/bin/python bench/practice.py --wait-quiet 300   # first wait up to 5 min for a quiet machine

Sections (``--only``, comma-separated):

- ``engine``: random-game throughput per rule set, legal_moves() + play() pairs a second, on the
  same Python source in CPython (this process), in Pyodide under Node (node_modules/pyodide) and
  in Pyodide in Chromium's worker.
- ``expert``: the Expert's search: rounds (guessed deals played out) a second and decision times
  at a budget, in CPython at the server's 400 ms and at the device's budget
  (games/engine/practice_match.py EXPERT_BUDGET_MS), and in Pyodide in Chromium's worker at the
  device's budget. Positions come from matches between Medium bots, every third decision with
  more than one legal move. These figures are what the budget was chosen from.
- ``browser``: the Expert's decision time p50/p95 as the page sees it: engine.botMove() through
  engine.js and the worker (IndexedDB save included), over the bot decisions that had more than
  one legal move (found by replaying each match's moves in CPython).
- ``offline``: a fresh Chromium profile opens /practice/ and presses "Make practice available
  offline": the bytes sent by the server for it (counted on the wire by a proxy: compressed,
  headers included; Chromium asks for gzip over plain HTTP, and the brotli total a browser gets
  over HTTPS is printed beside it). Then, offline, the time from opening /practice/ to the
  first card you can play (septica against a Medium bot): cold (the browser just started, on
  the same profile) and warm (the same browser, a new tab).

The site runs as `make run` runs it but with DEBUG off, from a temporary SEPTICA_VAR_DIR
(collectstatic and migrate there first), on 127.0.0.1. Targets (issue 17, this 2-core machine):
warm offline start under 3 s, Expert p95 under 1 s, download under 8 MB compressed. Run it on a
quiet machine: the load average is printed first and last.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import rules_for  # noqa: E402 - needs the repo root on sys.path first
from games.engine.practice_match import EXPERT_BUDGET_MS  # noqa: E402
from practice.engine_zip import engine_zip_bytes  # noqa: E402

DRIVER = ROOT / "tests" / "practice" / "pyodide_driver.mjs"
SERVER_BUDGET_MS = 400.0  # games.engine.bots.DEFAULT_BUDGET_MS: what the server's Expert thinks
HOST = "127.0.0.1"
SECTIONS = ("engine", "expert", "browser", "offline")
WARM_TARGET_S, EXPERT_P95_TARGET_MS, DOWNLOAD_TARGET_MB = 3.0, 1000.0, 8.0

# Run as it stands in CPython, in Pyodide under Node and in Pyodide in Chromium: the same code
# on the same engine, so the figures compare interpreters and nothing else.
SHARED = r'''
import dataclasses, json, random, time
from games.engine import rules_for
from games.engine.bots import choose_move, registry
from games.engine.bots import search as search_module

def throughput(request):
    """legal_moves() + play() pairs a second over whole random matches, per rule set: the best of three
    runs, since a busy neighbour can only slow a run down."""
    args = json.loads(request)
    out = {}
    for slug, players in args["tables"]:
        rules = rules_for(slug)
        best = 0.0
        for _ in range(3):
            rng = random.Random(1)
            pairs, seed, elapsed = 0, 0, 0.0
            while pairs < args["pairs"]:
                seed += 1
                game = rules.new_game(players=players, seed=seed)
                started = time.perf_counter()
                while not game.finished and pairs < args["pairs"]:
                    game = game.play(rng.choice(game.legal_moves()))
                    pairs += 1
                elapsed += time.perf_counter() - started
            best = max(best, pairs / elapsed)
        out[f"{slug}-{players}"] = best
    return json.dumps(out)

ROUNDS = [0]

def counting(view):
    """The rule set's search hooks, counting the guessed deals the search plays out."""
    entry = registry.bots_for(view)
    inner = entry.play_out
    def play_out(*args):
        ROUNDS[0] += 1
        return inner(*args)
    return dataclasses.replace(entry, play_out=play_out)

def positions(slug, players, seed, every):
    game = rules_for(slug).new_game(players=players, seed=seed)
    rng = random.Random(seed)
    found, decisions = [], 0
    while not game.finished and game.deal == 0:
        view = game.view(game.to_move)
        if len(view["legal_moves"]) > 1:
            decisions += 1
            if decisions % every == 0:
                found.append(view)
        game = game.play(choose_move(view, "medium", "balanced", rng))
    return found

def expert(request):
    """The Expert's decision times and rounds at a budget, on the same positions everywhere."""
    args = json.loads(request)
    search_module.bots_for = counting
    try:
        out = {}
        for slug, players in args["tables"]:
            views, seed = [], 0
            while len(views) < args["positions"]:
                seed += 1
                views += positions(slug, players, seed, 3)
            times, rounds = [], []
            for i, view in enumerate(views[:args["positions"]]):
                ROUNDS[0] = 0
                started = time.perf_counter()
                choose_move(view, "expert", "expert", random.Random(i), budget_ms=args["budget_ms"])
                times.append((time.perf_counter() - started) * 1000)
                rounds.append(ROUNDS[0])
            out[f"{slug}-{players}"] = {"ms": times, "rounds": rounds}
        return json.dumps(out)
    finally:
        search_module.bots_for = registry.bots_for
'''

ENGINE_TABLES = [["septica", 2], ["septica", 4], ["familie", 3], ["americana", 2], ["americana", 4]]
EXPERT_TABLES = [["septica", 2], ["septica", 4], ["familie", 3], ["americana", 2], ["americana", 3]]


def in_cpython(call: str, arg) -> dict:
    namespace: dict = {}
    exec(SHARED, namespace)  # noqa: S102 - the bench's own source, run the same way in Pyodide
    return json.loads(namespace[call](json.dumps(arg)))


def in_node(zip_path: Path, call: str, arg) -> dict:
    job = json.dumps({"zip": str(zip_path), "code": SHARED, "call": call, "arg": arg})
    done = subprocess.run(["node", str(DRIVER)], input=job, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"Pyodide in Node failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout)["result"]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


# --- the site, and the bytes it sends -----------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def site_env(var_dir: Path) -> dict:
    env = {**os.environ, "SEPTICA_VAR_DIR": str(var_dir), "DEBUG": "0", "HTTPS": "0", "LOG_LEVEL": "WARNING",
           "SECRET_KEY": os.environ.get("SECRET_KEY") or "bench-only-secret-key-" + "x" * 40,
           "ALLOWED_HOSTS": "127.0.0.1,localhost", "EMAIL_URL": "dummy:"}
    for name in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH", "STATIC_ROOT"):
        env.pop(name, None)
    return env


@contextmanager
def site():
    """The site on a free port, behind a proxy that counts the bytes it sends; yields (url, counter)."""
    scratch = Path(tempfile.mkdtemp(prefix="practice-bench-"))
    env = site_env(scratch)
    python = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else sys.executable
    for command in (["collectstatic", "--noinput", "--verbosity", "0"], ["migrate", "--noinput", "--verbosity", "0"]):
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True)
    port, public = free_port(), free_port()
    with open(scratch / "server.log", "wb") as log:
        server = subprocess.Popen([python, "manage.py", "serve", "--host", HOST, "--port", str(port)], cwd=ROOT,
                                  env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    counter = ByteCounter(port, public)
    try:
        wait_for(f"http://{HOST}:{port}/healthz", server)
        counter.start()
        yield f"http://{HOST}:{public}", counter
    finally:
        counter.stop()
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(scratch, ignore_errors=True)


def wait_for(url: str, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit("the site did not start")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.2)
    sys.exit("the site did not answer in time")


class ByteCounter:
    """A TCP proxy in a thread: what the server sends to the browser, counted as it passes."""

    def __init__(self, target: int, port: int) -> None:
        self.target, self.port, self.sent = target, port, 0
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def start(self) -> None:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._serve(), self.loop).result(timeout=10)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)

    async def _serve(self) -> None:
        self.server = await asyncio.start_server(self._client, HOST, self.port)

    async def _client(self, reader, writer) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(HOST, self.target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pipe(reader, upstream_writer, False), self._pipe(upstream_reader, writer, True))

    async def _pipe(self, reader, writer, count: bool) -> None:
        try:
            while data := await reader.read(65536):
                if count:
                    self.sent += len(data)
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()


def brotli_total(url: str) -> int | None:
    """The practice download's compressed bytes as a browser over HTTPS gets them (brotli where collected)."""
    try:
        with urllib.request.urlopen(f"{url}/practice/") as response:
            page = response.read().decode()
    except OSError:
        return None
    marker = 'id="table-config" type="application/json">'
    if marker not in page:
        return None
    config = json.loads(page.split(marker, 1)[1].split("</script>", 1)[0])
    offline = config.get("offline") or {}
    total = 0
    for file in offline.get("files", []):
        request = urllib.request.Request(url + file["url"], headers={"Accept-Encoding": "br, gzip"})
        with urllib.request.urlopen(request) as response:
            total += len(response.read())
    return total or None


# --- Chromium ------------------------------------------------------------------------------------------
def chromium():
    from playwright.sync_api import sync_playwright

    from tests.browser.fixtures import CHROMIUM, CHROMIUM_ARGS

    return sync_playwright(), CHROMIUM, CHROMIUM_ARGS


def engine_config(page, url: str) -> dict:
    """What the practice page gives engine.js (practice/assets.py engine_config()), read from the page."""
    page.goto(f"{url}/practice/")
    return json.loads(page.locator("#table-config").text_content())["engine"]


# A worker of the bench's own, like the engine's: Pyodide and the engine zip, then SHARED.
IN_WORKER = """async ([engine, code, call, arg]) => {
  const source = `
    self.onmessage = async (event) => {
      const [engine, code, call, arg] = event.data;
      const { loadPyodide } = await import(engine.pyodide);
      const pyodide = await loadPyodide({ indexURL: engine.index });
      const zip = await (await fetch(engine.engine_zip)).arrayBuffer();
      pyodide.unpackArchive(zip, "zip", { extractDir: "/engine" });
      pyodide.runPython("import sys; sys.path.insert(0, '/engine')");
      const namespace = pyodide.globals.get("dict")();
      pyodide.runPython(code, { globals: namespace });
      self.postMessage(namespace.get(call)(JSON.stringify(arg)));
    };`;
  const absolute = Object.fromEntries(Object.entries(engine).map(([k, v]) => [k, k === "engine_version" ? v : new URL(v, location.href).href]));
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })), { type: "module" });
  const answer = await new Promise((resolve, reject) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.onerror = (event) => reject(new Error(event.message));
    worker.postMessage([absolute, code, call, arg]);
  });
  worker.terminate();
  return JSON.parse(answer);
}"""

# Expert matches through engine.js: you play a legal move picked from the seed, each bot move timed.
BOT_MOVES = """async ([engine, settings, decisions]) => {
  const { openEngine } = await import("/static/js/practice/engine.js");
  const practice = await openEngine(engine);
  const matches = [];
  let count = 0;
  let pick = settings.seed;
  while (count < decisions) {
    const match = { seed: settings.seed, moves: [], timed: [] };
    matches.push(match);
    let answer = await practice.start(settings);
    while (!answer.finished && count < decisions) {
      if (answer.to_move === 0) {
        pick = (pick * 1103515245 + 12345) % 2147483648;
        answer = await practice.play(answer.view.legal_moves[pick % answer.view.legal_moves.length]);
      } else {
        const started = performance.now();
        answer = await practice.botMove();
        match.timed.push({ index: match.moves.length, ms: performance.now() - started });
        count++;
      }
      if (answer.error) throw new Error(JSON.stringify(answer.error));
      match.moves.push(answer.moved.move);
    }
    settings = { ...settings, seed: settings.seed + 1 };
  }
  practice.close();
  return matches;
}"""


def thinking_times(slug: str, players: int, options: dict, matches: list[dict]) -> list[float]:
    """The timed bot decisions that had a choice, found by replaying each match's moves in CPython."""
    rules = rules_for(slug)
    times = []
    for match in matches:
        game = rules.new_game(players=players, options=rules.validate_options(players, options), seed=match["seed"])
        timed = {entry["index"]: entry["ms"] for entry in match["timed"]}
        for index, move in enumerate(match["moves"]):
            if index in timed and len(game.legal_moves()) > 1:
                times.append(timed[index])
            game = game.play(move)
    return times


# --- the sections --------------------------------------------------------------------------------------
def run_engine(zip_path: Path, quick: bool, page, engine: dict) -> None:
    arg = {"tables": ENGINE_TABLES, "pairs": 10_000 if quick else 40_000}
    cpython = in_cpython("throughput", arg)
    node = in_node(zip_path, "throughput", arg)
    browser = page.evaluate(IN_WORKER, [engine, SHARED, "throughput", arg]) if page else {}
    print("\nRandom-game throughput: legal_moves() + play() pairs a second (one core each, best of three)")
    print(f"{'table':>14} {'CPython':>9} {'Node':>9} {'Chromium':>9}   CPython / Pyodide (Node, Chromium)")
    for key, fast in cpython.items():
        chrome = browser.get(key)
        chrome_text = f"{chrome:9.0f}" if chrome else f"{'-':>9}"
        ratio = f"{fast / node[key]:.1f}x" + (f", {fast / chrome:.1f}x" if chrome else "")
        print(f"{key:>14} {fast:9.0f} {node[key]:9.0f} {chrome_text}   {ratio}")


def expert_rows(name: str, budget: float, result: dict) -> dict:
    total_rounds = total_ms = 0.0
    for key, figures in result.items():
        ms, rounds = figures["ms"], figures["rounds"]
        total_rounds += sum(rounds)
        total_ms += sum(ms)
        print(f"{name:>22} {budget:5.0f} {key:>12} {percentile(ms, 0.5):6.0f} {percentile(ms, 0.95):6.0f} "
              f"{sum(rounds) / sum(ms) * 1000:9.0f} {statistics.median(rounds):7.0f}")
    return {"rounds_per_s": total_rounds / total_ms * 1000}


def run_expert(quick: bool, page, engine: dict) -> None:
    positions = 8 if quick else 20
    print(f"\nThe Expert's search ({positions} positions per table; rounds = guessed deals played out)")
    print(f"{'where':>22} {'budget':>5} {'table':>12} {'p50 ms':>6} {'p95 ms':>6} {'rounds/s':>9} {'rounds':>7}")
    server = expert_rows("CPython (server)", SERVER_BUDGET_MS, in_cpython(
        "expert", {"tables": EXPERT_TABLES, "positions": positions, "budget_ms": SERVER_BUDGET_MS}))
    expert_rows("CPython", EXPERT_BUDGET_MS, in_cpython(
        "expert", {"tables": EXPERT_TABLES, "positions": positions, "budget_ms": EXPERT_BUDGET_MS}))
    if page:
        device = expert_rows("Pyodide (Chromium)", EXPERT_BUDGET_MS, page.evaluate(IN_WORKER, [
            engine, SHARED, "expert", {"tables": EXPERT_TABLES, "positions": positions,
                                            "budget_ms": EXPERT_BUDGET_MS}]))
        ratio = server["rounds_per_s"] / device["rounds_per_s"]
        print(f"{'':>22} CPython does {ratio:.2f}x the rounds a second of Pyodide in Chromium: "
              f"{EXPERT_BUDGET_MS:.0f} ms there is worth about {EXPERT_BUDGET_MS / ratio:.0f} ms of the server's "
              f"{SERVER_BUDGET_MS:.0f} ms")


def run_browser(quick: bool, page, engine: dict) -> None:
    decisions = 15 if quick else 40
    tables = [("septica", 2, {}), ("familie", 3, {}), ("americana", 2, {})]
    print(f"\nThe Expert in Chromium's worker, as the page waits for it (engine.botMove(), save included; "
          f"budget {EXPERT_BUDGET_MS:.0f} ms)")
    every = []
    for slug, players, options in tables:
        seats = [{"kind": "you"}] + [{"kind": "bot", "level": "expert", "style": "expert", "name": None}
                                     for _ in range(players - 1)]
        settings = {"rules": slug, "players": players, "options": options, "seed": 1000, "seats": seats}
        matches = page.evaluate(BOT_MOVES, [engine, settings, decisions])
        thinking = thinking_times(slug, players, options, matches)
        every += thinking
        print(f"{slug + '-' + str(players):>14}: {len(thinking)} decisions with a choice, "
              f"p50 {percentile(thinking, 0.5):.0f} ms, p95 {percentile(thinking, 0.95):.0f} ms, "
              f"max {max(thinking):.0f} ms")
    # What a move costs besides the thinking: a Medium bot decides in a millisecond or two, so its
    # round trip is the view, the record, the IndexedDB save and the messages.
    seats = [{"kind": "you"}, {"kind": "bot", "level": "medium", "style": "balanced", "name": None}]
    settings = {"rules": "septica", "players": 2, "options": {}, "seed": 2000, "seats": seats}
    medium = [entry["ms"] for match in page.evaluate(BOT_MOVES, [engine, settings, 40]) for entry in match["timed"]]
    print(f"{'overhead':>14}: a Medium bot's move answered and saved, p50 {percentile(medium, 0.5):.0f} ms, "
          f"p95 {percentile(medium, 0.95):.0f} ms")
    p95 = percentile(every, 0.95)
    verdict = "ok" if p95 < EXPERT_P95_TARGET_MS else "OVER"
    print(f"{'all':>14}: p50 {percentile(every, 0.5):.0f} ms, p95 {p95:.0f} ms "
          f"(target under {EXPERT_P95_TARGET_MS:.0f}: {verdict})")


FIRST_CARD = "#hand .hand-card.is-legal"


def start_offline(page, url: str) -> tuple[float, float, float]:
    """Seconds from opening /practice/ (offline) to the first card you can play, to the page's load event, and
    from pressing Start to that card."""
    started = time.perf_counter()
    page.goto(f"{url}/practice/")
    loaded = time.perf_counter() - started
    page.select_option("#practice_rules", "septica")
    page.select_option("#practice_players", "2")
    page.select_option("#practice_seat_1_level", "medium")
    page.click("#practice-start")
    clicked = time.perf_counter()
    page.wait_for_selector(FIRST_CARD, state="visible", timeout=120_000)
    done = time.perf_counter()
    return done - started, loaded, done - clicked


OPEN_TIMED = """async (engine) => {
  const started = performance.timeOrigin + performance.now();
  const { openEngine } = await import("/static/js/practice/engine.js");
  const stages = {};
  const practice = await openEngine(engine, (progress) => (stages[progress.stage] = progress.at - started));
  const seats = [{kind: "you"}, {kind: "bot", level: "medium", style: "balanced", name: null}];
  await practice.start({rules: "septica", players: 2, options: {}, seed: 5, seats});
  stages.start = performance.timeOrigin + performance.now() - started;
  await practice.forget();
  practice.close();
  return stages;
}"""


def forget_match(page) -> None:
    """No saved match, so each start is a new one rather than a resumed one."""
    page.evaluate("""() => new Promise((resolve) => {
      const request = indexedDB.deleteDatabase("septica-practice");
      request.onsuccess = request.onerror = request.onblocked = () => resolve();
    })""")


def run_offline(url: str, counter: ByteCounter, quick: bool, playwright, executable: str, args: list[str]) -> None:
    profile = Path(tempfile.mkdtemp(prefix="practice-bench-profile-"))
    try:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=executable, headless=True, args=args, bypass_csp=True)
        page = context.new_page()
        before = counter.sent
        page.goto(f"{url}/practice/")
        page.wait_for_load_state("networkidle")
        opened = counter.sent - before
        page.get_by_role("button", name="Make practice available offline").click()
        page.wait_for_selector('#practice-offline[data-state="ready"], #practice-offline[data-state="failed"]',
                               timeout=300_000)
        if page.locator("#practice-offline").get_attribute("data-state") != "ready":
            sys.exit(f"the download failed: {page.locator('#offline-status').text_content()}")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        installed = counter.sent - before
        brotli = brotli_total(url)
        print("\nFirst install (a fresh profile, /practice/, then 'Make practice available offline')")
        print(f"  opening /practice/: {opened / 1e6:.2f} MB; with the download: {installed / 1e6:.2f} MB on the wire "
              f"(gzip: Chromium asks no brotli of plain HTTP)"
              + (f"; the same files in brotli (HTTPS): {brotli / 1e6:.2f} MB" if brotli else "")
              + f"  (target under {DOWNLOAD_TARGET_MB:.0f} MB: {'ok' if installed / 1e6 < DOWNLOAD_TARGET_MB else 'OVER'})")

        runs = 2 if quick else 4
        context.set_offline(True)
        forget_match(page)
        # The first start after the download compiles the runtime for the first time; "warm" is the next ones.
        tab = context.new_page()
        first = start_offline(tab, url)
        forget_match(tab)
        tab.close()
        warm = []
        for _ in range(runs):
            tab = context.new_page()
            warm.append(start_offline(tab, url))
            forget_match(tab)
            tab.close()
        tab = context.new_page()
        stages = tab.evaluate(OPEN_TIMED, engine_config(tab, url))
        tab.close()
        context.close()

        cold = []
        for _ in range(runs):
            context = playwright.chromium.launch_persistent_context(
                str(profile), executable_path=executable, headless=True, args=args, bypass_csp=True, offline=True)
            page = context.pages[0] if context.pages else context.new_page()
            cold.append(start_offline(page, url))
            forget_match(page)
            context.close()
        print("Offline: opening /practice/ to the first card you can play (septica against a Medium bot)")
        print(f"  the first start after the download (the runtime compiled for the first time): {first[0]:.2f} s")
        for name, runs_of in (("cold (Chromium just started)", cold), ("warm (a new tab)", warm)):
            total = statistics.median(run[0] for run in runs_of)
            target = f" (target under {WARM_TARGET_S:.0f} s: {'ok' if total < WARM_TARGET_S else 'OVER'})" if (
                runs_of is warm) else ""
            print(f"  {name}: {', '.join(f'{run[0]:.2f}' for run in runs_of)} s, median {total:.2f} s{target}; "
                  f"the page's load event at {statistics.median(run[1] for run in runs_of):.2f} s, "
                  f"Start to the card {statistics.median(run[2] for run in runs_of):.2f} s")
        print("  of which the engine, warm, from openEngine(): "
              + ", ".join(f"{stage} at {ms:.0f} ms" for stage, ms in stages.items()))
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def wait_quiet(seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while os.getloadavg()[0] > 0.7 and time.monotonic() < deadline:
        time.sleep(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated, of: {', '.join(SECTIONS)}")
    parser.add_argument("--wait-quiet", type=float, default=0, metavar="SECONDS",
                        help="wait up to this long for a 1-minute load average under 0.7 first")
    args = parser.parse_args()
    sections = {name.strip() for name in args.only.split(",") if name.strip()}
    unknown = sections - set(SECTIONS)
    if unknown:
        sys.exit(f"unknown sections: {', '.join(sorted(unknown))}; choose from {', '.join(SECTIONS)}")
    if shutil.which("node") is None or not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        sys.exit("needs node and node_modules/pyodide: run `make node`")
    if args.wait_quiet:
        wait_quiet(args.wait_quiet)
    print(f"bench/practice.py, {load()}")
    random.seed(0)
    scratch = Path(tempfile.mkdtemp(prefix="practice-bench-zip-"))
    zip_path = scratch / "engine.zip"
    zip_path.write_bytes(engine_zip_bytes())
    manager, executable, chromium_args = chromium()
    try:
        with site() as (url, counter), manager as playwright:
            browser = playwright.chromium.launch(executable_path=executable, headless=True, args=chromium_args)
            context = browser.new_context(bypass_csp=True)
            page = context.new_page()
            engine = engine_config(page, url)
            page.goto(f"{url}/")
            if "engine" in sections:
                run_engine(zip_path, args.quick, page, engine)
            if "expert" in sections:
                run_expert(args.quick, page, engine)
            if "browser" in sections:
                run_browser(args.quick, page, engine)
            browser.close()
            if "offline" in sections:
                run_offline(url, counter, args.quick, playwright, executable, chromium_args)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"\ndone, {load()}")


if __name__ == "__main__":
    main()
