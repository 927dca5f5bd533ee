// The table page: reads the page's data and config, keeps the player's
// preferences, joins the view (render.js) to the server (connection.js), and
// opens the dialogs (results, scores, log, last trick, settings).
import { createConnection, request } from "./connection.js";
import * as history from "./history.js";
import { createTableView, fmt } from "./render.js";
import * as results from "./results.js";
import * as sounds from "./sounds.js";

const $ = (id) => document.getElementById(id);
const esc = window.SepticaCards.escapeHTML;
const config = JSON.parse($("table-config").textContent);
const T = config.text;
const PREFERENCES_KEY = "septica.preferences";

// --- preferences: the profile's for a person logged in, this browser's for a guest ----------------------
function loadPreferences() {
  const preferences = Object.assign({ one_tap: true, auto_take: false, sounds: false }, config.preferences || {});
  if (config.logged_in) return preferences;
  try {
    return Object.assign(preferences, JSON.parse(localStorage.getItem(PREFERENCES_KEY) || "{}"));
  } catch (error) {
    return preferences;
  }
}
let preferences = loadPreferences();
sounds.setEnabled(Boolean(preferences.sounds));

async function savePreferences(changes) {
  preferences = Object.assign({}, preferences, changes);
  sounds.setEnabled(Boolean(preferences.sounds));
  showPreferences();
  table.preferencesChanged();
  if (!config.logged_in) {
    try {
      localStorage.setItem(PREFERENCES_KEY, JSON.stringify(preferences));
    } catch (error) {
      /* private mode: they last until the page is left */
    }
    return;
  }
  const { status, json } = await request("POST", config.preferences_api, changes);
  if (status === 200 && json.preferences) preferences = Object.assign(preferences, json.preferences);
  else table.toast(json.error || T.network);
}

function showPreferences() {
  $("pref-one-tap").checked = Boolean(preferences.one_tap);
  $("pref-auto-take").checked = Boolean(preferences.auto_take);
  $("pref-sounds").checked = Boolean(preferences.sounds);
  $("sound-toggle").setAttribute("aria-pressed", String(Boolean(preferences.sounds)));
}

// --- the server --------------------------------------------------------------------------------------------
const data = JSON.parse($("table-data").textContent);
let gone = false;

const connection = createConnection(config, {
  current: () => table.data,
  onTable: (next) => table.render(next),
  onPresence: showPresence,
  onOnline: showOnline,
  onGone: showGone,
  onError: (message) => {
    if (message || $("live-banner").hidden) table.toast(message || T.network); // offline: the banner already says so
  },
  idle: () => !table.busy,
});

async function onMove(move) {
  const answer = await connection.sendMove(move);
  if (answer.status === 200) {
    table.render(answer.json);
    return { ok: true };
  }
  if (answer.status === 400) return { ok: false, error: answer.json.error };
  if (answer.status === 409) {
    await connection.refresh();
    return { ok: false };
  }
  if (answer.status === 0) {
    if (!answer.lost) {
      table.toast(T.network);
      await connection.refresh();
    }
    return { ok: false };
  }
  return { ok: false, error: answer.json.error || T.not_your_turn };
}

async function onAction(action, body) {
  const withInvite = config.invite ? Object.assign({ invite: config.invite }, body) : body;
  const { status, json } = await connection.post(`/${action}`, withInvite);
  if (status !== 200) return { ok: false, error: json.error };
  if (json && json.id === table.data.id && json.seats) table.render(json);
  else await connection.refresh();
  return { ok: true };
}

// --- what changed: the tab's title, sounds, the results -----------------------------------------------------
const isMyTurnIn = (d) => Boolean(d.view) && d.status !== "aborted" && d.view.seat !== null && d.view.to_move === d.view.seat && !d.view.finished;
let matchShown = false;
// The tab tells a player in another tab that it is their move: "● Your move · Șeptică · Table 5".
const pageTitle = document.title;
const showTurnInTitle = (mine) => {
  document.title = mine ? `● ${T.your_move_tab} · ${pageTitle}` : pageTitle;
};

function onChange(before, after) {
  const was = before.view, now = after.view;
  const mine = isMyTurnIn(after);
  showTurnInTitle(mine);
  if (mine && (!isMyTurnIn(before) || before.seq !== after.seq)) {
    sounds.play("turn");
    sounds.vibrate();
  }
  if (was && now && after.seq > before.seq) {
    const last = (now.log || [])[now.log.length - 1];
    if (last && last.type === "play") sounds.play("card");
  }
  if (was && now && now.deal !== was.deal && now.last_deal && !now.finished) {
    results.showDealResult($("result-dialog"), after, now, now.last_deal, T);
  }
  showMatchEnd();
  if ($("log-dialog").open) showLog();
  if ($("scores-dialog").open) showScores();
  connection.schedulePoll();
}

