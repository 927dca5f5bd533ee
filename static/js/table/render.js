// The table, drawn from one table's data (the API's answer for a table, with
// the viewer's view in it). createTableView knows nothing of sockets: every
// move the player makes goes to options.onMove(move), which answers with a
// promise of {ok} or {ok: false, error}; whoever holds the game (the server,
// or a local engine) then hands the next data to render().
import { attachInput } from "./input.js";
import { createHandOrder, fitHand } from "./hand.js";

const Cards = window.SepticaCards;
const Durations = window.SepticaDurations;
const esc = Cards.escapeHTML;
const $ = (id) => document.getElementById(id);
const AUTO_TAKE_MS = 1200;
const TOAST_MS = 5000;
const LIVE = $("live-text").dataset;

export function fmt(text, params) {
  return String(text).replace(/%\((\w+)\)s/g, (_, key) => (params && key in params ? params[key] : ""));
}

const calm = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const isMyTurnIn = (data, v) => data.status !== "aborted" && Boolean(v) && v.seat !== null && v.to_move === v.seat && !v.finished;

// options: T, config, onMove(move) -> Promise<{ok, error}>, onAction(name, body) -> Promise,
// preferences() -> {one_tap, auto_take, sounds}, teamOf(view, seat) -> index or null,
// onChange(before, after) after every redraw of new data.
export function createTableView(data, options) {
  const { T, config } = options;
  const order = createHandOrder(config.id);
  const ui = { picked: null, pending: null, busy: false, presence: { present: [], spectators: 0 } };
  let deferred = null; // data that arrived in the middle of a drag
  let handKey = "";
  let lastStatus = "";
  let centerKey = "";
  let shownCards = [];
  let shownTrick = 0;
  let toastTimer = null;
  let autoTakeTimer = null;
  let slotsCache = [];

  const view = () => data.view;
  const isMyTurn = () => isMyTurnIn(data, view());
  const prefs = () => options.preferences();

  function seatName(seat) {
    const info = data.seats[seat];
    return (info && info.name) || fmt(T.seat_n, { n: seat + 1 });
  }
  const short = (code) => Cards.cardShort(code);
  const cardHTML = (code, extra) => Cards.cardHTML(code, { text: T, extra });
  const timeLeft = (deadline) => fmt(T.time_left, { time: Durations.timeLeft(Durations.secondsUntil(deadline), T.units) });
  const waitingFor = (n) => interpolate(ngettext("Waiting for %(n)s more player.", "Waiting for %(n)s more players.", n), { n }, true);

  // --- messages over the felt: they never push the table ------------------------------------
  function toast(message) {
    const box = $("toast");
    box.textContent = message || "";
    box.hidden = !message;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => (box.hidden = true), TOAST_MS);
  }
  function announce(message) {
    $("announce").textContent = message;
  }

  // --- seats ------------------------------------------------------------------------------------
  // Points in a seat's few pixels, with the plural the language wants ("1 pt", "2 pts").
  const pointsShort = (n) => interpolate(ngettext("%(n)s pt", "%(n)s pts", n), { n }, true);

  function seatBadges(seat, info, v) {
    const badges = [];
    if (info.you) badges.push(`<span class="badge badge--you">${esc(T.you)}</span>`);
    if (info.kind === "bot") {
      const badge = info.bot && info.bot.badge ? info.bot.badge : T.bot;
      badges.push(`<span class="badge badge--bot" title="${esc(badge)}">${esc(badge)}</span>`);
    }
    const playing = data.status === "playing" && !v.finished;
    if (info.resigned) {
      const why = gettext("resigned: a bot plays the seat to the end");
      badges.push(`<span class="badge badge--quiet" title="${esc(why)}">${esc(gettext("resigned"))}<span class="visually-hidden">, ${esc(why)}</span></span>`);
    } else if (info.standing_in && playing) {
      const why = info.you ? gettext("the result stays yours") : gettext("a bot plays for them; the result stays theirs");
      badges.push(`<span class="badge badge--warn" title="${esc(why)}">${esc(T.standing_in)}<span class="visually-hidden">: ${esc(why)}</span></span>`);
    }
    if (info.kind === "person" && info.reliability !== null && info.reliability !== undefined) {
      const words = interpolate(gettext("reliable %(percent)s"), { percent: `${info.reliability}%` }, true);
      badges.push(`<span class="badge badge--quiet seat__reliability" title="${esc(words)}"><span aria-hidden="true">${esc(String(info.reliability))}%</span><span class="visually-hidden">${esc(words)}</span></span>`);
    }
    return badges.join("");
  }

  function seatHTML(seat) {
    const v = view();
    const info = data.seats[seat];
    const classes = ["seat"];
    const turn = v.to_move === seat && !v.finished && data.status === "playing";
    if (turn) classes.push("is-turn");
    if (v.holder === seat && (v.table || []).length) classes.push("is-holder");
    if (info.you) classes.push("seat--you");
    const team = options.teamOf(v, seat);
    if (team !== null && team !== undefined) classes.push(`seat--team-${team % 4}`);
    const here = info.kind === "person" && ui.presence.present.includes(seat);
    if (here) classes.push("is-present");
    const count = v.hand_counts[seat];
    const cards = interpolate(ngettext("%(n)s card", "%(n)s cards", count), { n: count }, true);
    // The number beside a card back is what the eye reads; the words are there for screen readers.
    const meta = [`<span class="seat__cards" title="${esc(cards)}" data-count="${count}">${Cards.cardBackHTML("card--mini")}<span class="visually-hidden">${esc(cards)}</span></span>`];
    if (v.points) meta.push(`<span class="seat__points">${esc(pointsShort(v.points[seat]))}</span>`);
    // The time is written at once: a seat drawn after a presence update never reads "to move ·" alone.
    const clock = turn && data.deadline ? ` · <span data-deadline="${esc(data.deadline)}">${esc(timeLeft(data.deadline))}</span>` : "";
    // My own seat's ring and the status line already say it is my move: my seat shows only the time left.
    let turnLine = "";
    if (turn && info.you) turnLine = data.deadline ? `<span class="seat__turn"><span data-deadline="${esc(data.deadline)}">${esc(timeLeft(data.deadline))}</span></span>` : "";
    else if (turn) turnLine = `<span class="seat__turn">${esc(T.to_move)}${clock}</span>`;
    else if ((v.passed || []).includes(seat)) turnLine = `<span class="seat__note">${esc(T.passed)}</span>`;
    // A dealer's mark, as card rooms draw it: a small sign in the seat's corner, with the word for
    // screen readers and on hover. The word itself did not fit a phone's seat ("d…").
    const dealer = v.dealer === seat
      ? `<span class="seat__dealer" title="${esc(T.dealer)}"><svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d="M3 2.5h6.5v11H3z" transform="rotate(-12 6 8)"/><path d="M6.5 2.5H13v11H6.5z" transform="rotate(10 10 8)"/></svg><span class="visually-hidden">${esc(T.dealer)}</span></span>`
      : "";
    if (dealer) classes.push("is-dealer");
    const name = info.name || fmt(T.seat_n, { n: seat + 1 });
    const present = LIVE.present;
    const dot = here ? `<span class="presence-dot" title="${esc(present)}"><span class="visually-hidden">${esc(present)}</span></span>` : "";
    return (
      `<li class="${classes.join(" ")}" data-seat="${seat}"><span class="seat__head">${dot}` +
      (info.profile_url && !info.you
        ? `<a class="seat__name" href="${esc(info.profile_url)}" title="${esc(name)}">${esc(name)}</a>`
        : `<span class="seat__name${info.you ? " visually-hidden" : ""}" title="${esc(name)}">${esc(name)}</span>`) +
      `${seatBadges(seat, info, v)}</span>` +
      `<span class="seat__meta">${meta.join("")}</span>${turnLine}${dealer}</li>`
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
    const seats = $("seats");
    seats.dataset.count = String(others.length);
    seats.innerHTML = others.map(seatHTML).join("");
    $("my-seat").innerHTML = me === null ? "" : `<ol class="seats seats--mine">${seatHTML(me)}</ol>`;
  }

  // --- the middle: trick or pile ----------------------------------------------------------------
  function lastIndexOfSeat(trick, seat) {
    for (let i = trick.length - 1; i >= 0; i--) if (trick[i].seat === seat) return i;
    return -1;
  }

  function middleHTML(v, landing) {
    const pendingHTML = ui.pending ? `<div class="played is-pending${landing(ui.pending)}">${cardHTML(ui.pending)}<span class="played__who">${esc(seatName(v.seat))}</span></div>` : "";
    if (v.rules === "americana") {
      const pile = v.pile_count > 1 ? `<div class="pile-under">${Cards.cardBackHTML()}</div>` : "";
      return `<div class="pile">${pile}<div class="pile-top${landing(v.top)}">${cardHTML(v.top)}</div>${pendingHTML}</div>`;
    }
    const trick = (v.table || []).map((entry, index) => {
      const holder = v.holder === entry.seat && index === lastIndexOfSeat(v.table, entry.seat);
      return `<div class="played${holder ? " is-holder" : ""}${landing(entry.card)}">${cardHTML(entry.card)}<span class="played__who">${esc(seatName(entry.seat))}${holder ? " ★" : ""}</span></div>`;
    });
    return trick.length || ui.pending ? trick.join("") + pendingHTML : `<p class="trick-empty">${esc(T.trick_empty)}</p>`;
  }

  function infoHTML(v) {
    const info = [];
    if (v.rules === "americana") {
      const suit = v.suit ? `<span class="suit-badge${"DH".includes(v.suit) ? " suit-badge--red" : ""}" title="${esc(T.suit_names[v.suit])}">${Cards.SUITS[v.suit]}</span>` : esc(T.any_suit);
      info.push(`<span class="suit-in-force">${esc(T.suit_in_force)} ${suit}</span>`);
      info.push(`<span>${esc(fmt(T.pile_n, { n: v.pile_count }))}</span>`);
    } else if (v.holder !== null && v.holder !== undefined && (v.table || []).length) {
      info.push(`<span>★ ${esc(v.holder === v.seat ? T.you_hold : `${seatName(v.holder)} ${T.holds}`)}</span>`);
    }
    info.push(`<span class="stock">${Cards.cardBackHTML("card--mini")}${esc(fmt(T.stock_n, { n: v.stock }))}</span>`);
    if ((v.removed || []).length) info.push(`<span class="removed">${esc(T.removed)} ${v.removed.map((c) => cardHTML(c, "card--mini")).join("")}</span>`);
    return info.join("");
  }

  function renderCenter() {
    const v = view();
    const cardsNow = v.rules === "americana" ? [v.top] : (v.table || []).map((entry) => entry.card);
    if (ui.pending) cardsNow.push(ui.pending);
    const key = JSON.stringify([cardsNow, v.holder, data.seats.map((s) => s.name)]);
    const changed = key !== centerKey;
    // Cards that were not in the middle at the last draw land with a short animation.
    const landing = (card) => (changed && centerKey && !shownCards.includes(card) ? " is-landing" : "");
    if (changed) {
      if (v.rules !== "americana" && shownTrick && !(v.table || []).length && !ui.pending) trickTaken();
      $("trick").innerHTML = middleHTML(v, landing);
      centerKey = key;
      shownCards = cardsNow;
      shownTrick = (v.table || []).length;
    }
    $("trick").className = v.rules === "americana" ? "trick trick--pile" : "trick";
    $("table-info").innerHTML = infoHTML(v);
    renderAttack();
  }

  // The taken trick's cards sweep off the table; the new middle is drawn under them.
  function trickTaken() {
    options.onTrickTaken();
    if (calm() || !$("trick").querySelector(".played")) return;
    const leaving = document.createElement("div");
    leaving.className = "trick trick-leaving";
    leaving.setAttribute("aria-hidden", "true");
    leaving.innerHTML = $("trick").innerHTML;
    $("center").appendChild(leaving);
    setTimeout(() => leaving.remove(), 600);
  }

  function renderAttack() {
    const v = view();
    const box = $("attack");
    if (!v.attack || v.finished) {
      box.hidden = true;
      return;
    }
    const you = v.to_move === v.seat;
    const name = seatName(v.to_move);
    box.textContent = v.attack.kind === "draw"
      ? fmt(you ? T.attack_draw_you : T.attack_draw, { name, n: v.attack.count })
      : fmt(you ? T.attack_skip_you : T.attack_skip, { name });
    box.hidden = false;
  }

  // --- the hand ----------------------------------------------------------------------------------
  function legalCards() {
    return new Set((view().legal_moves || []).filter((m) => m.type === "play").map((m) => m.card));
  }
  const handCards = () => order.of(view().hand).filter((card) => card !== ui.pending);

  function renderHand(refused) {
    const v = view();
    const hand = $("hand");
    if (!v || v.seat === null) {
      hand.hidden = true;
      return;
    }
    hand.hidden = false;
    const cards = handCards();
    const legal = legalCards();
    const key = JSON.stringify([cards, ui.picked, [...legal], isMyTurn()]);
    if (key === handKey && !refused) return;
    handKey = key;
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest(".hand-card");
    const focusedCard = focused ? focused.dataset.card : null;
    hand.innerHTML = cards.map((card, index) => {
      const classes = ["hand-card"];
      if (isMyTurn() && legal.has(card)) classes.push("is-legal");
      if (card === ui.picked) classes.push("is-picked");
      if (card === refused) classes.push("is-refused");
      const hint = index < 9 ? ` aria-keyshortcuts="${index + 1}"` : "";
      return `<button type="button" class="${classes.join(" ")}" data-card="${esc(card)}" aria-pressed="${card === ui.picked}" aria-label="${esc(Cards.cardName(card, T))}"${hint}>${Cards.cardHTML(card, { decorative: true })}</button>`;
    }).join("");
    hand.style.setProperty("--count", String(cards.length));
    const shaken = refused && hand.querySelector(".is-refused");
    if (shaken) shaken.addEventListener("animationend", () => shaken.classList.remove("is-refused"), { once: true });
    slotsCache = fitHand(hand);
    if (focusedCard) focusCard(focusedCard);
  }

  function focusCard(card) {
    const hand = $("hand");
    const button = (card && hand.querySelector(`.hand-card[data-card="${card}"]`)) || hand.querySelector(".hand-card");
    if (button) button.focus({ preventScroll: true });
    else if (!$("moves").hidden && $("moves").querySelector("button")) $("moves").querySelector("button").focus({ preventScroll: true });
  }

  // After a move the focus stays on the hand (never the page's body).
  function keepFocusOnHand(card) {
    const active = document.activeElement;
    if (!active || active === document.body || active.closest(".hand, .moves")) focusCard(card);
  }

  // --- picking and playing ------------------------------------------------------------------------
  function pick(card) {
    ui.picked = ui.picked === card ? null : card;
    renderPlay();
    focusCard(card);
    announce(fmt(ui.picked ? T.picked : T.put_down, { card: short(card) }));
  }

  function refuse(card, message) {
    ui.picked = null;
    renderPlay(card);
    focusCard(card);
    toast(message);
  }

  function play(card) {
    if (!isMyTurn() || ui.busy) {
      refuse(card, T.not_your_turn);
      return;
    }
    if (view().rules === "americana" && card[0] === "7") {
      chooseSuit(card);
      return;
    }
    send({ type: "play", card });
  }

  // With one tap a card plays at once; a card picked first (by a number key, or by preference) waits
  // for Play, Enter, or in one-tap mode a second tap, and a second tap in pick mode puts it back.
  function onTap(card) {
    if (prefs().one_tap && (!ui.picked || card === ui.picked)) play(card);
    else pick(card);
  }
  function onEnter(card) {
    if (card === ui.picked) play(card);
    else onTap(card);
  }

  // A legal card goes to the middle at once; any other stays in the hand, so
  // the hand does not move while the server says why it cannot be played.
  async function send(move) {
    clearTimeout(autoTakeTimer);
    ui.busy = true;
    ui.pending = move.card && legalCards().has(move.card) ? move.card : null;
    ui.picked = null;
    renderPlay();
    const answer = await options.onMove(move);
    ui.busy = false;
    ui.pending = null;
    if (answer.ok) {
      renderPlay();
      keepFocusOnHand(null);
    } else if (answer.error) refuse(move.card, answer.error);
    else renderPlay();
  }

  // --- the action bar: Play and exactly the other legal moves ----------------------------------------
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
      box.dataset.key = "";
      return;
    }
    const mine = isMyTurn();
    const others = mine ? (v.legal_moves || []).filter((m) => m.type !== "play") : [];
    let html = "";
    // With one tap a card plays itself; the Play button is there for a card picked first (number keys, or the preference).
    if (!prefs().one_tap || ui.picked) {
      const label = ui.picked ? fmt(T.play_card, { card: short(ui.picked) }) : T.play;
      html += `<button type="button" class="move move--play primary" data-move="play"${mine && !ui.busy && ui.picked ? "" : " disabled"}>${esc(label)}</button>`;
    }
    html += others.map((m) => `<button type="button" class="move move--${m.type}" data-move="${m.type}"${ui.busy ? " disabled" : ""}>${esc(moveLabel(m))}</button>`).join("");
    if (box.dataset.key === html) return;
    const focusedMove = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.move : null;
    box.innerHTML = html;
    box.dataset.key = html;
    if (focusedMove) {
      const again = box.querySelector(`[data-move="${focusedMove}"]`);
      if (again) again.focus({ preventScroll: true });
      else keepFocusOnHand(null);
    }
  }

  function scheduleAutoTake() {
    clearTimeout(autoTakeTimer);
    const v = view();
    if (!prefs().auto_take || !isMyTurn() || ui.busy) return;
    const legal = v.legal_moves || [];
    if (legal.length !== 1 || legal[0].type !== "take") return;
    const seq = data.seq;
    autoTakeTimer = setTimeout(() => {
      if (data.seq === seq && isMyTurn() && !ui.busy) send({ type: "take" });
    }, AUTO_TAKE_MS);
  }

  // --- the status line -----------------------------------------------------------------------------
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
    const text = statusText();
    if (text !== lastStatus) {
      $("status").textContent = text;
      lastStatus = text;
    }
    $("status").classList.toggle("is-mine", isMyTurn());
  }

  function renderPlay(refused) {
    if (!view()) return;
    renderHand(refused);
    renderCenter();
    renderMoves();
    renderStatus();
  }

  // --- the open table: seats, join, leave, a bot for a free seat ------------------------------------------
  function openSeatHTML(seat) {
    const who = seat.name ? esc(seat.name) : `<em>${esc(T.free_seat)}</em>`;
    const you = seat.you ? ` <span class="badge badge--you">${esc(T.you)}</span>` : "";
    const bot = seat.kind === "bot" ? ` <span class="badge badge--bot">${esc((seat.bot && seat.bot.badge) || T.bot)}</span>` : "";
    const free = seat.kind === "free" && !seat.reserved;
    const add = free && data.can_add_bot
      ? ` <button type="button" class="add-bot" data-action="bot" data-seat="${seat.seat}">${esc(T.add_bot)}</button>` : "";
    return `<li>${esc(fmt(T.seat_n, { n: seat.seat + 1 }))}: ${who}${you}${bot}${add}</li>`;
  }

  function renderOpenPanel() {
    const panel = $("open-panel");
    const open = data.status === "open" || (data.status === "aborted" && !view());
    panel.hidden = !open;
    if (!open) return;
    $("open-seats").innerHTML = data.seats.map(openSeatHTML).join("");
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
    $("invite").hidden = !data.invite_url;
    if (data.invite_url) $("invite-url").value = new URL(data.invite_url, location.href).href;
  }

  $("open-panel").addEventListener("click", async (event) => {
    const button = event.target.closest("[data-action]");
    if (!button || ui.busy) return;
    ui.busy = true;
    button.disabled = true;
    const body = button.dataset.seat !== undefined ? { seat: Number(button.dataset.seat), level: "medium", style: "balanced" } : {};
    const answer = await options.onAction(button.dataset.action, body);
    ui.busy = false;
    if (!answer.ok) {
      button.disabled = false;
      toast(answer.error || T.network);
    }
  });

  // --- notes outside the game ------------------------------------------------------------------------
  function renderAbortNote() {
    const note = $("abort-note");
    note.hidden = data.status !== "aborted" || !data.abort_reason;
    if (!note.hidden) note.textContent = data.abort_by === "players" ? data.abort_reason : fmt(note.dataset.text, { reason: data.abort_reason });
  }
  function renderStandIn() {
    const seat = data.your_seat;
    const mine = seat !== null && seat !== undefined ? data.seats[seat] : null;
    $("stand-in").hidden = !(mine && mine.standing_in && data.status === "playing" && !(view() && view().finished));
  }

  function renderAll() {
    renderOpenPanel();
    const v = view();
    $("felt").hidden = !v;
    $("dock").hidden = !v || v.seat === null;
    $("spectator-note").hidden = !(v && v.seat === null);
    if (v) {
      renderSeats();
      renderPlay();
      scheduleAutoTake();
    }
    renderStandIn();
    renderAbortNote();
    tick();
  }

  function render(next) {
    if (!next || (next.id === data.id && next.seq < data.seq)) return; // an older answer overtaken
    if (input.dragging) {
      deferred = next; // redrawing the hand now would drop the card being dragged
      return;
    }
    deferred = null;
    const before = data;
    data = next;
    if (ui.picked && !(view() && view().hand.includes(ui.picked))) ui.picked = null;
    renderAll();
    options.onChange(before, data);
  }

  function tick() {
    document.querySelectorAll("[data-deadline]").forEach((el) => {
      const text = timeLeft(el.dataset.deadline);
      if (el.textContent !== text) el.textContent = text;
    });
  }
  setInterval(tick, 1000);

  // --- the suit chooser for an americana seven ---------------------------------------------------
  function chooseSuit(card) {
    const dialog = $("suit-dialog");
    dialog.dataset.card = card;
    ui.picked = card;
    renderPlay();
    dialog.showModal();
    dialog.querySelector(".suit-button").focus();
  }
  $("suit-dialog").addEventListener("click", (event) => {
    const button = event.target.closest("[data-suit]");
    if (!button) return;
    const dialog = $("suit-dialog");
    dialog.close();
    send({ type: "play", card: dialog.dataset.card, suit: button.dataset.suit });
  });
  $("suit-dialog").addEventListener("close", () => {
    if (ui.picked && !ui.busy) {
      const card = ui.picked;
      ui.picked = null;
      renderPlay();
      focusCard(card);
    } else keepFocusOnHand(null);
  });

  $("moves").addEventListener("click", (event) => {
    const button = event.target.closest("[data-move]");
    if (!button || button.disabled || ui.busy) return;
    if (button.dataset.move === "play") {
      if (ui.picked) play(ui.picked);
      return;
    }
    send({ type: button.dataset.move });
  });

  const input = attachInput($("hand"), $("center"), {
    onTap,
    onEnter,
    onDrop(card) {
      ui.picked = null;
      handKey = "";
      play(card);
    },
    onReorder(cards) {
      order.save(cards);
      handKey = "";
    },
    onNumber(index) {
      const card = handCards()[index];
      if (card && card !== ui.picked) pick(card);
      else if (card) focusCard(card);
    },
    onEscape() {
      const card = ui.picked;
      ui.picked = null;
      renderPlay();
      focusCard(card);
      announce(fmt(T.put_down, { card: short(card) }));
    },
    onMoveCard(card, step) {
      const cards = handCards();
      const from = cards.indexOf(card);
      const to = Math.max(0, Math.min(cards.length - 1, from + step));
      cards.splice(to, 0, cards.splice(from, 1)[0]);
      order.save(cards);
      handKey = "";
      renderHand();
      focusCard(card);
      announce(fmt(T.moved_to, { card: short(card), n: to + 1 }));
    },
    picked: () => ui.picked,
    busy: () => ui.busy,
    dragEnded() {
      handKey = "";
      if (deferred) render(deferred); // the table moved on during the drag: play against what is there now
      else renderPlay();
    },
  });

  // The hand is laid out again whenever the screen changes size or turns (a phone may not send "resize").
  let fittedFor = "";
  function refit() {
    const size = `${$("hand").clientWidth}x${window.innerHeight}`;
    if (!view() || input.dragging || size === fittedFor) return;
    fittedFor = size;
    slotsCache = fitHand($("hand"));
  }
  window.addEventListener("resize", refit);
  if (window.visualViewport) window.visualViewport.addEventListener("resize", refit);
  if (window.ResizeObserver) new ResizeObserver(refit).observe(document.documentElement);

  return {
    render,
    renderAll,
    toast,
    seatName,
    isMyTurn,
    preferencesChanged() {
      handKey = "";
      $("moves").dataset.key = "";
      renderAll();
    },
    presence(message) {
      ui.presence = { present: message.present || [], spectators: message.spectators || 0 };
      if (view()) renderSeats();
    },
    get data() {
      return data;
    },
    get busy() {
      return ui.busy || input.dragging;
    },
    get slots() {
      return slotsCache;
    },
  };
}
