// The practice page: the set-up, the download for offline play, and a match
// against bots played by the engine in a worker on this device (engine.js).
// The table is the table page's own (table/page.js), driven by a local
// connection: your move goes to the engine, then each bot's move comes one by
// one at the chosen pace and is drawn like a live move at a real table.
import { openTablePage } from "../table/page.js";
import { fmt } from "../table/render.js";
import { openEngine } from "./engine.js";
import { isAvailableOffline, makeAvailableOffline, missingFeatures, registerServiceWorker } from "./offline.js";
import { practiceResults, savedPractice } from "./store.js";

const $ = (id) => document.getElementById(id);
const esc = window.SepticaCards.escapeHTML;
const config = JSON.parse($("table-config").textContent);
const T = config.text;
const SETTINGS_KEY = "septica.practice.settings";
const RESULTS_SHOWN = 10;
const YOU = 0;

const form = $("practice-form");
const field = (name) => form.elements.namedItem(name);
const valueOf = (name) => {
  const input = field(name);
  if (!input) return undefined;
  return input.type === "checkbox" ? input.checked : input.value;
};
function setValue(name, value) {
  const input = field(name);
  if (!input || value === undefined) return;
  if (input.type === "checkbox") input.checked = Boolean(value);
  else input.value = String(value);
}

function readStored(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key)) || fallback;
  } catch (error) {
    return fallback;
  }
}
function store(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (error) {
    /* private mode: kept until the page is left */
  }
}

function note(text) {
  $("practice-note").textContent = text || "";
  $("practice-note").hidden = !text;
}

// --- the set-up --------------------------------------------------------------------------------------------
const limits = () => config.rules[valueOf("rules")];

// A new game or player count brings its defaults for the options that depend on it.
function countDefaults() {
  const defaults = limits().defaults[valueOf("players")] || {};
  for (const [name, value] of Object.entries(defaults)) setValue(name, value);
}

function show(node, visible) {
  node.hidden = !visible;
  for (const input of node.querySelectorAll("input, select")) input.disabled = !visible;
}

function updateForm() {
  const rules = valueOf("rules");
  const { min, max } = limits();
  const players = field("players");
  for (const option of players.options) option.disabled = Number(option.value) < min || Number(option.value) > max;
  const clamped = Math.min(max, Math.max(min, Number(players.value)));
  if (clamped !== Number(players.value)) {
    players.value = String(clamped);
    countDefaults();
  }
  $("players-note").textContent = fmt(T.practice_players, { name: limits().name, min, max });
  for (const fieldset of form.querySelectorAll("fieldset[data-rules]")) {
    const ours = fieldset.dataset.rules === rules;
    show(fieldset, ours);
    for (const part of fieldset.querySelectorAll("[data-players]")) show(part, ours && part.dataset.players.split(" ").map(Number).includes(clamped));
  }
  for (const row of form.querySelectorAll(".seat-row")) show(row, Number(row.dataset.seat) < clamped);
}

// The options of the chosen game only, as the engine names them.
function chosenOptions() {
  const rules = valueOf("rules");
  const names = Object.keys(limits().defaults[valueOf("players")] || {});
  const options = {};
  for (const name of names) {
    const input = field(name);
    if (!input || input.disabled) continue;
    const value = valueOf(name);
    options[name] = input.type === "checkbox" ? value : rules === "americana" && name === "target" ? Number(value) : value;
  }
  return options;
}

function botNames(seed, count) {
  const names = config.bot_names.slice();
  let state = seed >>> 0;
  for (let i = names.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [names[i], names[j]] = [names[j], names[i]];
  }
  return names.slice(0, count);
}

function settingsFromForm() {
  const players = Number(valueOf("players"));
  const bots = [];
  for (let seat = 1; seat < players; seat++) bots.push({ level: valueOf(`seat_${seat}_level`), style: valueOf(`seat_${seat}_style`) });
  return { rules: valueOf("rules"), players, options: chosenOptions(), bots, pace: valueOf("pace") };
}

function showSettings(settings) {
  if (!settings || !config.rules[settings.rules]) return;
  setValue("rules", settings.rules);
  setValue("players", settings.players);
  countDefaults();
  for (const [name, value] of Object.entries(settings.options || {})) setValue(name, value);
  (settings.bots || []).forEach((bot, index) => {
    setValue(`seat_${index + 1}_level`, bot.level);
    setValue(`seat_${index + 1}_style`, bot.style);
  });
  setValue("pace", settings.pace);
}

