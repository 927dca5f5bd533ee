// A real table's page: the shared table page (page.js) driven by the server
// (connection.js), with what only a table at the server has: presence, the
// invite link, taking one's seat back, a table that went away.
import { createChat } from "./chat.js";
import { createConnection } from "./connection.js";
import { fmt } from "./render.js";
import { createLeaving } from "./leaving.js";
import { openTablePage } from "./page.js";

const $ = (id) => document.getElementById(id);
const esc = window.SepticaCards.escapeHTML;
const config = JSON.parse($("table-config").textContent);
const T = config.text;
const data = asShown(JSON.parse($("table-data").textContent));

// A match a resignation ended is over although its cards are not: show it as any finished match.
function asShown(next) {
  if (!next || next.status !== "finished" || !next.view || next.view.finished) return next;
  return Object.assign({}, next, { view: Object.assign({}, next.view, { finished: true, result: next.result, to_move: null, legal_moves: [] }) });
}
let gone = false;
const chat = createChat({
  send: (body) => connection.sendChat(body),
  load: () => connection.loadChat(),
});
chat.showTextChanged(config.preferences && config.preferences.chat_text);
const chatTextSwitch = $("pref-chat-text");
if (chatTextSwitch) chatTextSwitch.addEventListener("change", () => chat.showTextChanged(chatTextSwitch.checked));

const connection = createConnection(config, {
  current: () => table.data,
  onTable: (next) => table.render(asShown(next)),
  onPresence: showPresence,
  onOnline: showOnline,
  onGone: showGone,
  onChat: (message) => chat.onMessage(message),
  onError: (message) => {
    if (message || $("live-banner").hidden) table.toast(message || T.network); // offline: the banner already says so
  },
  idle: () => !table.busy,
});

async function move(played) {
  const answer = await connection.sendMove(played);
  if (answer.status === 200) {
    table.render(asShown(answer.json));
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

async function action(name, body) {
  const withInvite = config.invite ? Object.assign({ invite: config.invite }, body) : body;
  const { status, json } = await connection.post(`/${name}`, withInvite);
  if (status !== 200) return { ok: false, error: json.error };
  if (json && json.id === table.data.id && json.seats) table.render(asShown(json));
  else await connection.refresh();
  return { ok: true };
}

async function rematch() {
  const { status, json } = await connection.post("/rematch", {});
  if (status === 201 || status === 200) location.href = json.url;
  else table.toast(json.error);
}

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
  if (status === 200) table.render(asShown(json));
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

const table = openTablePage(data, config, {
  move,
  action,
  rematch: config.logged_in ? rematch : null,
  links: { replayUrl: config.replay_url, matchesUrl: config.matches_url },
  changed: (before, after) => {
    connection.schedulePoll();
    leaving.update(after);
  },
});
const leaving = createLeaving({
  post: (suffix, body) => connection.post(suffix, body),
  render: (next) => table.render(asShown(next)),
  toast: (message) => table.toast(message),
  current: () => table.data,
});
leaving.update(table.data);

window.septicaTable = {
  render: (next) => table.render(asShown(next)),
  refresh: () => connection.refresh(),
  get data() {
    return table.data;
  },
  get live() {
    return connection.live;
  },
};
connection.start();
// The socket brings the chat's history at once; without it (no socket, or one that never opened) ask over HTTP.
setTimeout(() => chat.start(), window.LiveSocket && window.WebSocket ? 3000 : 0);
