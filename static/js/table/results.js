// Scores and results: the scores panel, and the dialogs at the end of a deal
// and of the match.
//
// Every function reads the table's data (GET /api/tables/<id>) and the view in
// it; nothing here keeps state. Where teams play (view.teams) scores are shown
// per team, since the engine repeats a team's score for both partners, and the
// partners share a colour class (team-0, team-1, team-2).

const Cards = window.SepticaCards;
const esc = Cards.escapeHTML;

function fmt(text, params) {
  return String(text).replace(/%\((\w+)\)s/g, (_, key) => (params && key in params ? params[key] : ""));
}

/** The index of the seat's team in view.teams, or null when nobody plays in teams. */
export function teamOf(view, seat) {
  if (!view || !view.teams || seat === null || seat === undefined) return null;
  const index = view.teams.findIndex((team) => team.includes(seat));
  return index < 0 ? null : index;
}

function seatName(data, seat, T) {
  const info = data && data.seats && data.seats[seat];
  return (info && info.name) || fmt(T.seat_n, { n: seat + 1 });
}

function inWords(names, T) {
  if (names.length < 2) return names.join("");
  return fmt(T.names_and, { names: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

// The rows of a scores table: one per team where teams play, else one per seat.
function sides(view) {
  if (view.teams) return view.teams.map((seats, team) => ({ seats, team }));
  return Array.from({ length: view.players }, (_, seat) => ({ seats: [seat], team: null }));
}

const sum = (numbers, seats) => seats.reduce((total, seat) => total + (numbers ? numbers[seat] || 0 : 0), 0);

function teamChip(team, T) {
  return `<span class="team-chip team-${team}">${esc(fmt(T.team_n, { n: team + 1 }))}</span>`;
}

function sideLabel(data, side, T) {
  const names = side.seats.map((seat) => {
    const you = data.seats && data.seats[seat] && data.seats[seat].you;
    return esc(seatName(data, seat, T)) + (you ? ` <span class="badge badge--you">${esc(T.you)}</span>` : "");
  });
  if (side.team === null) return names[0];
  return `${teamChip(side.team, T)} <span class="result-names">${names.join(", ")}</span>`;
}

function sideClasses(view, side, winners) {
  const classes = [];
  if (side.team !== null) classes.push(`team-row team-${side.team}`);
  if (view.seat !== null && view.seat !== undefined && side.seats.includes(view.seat)) classes.push("is-you");
  if (winners && side.seats.some((seat) => winners.includes(seat))) classes.push("is-winner");
  return classes.join(" ");
}

// What view.scores count: points, deals won (septica's best-of formats) or penalties (americana).
function scoreLabel(view, T) {
  if (view.rules === "americana") return T.penalty_points;
  if (view.rules === "septica" && !String((view.options || {}).match || "").startsWith("points")) return T.deals_won;
  return T.score;
}

function goalHTML(view, T) {
  let goal = null;
  if (view.rules === "americana") goal = fmt(T.americana_goal, { target: (view.options || {}).target });
  else if (view.rules === "familie") goal = T.familie_goal;
  else goal = (T.match_goals || {})[(view.options || {}).match];
  return goal ? `<p class="result-goal"><strong>${esc(T.goal_label)}:</strong> ${esc(goal)}</p>` : "";
}

function winnerMark(T) {
  return `<span class="winner-mark" aria-hidden="true">★</span><span class="visually-hidden">${esc(T.winner)}:</span> `;
}

function outBadge(T) {
  return ` <span class="badge badge--out">${esc(T.out_badge)}</span>`;
}

function headCell(view, T) {
  return view.teams ? T.team : T.player;
}

/** The match scores, with a deal's points (or penalties) beside them when given. */
function matchTable(data, view, T, { dealPoints = null, out = null, winners = null } = {}) {
  const head = [`<th scope="col">${esc(headCell(view, T))}</th>`];
  if (dealPoints) head.push(`<th scope="col" class="num">${esc(T.this_deal)}</th>`);
  head.push(`<th scope="col" class="num">${esc(scoreLabel(view, T))}</th>`);
  const rows = sides(view).map((side) => {
    const won = winners && side.seats.some((seat) => winners.includes(seat));
    const wentOut = out !== null && side.seats.includes(out);
    const cells = [`<th scope="row">${won ? winnerMark(T) : ""}${sideLabel(data, side, T)}${wentOut ? outBadge(T) : ""}</th>`];
    if (dealPoints) cells.push(`<td class="num">${sum(dealPoints, side.seats)}</td>`);
    cells.push(`<td class="num">${view.scores[side.seats[0]]}</td>`);
    return `<tr class="${sideClasses(view, side, winners)}">${cells.join("")}</tr>`;
  });
  return `<table class="list result-table"><thead><tr>${head.join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** A finished deal: points per side (or penalties per seat, americana). */
function dealTable(data, view, deal, T) {
  const charged = Boolean(deal.charged);
  const numbers = charged ? deal.charged : deal.points;
  const head = `<tr><th scope="col">${esc(headCell(view, T))}</th><th scope="col" class="num">${esc(charged ? T.penalty_points : T.points)}</th></tr>`;
  const rows = sides(view).map((side) => {
    const badge = charged && side.seats.includes(deal.out) ? outBadge(T) : "";
    return `<tr class="${sideClasses(view, side, null)}"><th scope="row">${sideLabel(data, side, T)}${badge}</th><td class="num">${sum(numbers, side.seats)}</td></tr>`;
  });
  return `<table class="list result-table"><thead>${head}</thead><tbody>${rows.join("")}</tbody></table>`;
}

function dealVerdict(data, view, deal, T) {
  if (deal.charged) return deal.out === null ? T.nobody_out : fmt(T.went_out, { name: seatName(data, deal.out, T) });
  const totals = sides(view).map((side) => ({ side, points: sum(deal.points, side.seats) }));
  const best = Math.max(...totals.map((total) => total.points));
  const top = totals.filter((total) => total.points === best);
  if (top.length !== 1) return null;
  const names = top[0].side.seats.map((seat) => seatName(data, seat, T));
  return fmt(T.deal_most, { names: inWords(names, T), n: best });
}

// Familie's match is one deal: its deal's points are the match's score.
const oneDeal = (view) => view.rules === "familie";
const showsLastDeal = (view) => Boolean(view.last_deal) && !oneDeal(view);

/** The scores panel: the match score per player (per team where teams play), this deal's points, the last deal. */
export function scoresHTML(data, view, T) {
  if (!view) return "";
  ensureStyles();
  const playing = !view.finished;
  const winners = view.finished ? (view.result && view.result.winners) || [] : null;
  let html = playing ? `<p class="muted result-deal">${esc(fmt(T.deal_n, { n: view.deal + 1 }))}</p>` : "";
  html += matchTable(data, view, T, { dealPoints: playing && view.points ? view.points : null, winners });
  html += goalHTML(view, T);
  if (showsLastDeal(view)) {
    html += `<h3 class="result-subtitle">${esc(T.last_deal)} (${esc(fmt(T.deal_n, { n: view.last_deal.deal + 1 }))})</h3>`;
    html += dealTable(data, view, view.last_deal, T);
  }
  return `<div class="scores-panel">${html}</div>`;
}

const MARGIN = 8;

// A modal dialog is centred in the layout viewport. On a phone that is wider
// than the screen when the page overflows or is pinch-zoomed, so the dialog
// is placed on what the screen shows (the visual viewport) instead.
function fitToScreen(dialog) {
  const screen = window.visualViewport;
  const style = dialog.style;
  if (!screen || !dialog.open) return;
  if (Math.abs(screen.width - window.innerWidth) < 1 && Math.abs(screen.height - window.innerHeight) < 1 && !screen.offsetLeft && !screen.offsetTop) {
    for (const key of ["margin", "left", "top", "width", "maxHeight"]) style[key] = "";
    return;
  }
  const width = Math.min(screen.width - 2 * MARGIN, 34 * 16);
  Object.assign(style, { margin: "0", width: `${width}px`, maxWidth: "none", maxHeight: `${screen.height - 2 * MARGIN}px` });
  style.left = `${screen.offsetLeft + (screen.width - width) / 2}px`;
  style.top = `${screen.offsetTop + Math.max(MARGIN, (screen.height - dialog.offsetHeight) / 2)}px`;
}

function keepOnScreen(dialog) {
  if (dialog.dataset.fitted || !window.visualViewport) return;
  dialog.dataset.fitted = "1";
  const refit = () => fitToScreen(dialog);
  window.visualViewport.addEventListener("resize", refit);
  window.visualViewport.addEventListener("scroll", refit);
  if (window.ResizeObserver) new ResizeObserver(refit).observe(dialog);
}

// The dialogs' stylesheet, for a page that does not link it itself.
function ensureStyles() {
  if (document.querySelector('link[rel="stylesheet"][href*="table-results"]')) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("../../css/table-results.css", import.meta.url).href;
  document.head.append(link);
}

function openDialog(dialog, html, focus) {
  ensureStyles();
  dialog.classList.add("result-dialog");
  dialog.setAttribute("aria-labelledby", "result-title");
  dialog.innerHTML = html;
  if (!dialog.open) dialog.showModal();
  fitToScreen(dialog);
  keepOnScreen(dialog);
  dialog.scrollTop = 0;
  const body = dialog.querySelector(".result-body");
  if (body) body.scrollTop = 0;
  focus();
}

function closeButton(label, primary) {
  return `<form method="dialog" class="result-close"><button type="submit" class="${primary ? "primary" : ""}" value="close">${esc(label)}</button></form>`;
}

/** The end of a deal: what each side took (or was charged), the match so far; Continue closes it. */
export function showDealResult(dialog, data, view, lastDeal, T) {
  const deal = lastDeal || (view && view.last_deal);
  if (!dialog || !deal) return;
  const verdict = dealVerdict(data, view, deal, T);
  const html =
    `<h2 id="result-title">${esc(fmt(T.deal_over, { n: deal.deal + 1 }))}</h2>` +
    `<div class="result-body">` +
    (verdict ? `<p class="result-verdict">${esc(verdict)}</p>` : "") +
    matchTable(data, view, T, oneDeal(view) ? {} : { dealPoints: deal.charged || deal.points, out: deal.charged ? deal.out : null }) +
    goalHTML(view, T) +
    `</div><div class="result-actions">${closeButton(T.continue, true)}</div>`;
  openDialog(dialog, html, () => dialog.querySelector(".result-close button").focus());
}

function matchVerdict(data, view, winners, T) {
  if (!winners.length) return { text: T.nobody_won, yours: "" };
  const names = inWords(winners.map((seat) => seatName(data, seat, T)), T);
  const text = fmt(winners.length > 1 ? T.winners_many : T.winners, { names });
  const mine = view.seat !== null && view.seat !== undefined && winners.includes(view.seat);
  return { text, yours: mine ? (view.teams ? T.your_team_won : T.you_won) : "" };
}

/** The end of the match: who won, the final scores, the last deal; Rematch, Replay, Back to my matches. */
export function showMatchResult(dialog, data, view, T, { onRematch = null, replayUrl = null, matchesUrl = null } = {}) {
  if (!dialog || !view) return;
  const winners = (view.result && view.result.winners) || [];
  const verdict = matchVerdict(data, view, winners, T);
  const teams = [...new Set(winners.map((seat) => teamOf(view, seat)).filter((team) => team !== null))];
  let body = `<p class="result-verdict" id="result-verdict">${teams.map((team) => teamChip(team, T)).join(" ")} ${esc(verdict.text)}</p>`;
  if (verdict.yours) body += `<p class="result-yours">${esc(verdict.yours)}</p>`;
  const resigned = (view.result && view.result.resigned) || [];
  if (resigned.length) {
    const names = inWords(resigned.map((seat) => seatName(data, seat, T)), T);
    body += `<p class="result-resigned">${esc(interpolate(ngettext("%(names)s resigned.", "%(names)s resigned.", resigned.length), { names }, true))}</p>`;
  }
  body += `<h3 class="result-subtitle">${esc(T.final_scores)}</h3>` + matchTable(data, view, T, { winners }) + goalHTML(view, T);
  if (showsLastDeal(view)) {
    body += `<h3 class="result-subtitle">${esc(T.last_deal)} (${esc(fmt(T.deal_n, { n: view.last_deal.deal + 1 }))})</h3>`;
    body += dealTable(data, view, view.last_deal, T);
  }
  const actions = [];
  if (onRematch) actions.push(`<button type="button" class="primary" data-rematch>${esc(T.rematch)}</button>`);
  if (replayUrl) actions.push(`<a class="button" href="${esc(replayUrl)}" data-replay>${esc(T.replay)}</a>`);
  if (matchesUrl) actions.push(`<a class="button" href="${esc(matchesUrl)}" data-matches>${esc(T.back_to_matches)}</a>`);
  actions.push(closeButton(T.close, false));
  const html =
    `<h2 id="result-title">${esc(T.match_over)}</h2>` +
    `<div class="result-body">${body}</div><div class="result-actions">${actions.join("")}</div>`;
  // The dialog itself takes the focus (its title and verdict are read out), so
  // an Enter meant for the table cannot start a rematch.
  openDialog(dialog, html, () => {
    dialog.tabIndex = -1;
    dialog.focus();
  });
  dialog.setAttribute("aria-describedby", "result-verdict");
  const rematch = dialog.querySelector("[data-rematch]");
  if (rematch) rematch.addEventListener("click", () => rematchClicked(rematch, onRematch));
}

// The button stays disabled while the callback's promise runs (the page usually leaves).
async function rematchClicked(button, onRematch) {
  if (button.disabled) return;
  button.disabled = true;
  try {
    await onRematch(button);
  } finally {
    button.disabled = false;
  }
}
