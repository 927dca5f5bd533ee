// The interactive tutorial: the step page sends each move to the server, which
// replays the step with the real engine and answers with the learner's view,
// the cards that fit and, for a wrong move, a friendly explanation.
// Progress is kept in localStorage for everyone (the server keeps it too for
// people logged in); the step lists read it to tick the steps done.
(function () {
  "use strict";
  const STORE = "septica.tutorial.done";

  function loadDone() {
    try {
      return JSON.parse(window.localStorage.getItem(STORE)) || {};
    } catch (error) {
      return {};
    }
  }

  function markDone(game, slug) {
    const done = loadDone();
    const steps = new Set(done[game] || []);
    steps.add(slug);
    done[game] = Array.from(steps);
    try {
      window.localStorage.setItem(STORE, JSON.stringify(done));
    } catch (error) {
      // Private browsing may refuse storage; the step is still done on this page.
    }
    tickSteps();
  }

  function tickSteps() {
    const done = loadDone();
    document.querySelectorAll(".step-list").forEach((list) => {
      const steps = new Set(done[list.dataset.game] || []);
      list.querySelectorAll(".step-link").forEach((item) => {
        if (steps.has(item.dataset.step)) item.classList.add("is-done");
      });
    });
  }

  tickSteps();
  const root = document.getElementById("tutorial");
  if (!root) return;

  const Cards = window.SepticaCards;
  const config = JSON.parse(document.getElementById("tutorial-config").textContent);
  const tableWords = config.text; // the table page's own words, translated on the server
  const words = document.getElementById("tutorial-words").dataset;
  const $ = (id) => document.getElementById(id);
  const fill = (template, values) => template.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
  const done = [];
  let state = JSON.parse(document.getElementById("tutorial-start").textContent);
  let busy = false;
  let pendingSeven = null;

  function cardHTML(code, extra) {
    return Cards.cardHTML(code, { text: config.text, extra });
  }

  function renderSeats(view) {
    const seats = $("seats");
    seats.replaceChildren();
    state.names.forEach((name, seat) => {
      if (seat === view.seat) return;
      const item = document.createElement("li");
      item.className = "seat" + (view.to_move === seat ? " is-turn" : "");
      const parts = [`<span class="seat__name">${Cards.escapeHTML(name)}</span>`];
      const count = view.hand_counts[seat];
      // ngettext and interpolate: the JavaScript catalog (/jsi18n/), loaded by every page.
      const cards = interpolate(ngettext("%(n)s card", "%(n)s cards", count), { n: count }, true);
      parts.push(`<span class="seat__meta"><span>${Cards.escapeHTML(cards)}</span>`);
      if (view.points) parts.push(`<span>${fill(tableWords.points_n, { n: view.points[seat] })}</span>`);
      if (view.to_move === seat) parts.push(`<span class="seat__turn">${Cards.escapeHTML(tableWords.to_move)}</span>`);
      parts.push("</span>");
      item.innerHTML = parts.join("");
      seats.appendChild(item);
    });
  }

  function renderCenter(view) {
    const trick = $("trick");
    const info = [];
    if (view.rules === "americana") {
      trick.innerHTML = `<div class="pile-top">${cardHTML(view.top)}</div>`;
      if (view.suit) info.push(`<span class="suit-in-force">${Cards.escapeHTML(tableWords.suit_in_force)} ${Cards.SUITS[view.suit]}</span>`);
    } else if (view.table.length) {
      trick.innerHTML = view.table.map((played) => {
        const holder = played.seat === view.holder && played === lastBy(view.table, view.holder);
        return `<div class="played${holder ? " is-holder" : ""}">${cardHTML(played.card)}` +
          `<span class="played__who">${Cards.escapeHTML(state.names[played.seat])}</span></div>`;
      }).join("");
    } else {
      trick.innerHTML = `<p class="trick-empty">${Cards.escapeHTML(tableWords.trick_empty)}</p>`;
    }
    info.push(`<span>${fill(tableWords.stock_n, { n: view.stock })}</span>`);
    if (view.removed && view.removed.length) {
      info.push(`<span class="removed">${Cards.escapeHTML(tableWords.removed)} ${view.removed.map((c) => cardHTML(c, "card--mini")).join("")}</span>`);
    }
    if (view.points) info.push(`<span>${fill(tableWords.points_n, { n: view.points[view.seat] })}</span>`);
    $("table-info").innerHTML = info.join(" ");
    renderAttack(view);
  }

  function lastBy(table, seat) {
    for (let i = table.length - 1; i >= 0; i -= 1) if (table[i].seat === seat) return table[i];
    return null;
  }

  function renderAttack(view) {
    const attack = $("attack");
    const pointed = view.attack;
    attack.hidden = !pointed;
    if (!pointed) return;
    const mine = view.to_move === view.seat;
    const name = state.names[view.to_move] || "";
    if (pointed.kind === "draw") {
      attack.textContent = fill(mine ? tableWords.attack_draw_you : tableWords.attack_draw, { n: pointed.count, name });
    } else {
      attack.textContent = fill(mine ? tableWords.attack_skip_you : tableWords.attack_skip, { name });
    }
  }

  function renderHand(view) {
    const hand = $("hand");
    hand.replaceChildren();
    view.hand.forEach((code) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "hand-card" + (state.fits.includes(code) ? " is-legal" : "");
      button.dataset.card = code;
      button.disabled = state.finished;
      button.innerHTML = cardHTML(code);
      hand.appendChild(button);
    });
  }

  function renderMoves(view) {
    const moves = $("moves");
    moves.replaceChildren();
    const kinds = new Set(view.legal_moves.filter((move) => !move.card).map((move) => move.type));
    ["take", "end", "draw", "pass"].forEach((kind) => {
      if (!kinds.has(kind)) return;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move" + (state.fit_moves.includes(kind) ? " move--play" : "");
      button.dataset.move = kind;
      const owed = kind === "draw" && view.attack && view.attack.kind === "draw";
      button.textContent = owed ? fill(tableWords.draw_n, { n: view.attack.count }) : tableWords[kind];
      moves.appendChild(button);
    });
  }

  function renderNews() {
    const news = $("news");
    news.replaceChildren();
    state.news.forEach((line) => {
      const item = document.createElement("li");
      item.textContent = line;
      news.appendChild(item);
    });
  }

  function dealSummary(view) {
    if (!view.last_deal) return "";
    const names = state.names;
    if (view.last_deal.charged) {
      return fill(words.charged, { charged: view.last_deal.charged.map((n, seat) => `${names[seat]} ${n}`).join(", ") });
    }
    const points = view.last_deal.points.map((n, seat) => `${names[seat]} ${n}`).join(", ");
    const won = view.finished && view.result.winners.includes(view.seat);
    return fill(words.dealOver, { points }) + (view.finished ? " " + (won ? words.won : words.matchOver) : "");
  }

  function render() {
    const view = state.view;
    // Once the deal is over the engine has dealt the next one: its cards are not this step's.
    const dealOver = Boolean(view.last_deal);
    renderSeats(view);
    renderCenter(view);
    $("center").hidden = dealOver;
    $("hand").hidden = dealOver;
    renderHand(view);
    renderMoves(view);
    renderNews();
    $("hint").textContent = state.finished ? dealSummary(view) : state.hint;
    const explanation = $("explanation");
    explanation.hidden = !state.explanation;
    explanation.textContent = state.explanation || "";
    if (state.finished) finish();
  }

  function finish() {
    $("learned-text").textContent = state.learned;
    $("learned").hidden = false;
    $("moves").replaceChildren();
    markDone(config.game, config.slug);
    const next = $("next-step") || $("learned").querySelector("button, a");
    next.focus();
  }

  function csrfToken() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  async function send(move) {
    if (busy || state.finished) return;
    busy = true;
    try {
      const response = await fetch(config.move_url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify({ done, move }),
        credentials: "same-origin",
      });
      const answer = await response.json();
      if (!response.ok) {
        showProblem(answer.error || words.network);
        return;
      }
      if (answer.accepted) done.push(move);
      else answer.news = state.news; // a refused move changes nothing, so what happened before still stands
      state = answer;
      render();
    } catch (error) {
      showProblem(words.network);
    } finally {
      busy = false;
    }
  }

  function showProblem(message) {
    const explanation = $("explanation");
    explanation.textContent = message;
    explanation.hidden = false;
  }

  $("hand").addEventListener("click", (event) => {
    const button = event.target.closest(".hand-card");
    if (!button || button.disabled) return;
    const code = button.dataset.card;
    if (state.view.rules === "americana" && code[0] === "7") {
      pendingSeven = code;
      $("suit-dialog").showModal();
      return;
    }
    send({ type: "play", card: code });
  });

  $("moves").addEventListener("click", (event) => {
    const button = event.target.closest("[data-move]");
    if (button) send({ type: button.dataset.move });
  });

  $("suit-dialog").addEventListener("click", (event) => {
    const button = event.target.closest("[data-suit]");
    if (!button || !pendingSeven) return;
    $("suit-dialog").close();
    const card = pendingSeven;
    pendingSeven = null;
    send({ type: "play", card, suit: button.dataset.suit });
  });

  $("replay-step").href = window.location.pathname;
  render();
  root.dataset.ready = "true"; // the browser tests wait for this before the first tap
})();
