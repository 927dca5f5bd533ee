"""The engine in Chromium: engine.js starts the worker, which loads Pyodide and the engine zip
the site serves (practice/assets.py engine_config()) and answers every call; the match is in
IndexedDB after every move, so a reload resumes it; a saved match no engine can continue is over
with "cannot-load"; the page keeps running while the Expert thinks.

Driven from the site's home page through page.evaluate, importing /static/js/practice/engine.js
as the practice page does.
"""

from __future__ import annotations

import pytest
from django.templatetags.static import static

from practice.assets import engine_config

pytestmark = [pytest.mark.browser, pytest.mark.device]

HIDDEN_KEYS = ("state", "hands", "stock_cards")

OPEN = """async ([engineUrl, storeUrl, config]) => {
  const { openEngine } = await import(engineUrl);
  window.practiceStore = await import(storeUrl);
  window.stages = [];
  window.engine = await openEngine(config, (progress) => window.stages.push(progress.stage));
  return window.stages;
}"""

# Plays your moves (the first legal one) and the bots' until `seq` moves are played.
PLAY_TO = """async (seq) => {
  let answer = window.answer;
  while (answer.seq < seq && !answer.finished) {
    answer = answer.to_move === 0 ? await window.engine.play(answer.view.legal_moves[0]) : await window.engine.botMove();
    if (answer.error) return answer;
  }
  window.answer = answer;
  return answer;
}"""


def settings(level="medium", seed=4242):
    return {"rules": "septica", "players": 2, "options": {}, "seed": seed,
            "seats": [{"kind": "you"}, {"kind": "bot", "level": level, "style": "balanced", "name": "Ana"}]}


def open_engine(page, server):
    page.goto(f"{server.url}/")
    urls = [static("js/practice/engine.js"), static("js/practice/store.js"), engine_config()]
    return page.evaluate(OPEN, urls)


def test_the_worker_plays_saves_every_move_and_resumes_after_a_reload(live_server, page):
    assert open_engine(page, live_server) == ["runtime", "engine", "ready"]
    answer = page.evaluate("async (s) => (window.answer = await window.engine.start(s))", settings())
    assert answer["seq"] == 0 and answer["saved"] is True
    assert answer["view"]["seat"] == 0 and len(answer["view"]["hand"]) == 4
    assert answer["seats"][1] == {"kind": "bot", "name": "Ana", "level": "medium", "style": "balanced"}
    assert not any(key in answer for key in HIDDEN_KEYS)

    answer = page.evaluate(PLAY_TO, 9)
    assert "error" not in answer and answer["seq"] == 9
    assert page.evaluate("() => window.practiceStore.savedPractice()") == {
        "rules": "septica", "players": 2, "finished": False, "seq": 9}

    # A card you do not hold: refused with the rule's code, nothing changes, nothing saved.
    hand = set(answer["view"]["hand"])
    other = next(card for card in ("7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH", "7S") if card not in hand)
    answer = page.evaluate("""async () => {
      while (window.answer.to_move !== 0) window.answer = await window.engine.botMove();
      return window.answer;
    }""")
    refused = page.evaluate("async (card) => window.engine.play({type: 'play', card})", other)
    assert refused["error"]["code"] == "card-not-held" and refused["seq"] == answer["seq"]
    assert refused["view"] == answer["view"]

    page.reload()
    open_engine(page, live_server)
    resumed = page.evaluate("async () => (window.answer = await window.engine.resume())")
    assert resumed["seq"] == answer["seq"] and resumed["view"] == answer["view"]
    finished = page.evaluate(PLAY_TO, 10_000)
    assert finished["finished"] and finished["result"]["scores"]
    assert page.evaluate("() => window.practiceStore.savedPractice()")["finished"] is True
    results = page.evaluate("() => window.practiceStore.practiceResults()")
    assert results[0]["result"] == finished["result"] and results[0]["rules"] == "septica"
    assert page.evaluate("async () => window.engine.resume()") is None  # over: nothing to resume

    assert page.evaluate("async () => window.engine.forget()") is None
    assert page.evaluate("() => window.practiceStore.savedPractice()") is None


def test_a_saved_match_no_engine_can_continue_is_over_with_a_clear_word(live_server, page):
    open_engine(page, live_server)
    page.evaluate("""() => window.practiceStore.saveRecord({format: 0, engine_version: "0000000000000000",
        rules: "septica", players: 2, seq: 5, finished: false, moves: [], state: {}})""")
    assert page.evaluate("() => window.practiceStore.savedPractice()")["seq"] == 5
    answer = page.evaluate("async () => window.engine.resume()")
    assert answer["error"]["code"] == "cannot-load"
    assert answer["error"]["params"]["rules"] == "septica"
    assert page.evaluate("() => window.practiceStore.savedPractice()") is None


def test_the_page_keeps_running_while_the_expert_thinks(live_server, page):
    open_engine(page, live_server)
    thought = page.evaluate("""async (s) => {
      let answer = await window.engine.start(s);
      if (answer.to_move === 0) answer = await window.engine.play(answer.view.legal_moves[0]);
      let ticks = 0;
      const timer = setInterval(() => ticks++, 20);
      const started = performance.now();
      answer = await window.engine.botMove();
      const ms = performance.now() - started;
      clearInterval(timer);
      return {ms, ticks, moved: answer.moved};
    }""", settings("expert", seed=77))
    assert thought["moved"]["seat"] == 1
    # The page's own timer kept firing through the thinking: the worker, not the page, was busy.
    assert thought["ticks"] >= thought["ms"] / 20 / 4, thought