form.addEventListener("change", (event) => {
  if (event.target.name === "rules" || event.target.name === "players") countDefaults();
  updateForm();
});

// --- the rules dialog: the chosen options in the set-up's own words ------------------------------------------
function rulesRows(settings) {
  const rows = [[T.players_row, String(settings.players)]];
  for (const fieldset of form.querySelectorAll(`fieldset[data-rules="${settings.rules}"]`)) {
    for (const input of fieldset.querySelectorAll("input, select")) {
      if (input.disabled) continue;
      const label = input.type === "checkbox" ? input.closest("label").textContent.trim() : form.querySelector(`label[for="${input.id}"]`).textContent.trim();
      const value = input.type === "checkbox" ? (input.checked ? T.yes : T.no) : input.selectedOptions[0].textContent.trim();
      rows.push([label, value]);
    }
  }
  const pace = field("pace");
  rows.push([T.pace_row, pace.selectedOptions[0].textContent.trim()]);
  $("rules-rows").innerHTML = rows.map(([label, value]) => `<div><dt>${esc(label)}</dt><dd>${esc(value)}</dd></div>`).join("");
  $("rules-link").href = config.rules[settings.rules].rules_url;
  $("practice-title").textContent = config.rules[settings.rules].name;
}

// --- results on this device: the worker keeps each finished match's (store.js) -------------------------------
async function showResults() {
  const results = (await practiceResults()).slice(0, RESULTS_SHOWN);
  $("practice-results-none").hidden = results.length > 0;
  $("practice-results").innerHTML = results.map((result) => {
    const winners = (result.result && result.result.winners) || [];
    const won = winners.length ? winners.includes(YOU) : null;
    const when = new Date(result.finished_at).toLocaleDateString(document.documentElement.lang || undefined);
    const name = (config.rules[result.rules] || {}).name || result.rules;
    const outcome = won === null ? T.result_none : won ? T.result_won : T.result_lost;
    const kind = won === null ? "none" : won ? "won" : "lost";
    return `<li class="practice-result practice-result--${kind}"><span>${esc(name)} · ${esc(T.players_row)}: ${esc(String(result.players))}</span> <strong>${esc(outcome)}</strong> <span class="muted">${esc(when)}</span></li>`;
  }).join("");
}

