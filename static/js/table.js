// The table page: draws the viewer's view and plays moves.
//
// Everything on screen comes from render(data), where data is the API's
// answer for one table (GET /api/tables/<id>). The websocket /ws/tables/<id>/
// pushes the same data after every change and takes moves; while it is down
// the page says so, polls the JSON API and posts moves over HTTP instead.
(function () {
  "use strict";
  const Cards = window.SepticaCards;
  const Durations = window.SepticaDurations;
  const config = JSON.parse(document.getElementById("table-config").textContent);
  const T = config.text;
  const $ = (id) => document.getElementById(id);
  const esc = Cards.escapeHTML;
  const ORDER_KEY = `septica.hand.${config.id}`;

  let data = JSON.parse(document.getElementById("table-data").textContent);
  let picked = null; // the card picked up (raised), if any
  let pending = null; // the card on its way to the server
  let busy = false; // a request that changes the table is in flight
  let drag = null; // the pointer drag in progress
  let suppressClick = false;
  let pollTimer = null;
  let handKey = "";
  let lastStatus = "";
  let bannerFor = null;
  let live = null; // the LiveSocket, when the browser has one
  let moveWait = null; // a move sent over the socket, waiting for its answer
  let deferred = null; // a pushed view that arrived in the middle of a drag
  let presence = { present: [], spectators: 0 };
  let shownCards = []; // the cards in the middle at the last draw, to see which just landed
  let centerKey = "";
  let shownTrick = 0; // how many played cards (not counting one on its way) the middle showed
  const LIVE = $("live-text").dataset;
  const MOVE_ANSWER_MS = 8000;
  const SLOW_POLL_MS = 30000;
  const calm = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  // --- small helpers ------------------------------------------------------
  function fmt(text, params) {
    return String(text).replace(/%\((\w+)\)s/g, (_, key) => (params && key in params ? params[key] : ""));
  }
  // Plurals come from the JavaScript catalog (/jsi18n/): Romanian has three forms.
  const waitingFor = (n) => interpolate(ngettext("Waiting for %(n)s more player.", "Waiting for %(n)s more players.", n), { n }, true);
  const view = () => data.view;
  const isMyTurn = () => data.status !== "aborted" && Boolean(view()) && view().seat !== null && view().to_move === view().seat && !view().finished;

  function seatName(seat) {
    const info = data.seats[seat];
    return (info && info.name) || fmt(T.seat_n, { n: seat + 1 });
  }
  function short(code) {
    return Cards.cardShort(code);
  }
  function cardHTML(code, extra) {
    return Cards.cardHTML(code, { text: T, extra });
  }
  function apiURL(suffix) {
    const url = config.api + (suffix || "");
    return config.invite ? `${url}?invite=${encodeURIComponent(config.invite)}` : url;
  }
  function csrfToken() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }
  function timeLeft(deadline) {
    return Durations.timeLeft(Durations.secondsUntil(deadline), T.units);
  }

  // --- the hand's order, kept per table in this browser -------------------------
  function savedOrder() {
    try {
      const order = JSON.parse(localStorage.getItem(ORDER_KEY) || "[]");
      return Array.isArray(order) ? order : [];
    } catch (error) {
      return [];
    }
  }
  function saveOrder(order) {
    try {
      localStorage.setItem(ORDER_KEY, JSON.stringify(order));
    } catch (error) {
      /* private mode: the order lasts until the page is left */
    }
  }
  function handInOrder(hand) {
    const kept = savedOrder().filter((card) => hand.includes(card));
    return kept.concat(hand.filter((card) => !kept.includes(card)));
  }

  // --- talking to the server ------------------------------------------------
  async function request(method, url, body) {
    const options = { method, credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } };
    if (method !== "GET") {
      options.headers["Content-Type"] = "application/json";
      options.headers["X-CSRFToken"] = csrfToken();
      options.body = JSON.stringify(body || {});
    }
    const response = await fetch(url, options);
    let json = {};
    try {
      json = await response.json();
    } catch (error) {
      /* an empty or HTML answer: the status says enough */
    }
    return { status: response.status, json };
  }

  async function refresh() {
    try {
      const { status, json } = await request("GET", apiURL());
      if (status === 200) render(json);
      else if (status === 404) showGone();
    } catch (error) {
      if ($("live-banner").hidden) toast(T.network); // the offline banner already says so
    }
  }

  function schedulePoll() {
    clearTimeout(pollTimer);
    // The socket brings every change; a slow poll stays on as a safety net.
    const every = live && live.online ? SLOW_POLL_MS : config.poll_ms;
    if (data.status === "open" || data.status === "playing") pollTimer = setTimeout(poll, every);
  }
  async function poll() {
    if (document.visibilityState === "visible" && !busy && !drag) await refresh();
    schedulePoll();
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && !busy) refresh();
  });

  async function sendMove(move) {
    busy = true;
    pending = move.card || null;
    renderPlay();
    if (live && live.online && live.send({ type: "move", seq: data.seq, move })) {
      moveWait = { seq: data.seq, timer: setTimeout(moveLost, MOVE_ANSWER_MS) };
      return;
    }
    let answer;
    try {
      answer = await request("POST", apiURL("/moves"), { seq: data.seq, move });
    } catch (error) {
      answer = { status: 0, json: {} };
    }
    busy = false;
    const returned = pending;
    pending = null;
    if (answer.status === 200) {
      picked = null;
      render(answer.json);
      return;
    }
    if (answer.status === 400) {
      picked = null;
      renderPlay(returned);
      toast(answer.json.error);
    } else if (answer.status === 409) {
      picked = null;
      await refresh();
    } else if (answer.status === 0) {
      renderPlay();
      toast(T.network);
      await refresh();
    } else {
      renderPlay();
      toast(answer.json.error || T.not_your_turn);
    }
  }

  // The socket's answer to a move is the next view, or an error.
  function moveAnswered() {
    clearTimeout(moveWait.timer);
    moveWait = null;
    busy = false;
    const returned = pending;
    pending = null;
    return returned;
  }
  // No answer, or the socket dropped with the move in flight: ask over HTTP where things stand.
  function moveLost() {
    if (!moveWait) return;
    moveAnswered();
    renderPlay();
    refresh();
  }
  function moveRefused(message) {
    const returned = moveAnswered();
    if (message.status === 400) {
      picked = null;
      renderPlay(returned);
      toast(message.error);
    } else if (message.status === 409) {
      picked = null;
      renderPlay();
      sync();
    } else {
      renderPlay();
      toast(message.error || T.not_your_turn);
    }
  }

  function playCard(card) {
    if (!isMyTurn() || busy) {
      toast(T.not_your_turn);
      renderPlay(card);
      return;
    }
    if (view().rules === "americana" && card[0] === "7") {
      chooseSuit(card);
      return;
    }
    sendMove({ type: "play", card });
  }

  // --- render: the one way the page changes ------------------------------------------
  function render(next) {
    if (!next || (next.id === data.id && next.seq < data.seq)) return; // an older answer overtaken
    if (drag && drag.moving) {
      deferred = next; // redrawing the hand now would drop the card being dragged
      return;
    }
    deferred = null;
    const before = data;
    data = next;
    announceChanges(before, next);
    renderAll();
    schedulePoll();
  }

  function renderAll() {
    renderOpenPanel();
    $("felt").hidden = !view();
    $("spectator-note").hidden = !(view() && view().seat === null);
    if (view()) {
      renderSeats();
      renderCenter();
      renderPlay();
      renderLog();
    }
    renderScores();
    renderBanner();
    renderStandIn();
    renderAbortNote();
    tick();
  }

  function renderAbortNote() {
    const note = $("abort-note");
    note.hidden = data.status !== "aborted" || !data.abort_reason;
    if (!note.hidden) note.textContent = fmt(note.dataset.text, { reason: data.abort_reason });
  }

  function renderPlay(snapBack) {
    if (!view()) return;
    renderHand(snapBack);
    renderCenter();
    renderMoves();
    renderStatus();
  }

  // --- seats ----------------------------------------------------------------------------
  function seatHTML(seat) {
    const v = view();
    const info = data.seats[seat];
    const classes = ["seat"];
    if (v.to_move === seat && !v.finished) classes.push("is-turn");
    if (v.holder === seat && (v.table || []).length) classes.push("is-holder");
    if (info.you) classes.push("seat--you");
    const here = info.kind === "person" && presence.present.includes(seat);
    if (here) classes.push("is-present");
    const badges = [];
    if (info.you) badges.push(`<span class="badge badge--you">${esc(T.you)}</span>`);
    if (info.kind === "bot") badges.push(`<span class="badge">${esc(T.bot)}</span>`);
    if (info.standing_in) badges.push(`<span class="badge badge--warn">${esc(T.standing_in)}</span>`);
    if (v.dealer === seat) badges.push(`<span class="badge badge--quiet">${esc(T.dealer)}</span>`);
    if ((v.passed || []).includes(seat)) badges.push(`<span class="badge badge--quiet">${esc(T.passed)}</span>`);
    const count = v.hand_counts[seat];
    const meta = [`<span class="seat__cards">${Cards.cardBackHTML("card--mini")}${esc(interpolate(ngettext("%(n)s card", "%(n)s cards", count), { n: count }, true))}</span>`];
    if (v.points) meta.push(`<span class="seat__points">${esc(fmt(T.points_n, { n: v.points[seat] }))}</span>`);
    let turn = "";
    if (v.to_move === seat && !v.finished) {
      turn = `<span class="seat__turn">${esc(T.to_move)}`;
      if (data.deadline) turn += ` · <span data-deadline="${esc(data.deadline)}"></span>`;
      turn += "</span>";
    }
    const name = info.name || fmt(T.seat_n, { n: seat + 1 });
    return (
      `<li class="${classes.join(" ")}" data-seat="${seat}"><span class="seat__head">` +
      (here ? `<span class="presence-dot" title="${esc(LIVE.present)}"><span class="visually-hidden">${esc(LIVE.present)}</span></span>` : "") +
      `<span class="seat__name">${esc(name)}</span>${badges.join("")}</span>` +
      `<span class="seat__meta">${meta.join("")}</span>${turn}</li>`
    );
  }

  function renderSeats() {
    const v = view();
    const me = v.seat;
    const others = [];
    for (let i = 1; i <= v.players; i++) {
      const seat = me === null ? i - 1 : (me + i) % v.players;
      if (seat !== me) others.push(seat);
    }
    $("seats").innerHTML = others.map(seatHTML).join("");
    $("my-seat").innerHTML = me === null ? "" : `<ol class="seats seats--mine">${seatHTML(me)}</ol>`;
  }

  // --- the middle: trick or pile --------------------------------------------------------
  function renderCenter() {
    const v = view();
    // Cards that were not in the middle at the last draw land with a short animation.
    const cardsNow = v.rules === "americana" ? [v.top] : (v.table || []).map((entry) => entry.card);
    if (pending) cardsNow.push(pending);
    const key = JSON.stringify([cardsNow, v.holder, data.seats.map((s) => s.name)]);
    const changed = key !== centerKey;
    const landing = (card) => (changed && centerKey && !shownCards.includes(card) ? " is-landing" : "");
    const pendingHTML = pending ? `<div class="played is-pending${landing(pending)}">${cardHTML(pending)}<span class="played__who">${esc(seatName(v.seat))}</span></div>` : "";
    let middle = "";
    const info = [];
    if (v.rules === "americana") {
      const pile = v.pile_count > 1 ? `<div class="pile-under">${Cards.cardBackHTML()}</div>` : "";
      middle = `<div class="pile">${pile}<div class="pile-top${landing(v.top)}">${cardHTML(v.top)}</div>${pendingHTML}</div>`;
      info.push(`<span>${esc(fmt(T.pile_n, { n: v.pile_count }))}</span>`);
      const suit = v.suit ? `<span class="suit-badge${"DH".includes(v.suit) ? " suit-badge--red" : ""}" title="${esc(T.suit_names[v.suit])}">${Cards.SUITS[v.suit]}</span>` : esc(T.any_suit);
      info.unshift(`<span class="suit-in-force">${esc(T.suit_in_force)} ${suit}</span>`);
    } else {
      const trick = (v.table || []).map((entry, index) => {
        const holder = v.holder === entry.seat && index === lastIndexOfSeat(v.table, entry.seat);
        return `<div class="played${holder ? " is-holder" : ""}${landing(entry.card)}">${cardHTML(entry.card)}<span class="played__who">${esc(seatName(entry.seat))}${holder ? " ★" : ""}</span></div>`;
      });
      middle = trick.length || pending ? trick.join("") + pendingHTML : `<p class="trick-empty">${esc(T.trick_empty)}</p>`;
      if (v.holder !== null && v.holder !== undefined && (v.table || []).length) info.push(`<span>★ ${esc(seatName(v.holder))} ${esc(T.holds)}</span>`);
    }
    info.push(`<span class="stock">${Cards.cardBackHTML("card--mini")}${esc(fmt(T.stock_n, { n: v.stock }))}</span>`);
    if ((v.removed || []).length) {
      info.push(`<span class="removed">${esc(T.removed)} ${v.removed.map((c) => cardHTML(c, "card--mini")).join("")}</span>`);
    }
    if (changed) {
      if (v.rules !== "americana" && shownTrick && !(v.table || []).length && !pending) trickTaken();
      $("trick").innerHTML = middle;
      centerKey = key;
      shownCards = cardsNow;
      shownTrick = (v.table || []).length;
    }
    $("trick").className = v.rules === "americana" ? "trick trick--pile" : "trick";
    $("table-info").innerHTML = info.join("");
    renderAttack();
  }

  // The taken trick's cards sweep off the table; the new middle is drawn under them.
  function trickTaken() {
    if (calm() || !$("trick").querySelector(".played")) return;
    const leaving = document.createElement("div");
    leaving.className = "trick trick-leaving";
    leaving.setAttribute("aria-hidden", "true");
    leaving.innerHTML = $("trick").innerHTML;
    $("center").appendChild(leaving);
    setTimeout(() => leaving.remove(), 600);
  }

  function lastIndexOfSeat(trick, seat) {
    for (let i = trick.length - 1; i >= 0; i--) if (trick[i].seat === seat) return i;
    return -1;
  }

  function renderAttack() {
    const v = view();
    const attack = v.attack;
    const box = $("attack");
    if (!attack || v.finished) {
      box.hidden = true;
      return;
    }
    const you = v.to_move === v.seat;
    const name = seatName(v.to_move);
    box.textContent = attack.kind === "draw"
      ? fmt(you ? T.attack_draw_you : T.attack_draw, { name, n: attack.count })
      : fmt(you ? T.attack_skip_you : T.attack_skip, { name });
    box.hidden = false;
  }

  // --- my hand ---------------------------------------------------------------------------
  function legalCards() {
    const v = view();
    return new Set((v.legal_moves || []).filter((m) => m.type === "play").map((m) => m.card));
  }

  function renderHand(snapBack) {
    const v = view();
    const hand = $("hand");
    if (!v || v.seat === null) {
      hand.hidden = true;
      return;
    }
    const order = handInOrder(v.hand).filter((card) => card !== pending);
    const legal = legalCards();
    const key = JSON.stringify([order, picked, [...legal], isMyTurn(), snapBack || null]);
    hand.hidden = false;
    if (key === handKey && !snapBack) return;
    handKey = key;
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest(".hand-card");
    const focusedCard = focused ? focused.dataset.card : null;
    hand.innerHTML = order.map((card) => {
      const classes = ["hand-card"];
      if (isMyTurn() && legal.has(card)) classes.push("is-legal");
      if (card === picked) classes.push("is-picked");
      if (card === snapBack) classes.push("snap-back");
      const name = Cards.cardName(card, T);
      return `<button type="button" class="${classes.join(" ")}" data-card="${esc(card)}" aria-pressed="${card === picked}" aria-label="${esc(name)}">${Cards.cardHTML(card, { decorative: true })}</button>`;
    }).join("");
    hand.style.setProperty("--count", String(order.length));
    fitHand();
    if (focusedCard) {
      const again = hand.querySelector(`[data-card="${focusedCard}"]`);
      if (again) again.focus();
    }
  }

  // Cards sit a little apart, or overlap just enough to fit the width; a big hand takes two rows.
  function fitHand() {
    const hand = $("hand");
    const cards = hand.querySelectorAll(".hand-card");
    if (!cards.length) return;
    const width = hand.clientWidth - 8;
    const cardWidth = cards[0].offsetWidth || 64;
    const shiftFor = (n) => (n < 2 ? 0 : Math.min(6, (width - n * cardWidth) / (n - 1)));
    let perRow = cards.length;
    if (cardWidth + shiftFor(perRow) < 26) perRow = Math.ceil(cards.length / 2);
    hand.style.setProperty("--shift", `${Math.max(shiftFor(perRow), 18 - cardWidth)}px`);
    hand.classList.toggle("hand--rows", perRow < cards.length);
    cards.forEach((card, index) => card.classList.toggle("row-start", index % perRow === 0));
  }
  window.addEventListener("resize", fitHand);

  function currentOrder() {
    return [...$("hand").querySelectorAll(".hand-card")].map((b) => b.dataset.card);
  }

  function pick(card) {
    picked = picked === card ? null : card;
    renderPlay();
    announce(fmt(picked ? T.picked : T.put_down, { card: short(card) }));
  }

  $("hand").addEventListener("click", (event) => {
    const button = event.target.closest(".hand-card");
    if (!button) return;
    if (suppressClick) {
      suppressClick = false;
      return;
    }
    pick(button.dataset.card);
  });

  $("hand").addEventListener("keydown", (event) => {
    const button = event.target.closest(".hand-card");
    if (!button || !["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    event.preventDefault();
    const order = currentOrder();
    const from = order.indexOf(button.dataset.card);
    const step = { ArrowLeft: -1, ArrowRight: 1, Home: -order.length, End: order.length }[event.key];
    const to = Math.max(0, Math.min(order.length - 1, from + step));
    if (button.dataset.card !== picked) {
      // Nothing picked: the arrows walk along the hand.
      $("hand").querySelectorAll(".hand-card")[to].focus();
      return;
    }
    order.splice(to, 0, order.splice(from, 1)[0]);
    saveOrder(order);
    handKey = "";
    renderHand();
    announce(fmt(T.moved_to, { card: short(picked), n: to + 1 }));
  });

  // --- dragging: up to the middle plays, sideways reorders ----------------------------------
  $("hand").addEventListener("pointerdown", (event) => {
    const button = event.target.closest(".hand-card");
    if (!button || event.button > 0 || busy) return;
    drag = { button, card: button.dataset.card, x: event.clientX, y: event.clientY, id: event.pointerId, moving: false };
    try {
      button.setPointerCapture(event.pointerId);
    } catch (error) {
      /* a synthetic pointer without capture still works through the document */
    }
  });

  document.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.moving) {
      if (Math.hypot(dx, dy) < 10) return;
      startDrag();
    }
    event.preventDefault();
    drag.ghost.style.transform = `translate(${event.clientX - drag.offsetX}px, ${event.clientY - drag.offsetY}px) rotate(${Math.max(-8, Math.min(8, dx / 20))}deg)`;
    const toPlay = inPlayZone(event.clientX, event.clientY);
    drag.toPlay = toPlay;
    $("center").classList.toggle("is-drop-target", toPlay);
    if (!toPlay) reorderAt(event.clientX);
  });

  function startDrag() {
    const rect = drag.button.getBoundingClientRect();
    drag.moving = true;
    drag.offsetX = drag.x - rect.left;
    drag.offsetY = drag.y - rect.top;
    const ghost = drag.button.cloneNode(true);
    ghost.classList.add("drag-ghost");
    ghost.removeAttribute("id");
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.width = `${rect.width}px`;
    ghost.style.height = `${rect.height}px`;
    document.body.appendChild(ghost);
    drag.ghost = ghost;
    drag.button.classList.add("is-dragged");
    $("center").classList.add("is-drop-ready");
  }

  function inPlayZone(x, y) {
    const center = $("center").getBoundingClientRect();
    const hand = $("hand").getBoundingClientRect();
    const inCenter = x >= center.left - 16 && x <= center.right + 16 && y >= center.top - 16 && y <= center.bottom + 16;
    return inCenter || y < hand.top - 40;
  }

  function reorderAt(x) {
    const hand = $("hand");
    const others = [...hand.querySelectorAll(".hand-card")].filter((b) => b !== drag.button);
    const before = others.find((b) => {
      const r = b.getBoundingClientRect();
      return x < r.left + r.width / 2;
    });
    if (before) {
      if (drag.button.nextElementSibling !== before) hand.insertBefore(drag.button, before);
    } else if (hand.lastElementChild !== drag.button) {
      hand.appendChild(drag.button);
    }
  }

  function endDrag(event, cancelled) {
    if (!drag || event.pointerId !== drag.id) return;
    const { moving, toPlay, card, ghost } = drag;
    drag = null;
    if (!moving) return; // a tap: the click handler picks the card
    if (deferred) {
      ghost.remove();
      $("center").classList.remove("is-drop-target", "is-drop-ready");
      render(deferred); // the table moved on during the drag: play against what is there now
    }
    suppressClick = true;
    setTimeout(() => (suppressClick = false), 0);
    ghost.remove();
    $("center").classList.remove("is-drop-target", "is-drop-ready");
    handKey = "";
    if (!cancelled && toPlay) {
      picked = null;
      playCard(card);
      return;
    }
    if (!cancelled) saveOrder(currentOrder());
    renderPlay();
  }
  document.addEventListener("pointerup", (event) => endDrag(event, false));
  document.addEventListener("pointercancel", (event) => endDrag(event, true));

  // --- the buttons: Play and exactly the other legal moves -----------------------------------
  function moveLabel(move) {
    const v = view();
    if (move.type === "take") return T.take;
    if (move.type === "end") return T.end;
    if (move.type === "pass") return v.attack && v.attack.kind === "skip" ? T.pass_skip : T.pass;
    if (move.type === "draw") return v.attack && v.attack.kind === "draw" ? fmt(T.draw_n, { n: v.attack.count }) : T.draw;
    return move.type;
  }

  function renderMoves() {
    const v = view();
    const box = $("moves");
    if (!v || v.seat === null || v.finished || data.status === "aborted") {
      box.innerHTML = "";
      return;
    }
    const mine = isMyTurn();
    const others = mine ? (v.legal_moves || []).filter((m) => m.type !== "play") : [];
    // An illegal card may still be sent: the engine's refusal says why, and the card comes back.
    const canPlay = mine && !busy;
    const playLabel = picked ? fmt(T.play_card, { card: short(picked) }) : T.play;
    let html = "";
    if (canPlay || v.hand.length) {
      html += `<button type="button" class="move move--play primary" data-move="play"${canPlay && picked ? "" : " disabled"}>${esc(playLabel)}</button>`;
    }
    html += others.map((m) => `<button type="button" class="move move--${m.type}" data-move="${m.type}"${busy ? " disabled" : ""}>${esc(moveLabel(m))}</button>`).join("");
    const moveKey = html;
    if (box.dataset.key !== moveKey) {
      const focusedMove = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.move : null;
      box.innerHTML = html;
      box.dataset.key = moveKey;
      if (focusedMove) {
        const again = box.querySelector(`[data-move="${focusedMove}"]`);
        if (again) again.focus();
      }
    }
  }

  $("moves").addEventListener("click", (event) => {
    const button = event.target.closest("[data-move]");
    if (!button || button.disabled || busy) return;
    const type = button.dataset.move;
    if (type === "play") {
      if (picked) {
        const card = picked;
        picked = null;
        playCard(card);
      }
      return;
    }
    sendMove({ type });
  });

  // --- the suit chooser for an americana seven ------------------------------------------
  function chooseSuit(card) {
    const dialog = $("suit-dialog");
    dialog.dataset.card = card;
    picked = card;
    renderPlay();
    dialog.showModal();
    dialog.querySelector(".suit-button").focus();
  }
  $("suit-dialog").addEventListener("click", (event) => {
    const button = event.target.closest("[data-suit]");
    if (!button) return;
    const dialog = $("suit-dialog");
    dialog.close();
    picked = null;
    sendMove({ type: "play", card: dialog.dataset.card, suit: button.dataset.suit });
  });

  // --- status line, announcements, messages -----------------------------------------------
  function statusText() {
    const v = view();
    if (v.finished) return T.match_over;
    if (v.to_move === null || v.to_move === undefined) return "";
    if (!isMyTurn()) return fmt(T.waiting_for, { name: seatName(v.to_move) });
    const types = new Set((v.legal_moves || []).map((m) => m.type));
    if (types.has("take") && types.size === 1) return T.your_turn_take;
    if (v.rules === "septica" && v.phase === "decide") {
      const ranks = [v.led_rank, ...(v.cutters || []).filter((r) => r !== v.led_rank)].map((r) => T.a_rank[r]);
      return fmt(T.your_turn_decide, { rank: ranks.join(` ${T.or} `) });
    }
    if (v.rules === "familie" && v.phase === "cut") return fmt(T.your_turn_cut, { rank: T.a_rank[v.led_rank] });
    if (v.rules === "americana") return T.your_turn_americana;
    return T.your_turn_play;
  }

  function renderStatus() {
    const text = view() ? statusText() : "";
    if (text !== lastStatus) {
      $("status").textContent = text;
      lastStatus = text;
    }
    $("status").classList.toggle("is-mine", isMyTurn());
  }

  function announceChanges(before, after) {
    const was = before.view, now = after.view;
    if (now && now.seat !== null && now.to_move === now.seat && !now.finished && (!was || was.to_move !== now.to_move || before.seq !== after.seq)) {
      document.title = `● ${document.title.replace(/^● /, "")}`;
    } else if (!isMyTurnIn(now)) {
      document.title = document.title.replace(/^● /, "");
    }
    if (was && now && now.deal !== was.deal && now.last_deal && !now.finished) bannerFor = { kind: "deal", deal: now.last_deal };
  }
  function isMyTurnIn(v) {
    return Boolean(v) && v.seat !== null && v.to_move === v.seat && !v.finished;
  }

  let toastTimer = null;
  function toast(message) {
    const box = $("toast");
    box.textContent = message || "";
    box.hidden = !message;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => (box.hidden = true), 5000);
  }
  function announce(message) {
    let live = document.getElementById("announce");
    if (!live) {
      live = document.createElement("p");
      live.id = "announce";
      live.className = "visually-hidden";
      live.setAttribute("aria-live", "polite");
      document.body.appendChild(live);
    }
    live.textContent = message;
  }

  function showGone() {
    clearTimeout(pollTimer);
    data = { ...data, status: "gone" };
    $("felt").hidden = true;
    $("open-panel").hidden = true;
    const lobby = config.lobby_url ? ` <a href="${esc(config.lobby_url)}">${esc(T.close)}</a>` : "";
    showBanner(`<p>${esc(T.gone)}${lobby}</p>`);
  }

  // --- the log of the deal ------------------------------------------------------------------
  function logLines(v) {
    const lines = [];
    let led = null;
    let refilling = false;
    for (const entry of v.log || []) {
      const name = entry.seat === null || entry.seat === undefined ? "" : seatName(entry.seat);
      const type = entry.type;
      if (type !== "draw" || v.rules !== "septica") refilling = false;
      if (type === "play") {
        const card = short(entry.card);
        if (entry.suit) lines.push(fmt(T.log_seven, { name, card, suit: Cards.SUITS[entry.suit] }));
        else if (v.rules !== "americana" && led !== null && entry.card[0] !== led && isCutter(v, entry.card)) lines.push(fmt(T.log_cut, { name, card }));
        else if (v.rules === "familie" && led !== null) lines.push(fmt(T.log_cut, { name, card }));
        else lines.push(fmt(T.log_play, { name, card }));
        if (led === null && v.rules !== "americana") led = entry.card[0];
      } else if (type === "end") lines.push(fmt(T.log_end, { name }));
      else if (type === "take") {
        led = null;
        if (v.rules === "septica") lines.push(entry.points ? fmt(T.log_take_points, { name, n: entry.points }) : fmt(T.log_take, { name }));
      } else if (type === "trick") lines.push(fmt(T.log_trick_points, { name, n: entry.points }));
      else if (type === "draw") {
        if (v.rules === "septica") {
          if (!refilling) lines.push(T.log_refill);
          refilling = true;
        } else if (entry.written_off) lines.push(fmt(T.log_draw_written_off, { name, n: entry.count, off: entry.written_off }));
        else lines.push(fmt(T.log_draw, { name, n: entry.count }));
      } else if (type === "pass") {
        if (entry.skip) lines.push(fmt(T.log_pass_skip, { name }));
        else if (entry.written_off) lines.push(fmt(T.log_pass_written_off, { name, n: entry.written_off }));
        else lines.push(fmt(T.log_pass, { name }));
      } else if (type === "remove") lines.push(fmt(T.log_remove, { cards: entry.cards.map(short).join(" ") }));
      else if (type === "deal") lines.push(T.log_deal);
      else if (type === "turn_up") lines.push(fmt(T.log_turn_up, { card: short(entry.card) }));
      else if (type === "bury") lines.push(fmt(T.log_bury, { card: short(entry.card) }));
      else if (type === "reshuffle") lines.push(T.log_reshuffle);
      else if (type === "deal_over") lines.push(T.log_deal_over);
    }
    return lines;
  }
  function isCutter(v, card) {
    if (v.rules === "familie") return card[0] === "7" || card[0] === "X";
    return (v.cutters || ["7"]).includes(card[0]);
  }

  function renderLog() {
    const lines = logLines(view()).slice(-12).reverse();
    const html = lines.length ? lines.map((line) => `<li>${esc(line)}</li>`).join("") : `<li class="muted">${esc(T.no_moves)}</li>`;
    if ($("log").innerHTML !== html) $("log").innerHTML = html;
  }

  // --- the open table: seats, join, leave, invite -------------------------------------------
  function renderOpenPanel() {
    const panel = $("open-panel");
    const open = data.status === "open" || (data.status === "aborted" && !view());
    panel.hidden = !open;
    if (!open) return;
    $("open-seats").innerHTML = data.seats.map((seat) => {
      const who = seat.name ? esc(seat.name) : `<em>${esc(T.free_seat)}</em>`;
      const you = seat.you ? ` <span class="badge badge--you">${esc(T.you)}</span>` : "";
      const bot = seat.kind === "bot" ? ` <span class="badge">${esc(T.bot)}</span>` : "";
      return `<li>${esc(fmt(T.seat_n, { n: seat.seat + 1 }))}: ${who}${you}${bot}</li>`;
    }).join("");
    const missing = data.players - data.seats_taken;
    $("open-status").textContent = data.status === "aborted" ? T.aborted : waitingFor(missing);
    const seated = data.your_seat !== null && data.your_seat !== undefined;
    let actions = "";
    if (data.status === "open") {
      if (!config.logged_in) actions = `<a class="button primary" href="${esc(config.login_url)}">${esc(T.log_in_to_play)}</a>`;
      else if (seated) actions = `<button type="button" class="danger" data-action="leave">${esc(T.leave)}</button>`;
      else if (missing > 0) actions = `<button type="button" class="primary" data-action="join">${esc(T.join)}</button>`;
    }
    $("open-actions").innerHTML = actions;
    const invite = $("invite");
    invite.hidden = !data.invite_url;
    if (data.invite_url) $("invite-url").value = new URL(data.invite_url, location.href).href;
  }

  $("open-actions").addEventListener("click", async (event) => {
    const button = event.target.closest("[data-action]");
    if (!button || busy) return;
    busy = true;
    button.disabled = true;
    const action = button.dataset.action;
    const { status, json } = await request("POST", apiURL(`/${action}`), config.invite ? { invite: config.invite } : {});
    busy = false;
    if (status === 200 && action === "join") render(json);
    else if (status === 200) await refresh();
    else {
      toast(json.error);
      button.disabled = false;
    }
  });

  $("invite-copy").addEventListener("click", async () => {
    const input = $("invite-url");
    try {
      await navigator.clipboard.writeText(input.value);
    } catch (error) {
      input.select();
      document.execCommand("copy");
    }
    $("invite-copy").textContent = T.copied;
    setTimeout(() => ($("invite-copy").textContent = T.copy), 2000);
  });

  // --- scores and banners -------------------------------------------------------------------
  function lastDealLines(v, lastDeal) {
    if (!lastDeal) return [];
    if (lastDeal.charged) {
      const head = lastDeal.out === null ? T.nobody_out : fmt(T.went_out, { name: seatName(lastDeal.out) });
      return [head, ...lastDeal.charged.map((n, seat) => (seat === lastDeal.out ? null : `${seatName(seat)}: ${fmt(T.charged, { n })}`)).filter(Boolean)];
    }
    return lastDeal.points.map((n, seat) => `${seatName(seat)}: ${fmt(T.points_word, { n })}`);
  }

  function scoresTable(v) {
    const rows = data.seats.map((seat) => {
      const cells = [`<th scope="row">${esc(seatName(seat.seat))}</th>`, `<td>${v.scores[seat.seat]}</td>`];
      if (v.points && !v.finished) cells.push(`<td>${v.points[seat.seat]}</td>`);
      return `<tr>${cells.join("")}</tr>`;
    });
    const head = [`<th scope="col">${esc(T.player)}</th>`, `<th scope="col">${esc(T.score)}</th>`];
    if (v.points && !v.finished) head.push(`<th scope="col">${esc(T.this_deal)}</th>`);
    return `<table class="list scores"><thead><tr>${head.join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
  }

  function renderScores() {
    const v = view();
    if (!v) {
      $("scores-body").innerHTML = `<p>${esc(waitingFor(data.players - data.seats_taken))}</p>`;
      return;
    }
    let html = `<p class="muted">${esc(fmt(T.deal_n, { n: v.deal + 1 }))}</p>` + scoresTable(v);
    if (v.last_deal) {
      html += `<h3>${esc(T.last_deal)} (${esc(fmt(T.deal_n, { n: v.last_deal.deal + 1 }))})</h3><ul>${lastDealLines(v, v.last_deal).map((l) => `<li>${esc(l)}</li>`).join("")}</ul>`;
    }
    $("scores-body").innerHTML = html;
  }

  function showBanner(html) {
    const banner = $("banner");
    banner.innerHTML = html;
    banner.hidden = false;
  }

  function renderBanner() {
    const v = view();
    if (v && v.finished) {
      if (bannerFor !== "match") {
        bannerFor = "match";
        showBanner(matchBannerHTML(v));
      }
      return;
    }
    if (bannerFor && bannerFor.kind === "deal") {
      const deal = bannerFor.deal;
      bannerFor = "shown";
      const lines = lastDealLines(v, deal).map((l) => `<li>${esc(l)}</li>`).join("");
      showBanner(`<h2>${esc(fmt(T.deal_over, { n: deal.deal + 1 }))}</h2><ul>${lines}</ul><button type="button" data-close-banner>${esc(T.close)}</button>`);
      $("banner").querySelector("button").focus();
    }
  }

  function matchBannerHTML(v) {
    const winners = (v.result && v.result.winners) || [];
    const names = winners.map(seatName).join(", ");
    const verdict = winners.length ? fmt(winners.length > 1 ? T.winners_many : T.winners, { names }) : T.nobody_won;
    let html = `<h2>${esc(T.match_over)}</h2><p class="verdict">${esc(verdict)}</p>${scoresTable(v)}`;
    if (v.last_deal) html += `<ul>${lastDealLines(v, v.last_deal).map((l) => `<li>${esc(l)}</li>`).join("")}</ul>`;
    html += `<div class="actions">`;
    if (v.seat !== null && config.logged_in) html += `<button type="button" class="primary" data-rematch>${esc(T.rematch)}</button>`;
    if (config.replay_url) html += `<a class="button" href="${esc(config.replay_url)}">${esc(T.replay)}</a>`;
    return html + `</div>`;
  }

  $("banner").addEventListener("click", async (event) => {
    if (event.target.closest("[data-close-banner]")) {
      $("banner").hidden = true;
      return;
    }
    const rematch = event.target.closest("[data-rematch]");
    if (!rematch || busy) return;
    busy = true;
    rematch.disabled = true;
    const { status, json } = await request("POST", apiURL("/rematch"), {});
    busy = false;
    if (status === 201 || status === 200) location.href = json.url;
    else {
      rematch.disabled = false;
      toast(json.error);
    }
  });

  // --- dialogs and the clock ---------------------------------------------------------------
  document.addEventListener("click", (event) => {
    const opener = event.target.closest("[data-open]");
    if (!opener) return;
    const dialog = $(opener.dataset.open);
    if (dialog.id === "scores-dialog") renderScores();
    dialog.showModal();
  });

  function tick() {
    document.querySelectorAll("[data-deadline]").forEach((el) => {
      const text = fmt(T.time_left, { time: timeLeft(el.dataset.deadline) });
      if (el.textContent !== text) el.textContent = text;
    });
  }
  setInterval(tick, 1000);

  // --- live: the websocket, presence, the offline banner, standing in ----------------------
  function sync() {
    if (live) live.send({ type: "sync", seq: data.seq });
  }

  function onView(message) {
    const next = Object.assign({}, message);
    delete next.type;
    if (next.id !== undefined && next.id !== data.id) return;
    if (next.seq < data.seq) return; // older than what is shown
    const gap = next.seq > data.seq + 1;
    if (moveWait && next.seq > moveWait.seq) {
      moveAnswered();
      picked = null;
    }
    render(next);
    if (gap) sync(); // something was missed on the way: ask for the whole picture
  }

  function onLiveMessage(message) {
    if (message.type === "view") onView(message);
    else if (message.type === "presence") showPresence(message);
    else if (message.type === "error") {
      if (moveWait) moveRefused(message);
      else if (message.status === 409) sync();
      else toast(message.error);
    }
  }

  function showPresence(message) {
    presence = { present: message.present || [], spectators: message.spectators || 0 };
    const n = presence.spectators;
    const box = $("spectators");
    box.textContent = n === 1 ? LIVE.spectatorsOne : fmt(LIVE.spectatorsMany, { n });
    box.hidden = !n;
    if (view()) renderSeats();
  }

  function showOnline(online) {
    $("live-banner").hidden = online;
    document.documentElement.dataset.live = online ? "online" : "offline";
  }

  function startLive() {
    if (!window.LiveSocket || !window.WebSocket) return;
    const query = config.invite ? `?invite=${encodeURIComponent(config.invite)}` : "";
    live = window.LiveSocket(`/ws/tables/${config.id}/${query}`, {
      onMessage: onLiveMessage,
      onOpen(info) {
        showOnline(true);
        if (info.reconnect) sync();
        schedulePoll();
      },
      onClose(info) {
        moveLost();
        showPresence({ present: [], spectators: 0 });
        if (info.final) {
          showOnline(true); // refused, not offline: the polling carries on and says what it finds
          if (info.code === 4404) showGone();
        } else {
          showOnline(false);
        }
        schedulePoll();
      },
    });
  }

  function renderStandIn() {
    const seat = data.your_seat;
    const mine = seat !== null && seat !== undefined ? data.seats[seat] : null;
    $("stand-in").hidden = !(mine && mine.standing_in && data.status === "playing");
  }

  $("take-back").addEventListener("click", async () => {
    const button = $("take-back");
    button.disabled = true;
    let answer;
    try {
      answer = await request("POST", apiURL("/back"), {});
    } catch (error) {
      answer = { status: 0, json: {} };
    }
    button.disabled = false;
    if (answer.status === 200) render(answer.json);
    else toast(answer.json.error || T.network);
  });

  window.septicaTable = { render, refresh, get data() { return data; }, get live() { return live; } };
  renderAll();
  startLive();
  schedulePoll();
})();