function showMatchEnd() {
  const d = table.data;
  if (matchShown || !d.view || !d.view.finished) return;
  matchShown = true;
  const dialog = $("result-dialog");
  if (dialog.open) dialog.close();
  results.showMatchResult(dialog, d, d.view, T, {
    onRematch: d.view.seat !== null && config.logged_in ? rematch : null,
    replayUrl: config.replay_url,
    matchesUrl: config.matches_url,
  });
}

async function rematch() {
  const { status, json } = await connection.post("/rematch", {});
  if (status === 201 || status === 200) location.href = json.url;
  else table.toast(json.error);
}

// --- dialogs ----------------------------------------------------------------------------------------------
function showScores() {
  const d = table.data;
  const body = $("scores-body");
  if (!d.view) body.innerHTML = `<p>${esc(interpolate(ngettext("Waiting for %(n)s more player.", "Waiting for %(n)s more players.", d.players - d.seats_taken), { n: d.players - d.seats_taken }, true))}</p>`;
  else body.innerHTML = results.scoresHTML(d, d.view, T);
}

function showLog() {
  const v = table.data.view;
  const lines = v ? history.logLines(v, table.seatName, T).slice().reverse() : [];
  const html = lines.length ? lines.map((line) => `<li>${esc(line)}</li>`).join("") : `<li class="muted">${esc(T.no_moves)}</li>`;
  if ($("log").innerHTML !== html) $("log").innerHTML = html;
}

function showLastTrick() {
  const v = table.data.view;
  const plays = v ? history.lastTrick(v) : null;
  $("last-trick-body").innerHTML = plays && plays.length
    ? `<ol class="last-trick">${plays.map((p) => `<li>${window.SepticaCards.cardHTML(p.card, { text: T })}<span class="played__who">${esc(table.seatName(p.seat))}</span></li>`).join("")}</ol>`
    : `<p>${esc(T.no_last_trick)}</p>`;
}

const OPENERS = { "scores-dialog": showScores, "log-dialog": showLog, "last-trick-dialog": showLastTrick, "settings-dialog": showPreferences };
document.addEventListener("click", (event) => {
  const opener = event.target.closest("[data-open]");
  if (!opener) return;
  const dialog = $(opener.dataset.open);
  if (OPENERS[dialog.id]) OPENERS[dialog.id]();
  dialog.showModal();
});
// A dialog closed gives the focus back to the hand when a move is expected, not to the page's body.
document.querySelectorAll("dialog").forEach((dialog) => dialog.addEventListener("close", () => {
  if (document.activeElement === document.body || !document.activeElement) {
    const card = document.querySelector("#hand .hand-card");
    if (card && !$("dock").hidden) card.focus({ preventScroll: true });
  }
}));

$("sound-toggle").addEventListener("click", () => savePreferences({ sounds: !preferences.sounds }));
$("settings-form").addEventListener("change", (event) => {
  const name = { "pref-one-tap": "one_tap", "pref-auto-take": "auto_take", "pref-sounds": "sounds" }[event.target.id];
  if (name) savePreferences({ [name]: event.target.checked });
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

$("take-back").addEventListener("click", async () => {
  const button = $("take-back");
  button.disabled = true;
  const { status, json } = await connection.post("/back", {});
  button.disabled = false;
  if (status === 200) table.render(json);
  else table.toast(json.error || T.network);
});

// --- live: presence, offline, a table that went away -----------------------------------------------------
function showPresence(message) {
  const n = message.spectators || 0;
  const box = $("spectators");
  const words = $("live-text").dataset;
  // An eye and the number are what the bar has room for; the words are for screen readers and the tooltip.
  $("spectators-words").textContent = n === 1 ? words.spectatorsOne : fmt(words.spectatorsMany, { n });
  box.dataset.count = String(n);
  box.title = $("spectators-words").textContent;
  box.hidden = !n;
  table.presence(message);
}

function showOnline(online) {
  $("live-banner").hidden = online;
  document.documentElement.dataset.live = online ? "online" : "offline";
}

function showGone() {
  if (gone) return;
  gone = true;
  connection.stopPolling();
  $("felt").hidden = true;
  $("dock").hidden = true;
  $("open-panel").hidden = true;
  const lobby = config.lobby_url ? ` <a href="${esc(config.lobby_url)}">${esc(T.close)}</a>` : "";
  $("banner").innerHTML = `<p>${esc(T.gone)}${lobby}</p>`;
  $("banner").hidden = false;
}

const table = createTableView(data, {
  T,
  config,
  onMove,
  onAction,
  onChange,
  onTrickTaken: () => sounds.play("trick"),
  preferences: () => preferences,
  teamOf: (view, seat) => (view && view.teams ? results.teamOf(view, seat) : null),
});

window.septicaTable = {
  render: (next) => table.render(next),
  refresh: () => connection.refresh(),
  get data() {
    return table.data;
  },
  get live() {
    return connection.live;
  },
};
showPreferences();
table.renderAll();
showTurnInTitle(isMyTurnIn(data));
showMatchEnd();
connection.start();