// --- offline: the download, and what a browser lacks ----------------------------------------------------------
const missing = missingFeatures();
const mb = (bytes) => (bytes / 1_000_000).toLocaleString(document.documentElement.lang || undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

function offlineState(state, text) {
  $("practice-offline").dataset.state = state;
  $("offline-status").textContent = text;
  $("offline-button").hidden = state === "ready";
  $("offline-button").disabled = state === "downloading" || state === "missing";
  $("offline-progress").hidden = state !== "downloading";
}

async function showOffline() {
  if (missing.length) {
    offlineState("missing", "");
    return;
  }
  let ready = false;
  try {
    ready = await isAvailableOffline(config.offline);
  } catch (error) {
    ready = false;
  }
  offlineState(ready ? "ready" : "not-yet", ready ? T.offline_ready : T.offline_not_yet);
  return ready;
}

let downloading = null;
function download() {
  if (!downloading) {
    downloading = downloadOnce().finally(() => (downloading = null));
  }
  return downloading;
}

async function downloadOnce() {
  const total = config.offline.total_bytes;
  offlineState("downloading", fmt(T.offline_downloading, { done: mb(0), total: mb(total) }));
  const progress = $("offline-progress");
  try {
    await registerServiceWorker();
    await makeAvailableOffline(config.offline, (done, all) => {
      progress.max = all || total;
      progress.value = done;
      const text = fmt(T.offline_downloading, { done: mb(done), total: mb(all || total) });
      $("offline-status").textContent = text;
      if (!$("practice-note").hidden) note(text);
    });
    offlineState("ready", T.offline_ready);
    return true;
  } catch (error) {
    const words = { network: T.offline_failed_network, integrity: T.offline_failed_integrity, quota: fmt(T.offline_failed_quota, { total: mb(total) }) };
    offlineState("failed", words[error && error.code] || T.offline_failed_network);
    return false;
  }
}

$("offline-button").addEventListener("click", () => download());

function showMissing() {
  const names = missing.map((key) => T.missing_words[key] || key);
  const list = names.length > 1 ? fmt(T.names_list_and, { names: names.slice(0, -1).join(", "), last: names[names.length - 1] }) : names[0];
  $("practice-missing").textContent = fmt(T.missing, { missing: list });
  $("practice-missing").hidden = false;
  $("practice-start").disabled = true;
}

// --- the engine and the match -----------------------------------------------------------------------------------
let enginePromise = null;
let table = null;
let answer = null; // the engine's last answer: what the table shows
let settings = null;
let matchNumber = 0;
let matchId = "";
let driving = false;
let pending = false;

function engine(quietly = false) {
  if (!enginePromise) {
    enginePromise = (async () => {
      // The runtime is downloaded once: opening practice the first time keeps it for offline play.
      const ready = await isAvailableOffline(config.offline).catch(() => false);
      if (!ready) await download();
      const starting = () => quietly || note(T.engine_starting);
      starting();
      return openEngine(config.engine, starting);
    })();
    enginePromise.catch(() => (enginePromise = null));
  }
  return enginePromise;
}

function seatsOf(seats) {
  return seats.map((seat, number) => (seat.kind === "you"
    ? { seat: number, kind: "person", name: T.practice_you, you: true, bot: null, standing_in: false, reserved: false }
    : {
      seat: number, kind: "bot", name: seat.name, you: false, standing_in: false, reserved: false,
      bot: { level: seat.level, style: seat.style, name: seat.name, badge: ((config.badges[seat.level] || {})[seat.style]) || T.bot },
    }));
}

// The engine's answer as the table page's data: the same shape as a real table's, one seat yours.
function tableData(next) {
  return {
    id: matchId,
    rules: next.rules,
    players: next.players,
    options: next.options,
    status: next.finished ? "finished" : "playing",
    seats: seatsOf(next.seats),
    seats_taken: next.players,
    seq: next.seq,
    to_move: next.to_move,
    deadline: null,
    result: next.result,
    your_seat: YOU,
    can_add_bot: false,
    view: next.view,
  };
}

function showAnswer(next) {
  answer = next;
  const data = tableData(next);
  // Shown before it is drawn: the hand is laid out to the width it has on the screen.
  if (!$("practice-setup").hidden) window.scrollTo(0, 0); // the table from its top, not where the Start button was
  $("practice-setup").hidden = true;
  $("table-app").hidden = false;
  $("practice-leave").hidden = Boolean(next.finished);
  if (!table) table = openTablePage(data, config, connection);
  else table.render(data);
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// A deal's result stays until it is closed: the bots wait for the player to read it.
function dialogsClosed() {
  const dialog = $("result-dialog");
  if (!dialog.open) return Promise.resolve();
  return new Promise((resolve) => dialog.addEventListener("close", resolve, { once: true }));
}

async function driveBots() {
  if (driving) return;
  driving = true;
  const match = matchId;
  try {
    while (answer && matchId && match === matchId && !answer.finished && answer.to_move !== YOU && answer.to_move !== null) {
      await pause(config.paces[settings.pace] || 0);
      await dialogsClosed();
      if (match !== matchId) return;
      const next = await (await engine()).botMove();
      if (match !== matchId) return;
      if (next.error) {
        table.toast(T.engine_failed);
        return;
      }
      showAnswer(next);
    }
  } catch (error) {
    if (table) table.toast(T.engine_failed);
  } finally {
    driving = false;
  }
  if (matchId && match !== matchId) driveBots(); // a new match began while this one's bot was thinking
}

const sameMove = (a, b) => a.type === b.type && (a.card || null) === (b.card || null);

const connection = {
  async move(move) {
    const legal = (answer.view.legal_moves || []).some((m) => sameMove(m, move));
    if (!legal || answer.to_move !== YOU) return { ok: false, error: legal ? T.not_your_turn : T.not_legal };
    pending = true;
    try {
      const next = await (await engine()).play(move);
      if (next.error) return { ok: false, error: T.not_legal };
      showAnswer(next);
    } catch (error) {
      return { ok: false, error: T.engine_failed };
    } finally {
      pending = false;
    }
    driveBots();
    return { ok: true };
  },
  action: async () => ({ ok: false }),
  rematch: async () => {
    $("result-dialog").close();
    await startMatch(settings);
  },
  links: {},
  matchOver() {
    showResults();
    const actions = $("result-dialog").querySelector(".result-actions");
    if (!actions) return;
    const close = actions.querySelector(".result-close");
    const other = document.createElement("button");
    other.type = "button";
    other.textContent = T.other_settings;
    other.addEventListener("click", backToSetup);
    const online = document.createElement("a");
    online.className = "button";
    online.href = config.login_url;
    online.textContent = T.play_online;
    actions.insertBefore(other, close);
    actions.insertBefore(online, close);
  },
};

function newMatch() {
  matchNumber += 1;
  matchId = `practice-${Date.now()}-${matchNumber}`;
}

// A fresh deal each match; a test may ask for a known one (window.septicaPractice.seed), as the server's tests deal from a seed.
function nextSeed() {
  const asked = window.septicaPractice.seed;
  delete window.septicaPractice.seed;
  return Number.isInteger(asked) ? asked : crypto.getRandomValues(new Uint32Array(1))[0] & 0x7fffffff;
}

async function startMatch(chosen) {
  settings = chosen;
  store(SETTINGS_KEY, chosen);
  $("practice-start").disabled = true;
  note(T.engine_starting);
  try {
    const running = await engine();
    const seed = nextSeed();
    const names = botNames(seed, chosen.players - 1);
    const seats = [{ kind: "you" }, ...chosen.bots.map((bot, index) => ({ kind: "bot", level: bot.level, style: bot.style, name: names[index] }))];
    const first = await running.start({ rules: chosen.rules, players: chosen.players, options: chosen.options, seed, seats });
    if (first.error) throw new Error(first.error.code);
    newMatch();
    rulesRows(chosen);
    note("");
    showAnswer(first);
    driveBots();
  } catch (error) {
    note(T.engine_failed);
  } finally {
    $("practice-start").disabled = Boolean(missing.length);
  }
}

function backToSetup() {
  const dialog = $("result-dialog");
  if (dialog.open) dialog.close();
  matchId = "";
  $("table-app").hidden = true;
  $("practice-leave").hidden = true;
  $("practice-setup").hidden = false;
  document.title = document.title.replace(/^● [^·]*· /, "");
  $("practice-start").focus();
}

// The saved match is dropped before the set-up shows, so the home page offers nothing to resume.
$("practice-new").addEventListener("click", async () => {
  matchId = "";
  $("practice-new").disabled = true;
  try {
    await (await engine()).forget();
  } catch (error) {
    /* nothing saved, or no engine: nothing to drop */
  }
  $("practice-new").disabled = false;
  backToSetup();
});

form.addEventListener("submit", (event) => {
  event.preventDefault();
  if (!missing.length) startMatch(settingsFromForm());
});

// A match saved on this device continues where it stood; one an older engine cannot load is over.
async function resume() {
  const saved = await savedPractice().catch(() => null);
  if (!saved || saved.finished) return;
  note(T.resuming);
  try {
    const running = await engine();
    const next = await running.resume();
    if (!next) {
      note("");
      return;
    }
    if (next.error) {
      note(next.error.code === "cannot-load" ? T.cannot_load : T.engine_failed);
      await running.forget();
      return;
    }
    const stored = readStored(SETTINGS_KEY, {});
    settings = {
      rules: next.rules, players: next.players, options: next.options, pace: stored.pace || "normal",
      bots: next.seats.filter((seat) => seat.kind === "bot").map((seat) => ({ level: seat.level, style: seat.style })),
    };
    showSettings(settings);
    updateForm();
    newMatch();
    rulesRows(settings);
    note("");
    showAnswer(next);
    driveBots();
  } catch (error) {
    note(T.engine_failed);
  }
}

// What the tests and the benchmark read: where the match stands, never a card beyond the player's view.
window.septicaPractice = {
  get data() {
    return table ? table.data : null;
  },
  get state() {
    if (!answer || !matchId) return "setup";
    if (answer.finished) return "finished";
    if ($("result-dialog").open || $("suit-dialog").open) return "dialog";
    if (answer.to_move === YOU && !pending && !(table && table.busy)) return "your-move";
    return "bots";
  },
};

showSettings(readStored(SETTINGS_KEY, null));
updateForm();
showResults();
if (missing.length) {
  showMissing();
  offlineState("missing", "");
} else {
  registerServiceWorker().catch(() => null);
  // Practice kept on the device starts its engine (over a second) while the set-up is read, so Start deals at once.
  showOffline().then((ready) => ready && engine(true).catch(() => null));
  resume();
}
