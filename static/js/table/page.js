// The table page around the table (render.js): the player's preferences, the
// tab's title, sounds, the results, and the dialogs (scores, log, last trick,
// settings). It is driven by a connection, which holds the game: the server's
// (main.js, for real tables) or the local engine's (practice/main.js).
//
// connection: {
//   move(move) -> Promise<{ok} | {ok: false, error?}>   (it hands the next data to page.render)
//   action(name, body) -> Promise<{ok, error?}>           (an open table's join, leave, add a bot)
//   rematch: () => Promise, or null where no rematch is offered
//   links: {replayUrl, matchesUrl}                        (the match result's links)
//   changed(before, after)?                               (after every redraw of new data)
//   matchOver(data)?                                      (once per match, when its result shows)
// }
import { request } from "./connection.js";
import * as history from "./history.js";
import { createTableView } from "./render.js";
import * as results from "./results.js";
import * as sounds from "./sounds.js";

const $ = (id) => document.getElementById(id);
const esc = window.SepticaCards.escapeHTML;
const PREFERENCES_KEY = "septica.preferences";

const isMyTurnIn = (d) => Boolean(d.view) && d.status !== "aborted" && d.view.seat !== null && d.view.to_move === d.view.seat && !d.view.finished;

export function openTablePage(data, config, connection) {
  const T = config.text;

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
    if ($("pref-chat-text")) $("pref-chat-text").checked = preferences.chat_text !== false;
    $("sound-toggle").setAttribute("aria-pressed", String(Boolean(preferences.sounds)));
  }

  // --- what changed: the tab's title, sounds, the results -----------------------------------------------------
  let matchShown = false;
  // The tab tells a player in another tab that it is their move: "● Your move · Șeptică · Table 5".
  const pageTitle = document.title;
  const showTurnInTitle = (mine) => {
    document.title = mine ? `● ${T.your_move_tab} · ${pageTitle}` : pageTitle;
  };

  function onChange(before, after) {
    if (before.id !== after.id) matchShown = false; // a new match on the same page (practice's rematch)
    const was = before.id === after.id ? before.view : null, now = after.view;
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
    if (connection.changed) connection.changed(before, after);
  }

  function showMatchEnd() {
    const d = table.data;
    if (matchShown || !d.view || !d.view.finished) return;
    matchShown = true;
    const dialog = $("result-dialog");
    if (dialog.open) dialog.close();
    const links = connection.links || {};
    results.showMatchResult(dialog, d, d.view, T, {
      onRematch: d.view.seat !== null ? connection.rematch : null,
      replayUrl: links.replayUrl,
      matchesUrl: links.matchesUrl,
    });
    if (connection.matchOver) connection.matchOver(d);
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
    const name = { "pref-one-tap": "one_tap", "pref-auto-take": "auto_take", "pref-sounds": "sounds", "pref-chat-text": "chat_text" }[event.target.id];
    if (name) savePreferences({ [name]: event.target.checked });
  });

  const table = createTableView(data, {
    T,
    config,
    onMove: (move) => connection.move(move),
    onAction: (action, body) => connection.action(action, body),
    onChange,
    onTrickTaken: () => sounds.play("trick"),
    preferences: () => preferences,
    teamOf: (view, seat) => (view && view.teams ? results.teamOf(view, seat) : null),
  });

  showPreferences();
  table.renderAll();
  showTurnInTitle(isMyTurnIn(data));
  showMatchEnd();
  return table;
}
