// The deal's history as people read it: the log in sentences, and the last trick taken.
//
// Everything here is read from view.log, the public history of the current
// deal, so a reload or a late joiner sees the same lines. Cards are named by
// their faces (A♥), seats by the names the caller gives (never "seat 0").

const Cards = window.SepticaCards;
const esc = Cards.escapeHTML;

function fmt(text, params) {
  return String(text).replace(/%\((\w+)\)s/g, (_, key) => (params && key in params ? params[key] : ""));
}

const short = (code) => Cards.cardShort(code);

function isCutter(view, card) {
  if (view.rules === "familie") return card[0] === "7" || card[0] === "X";
  return (view.cutters || ["7"]).includes(card[0]);
}

// One log entry in words, or null for the entries said once for a group (the
// septica draws after a trick) or not at all.
function playLine(view, entry, name, led, T) {
  const card = short(entry.card);
  if (entry.suit) return fmt(T.log_seven, { name, card, suit: Cards.SUITS[entry.suit] });
  if (led !== null && view.rules === "familie") return fmt(T.log_cut, { name, card });
  if (led !== null && view.rules === "septica" && entry.card[0] !== led && isCutter(view, entry.card)) {
    return fmt(T.log_cut, { name, card });
  }
  return fmt(T.log_play, { name, card });
}

function drawLine(entry, name, T) {
  if (entry.written_off) return fmt(T.log_draw_written_off, { name, n: entry.count, off: entry.written_off });
  return fmt(T.log_draw, { name, n: entry.count });
}

function passLine(entry, name, T) {
  if (entry.skip) return fmt(T.log_pass_skip, { name });
  if (entry.written_off) return fmt(T.log_pass_written_off, { name, n: entry.written_off });
  return fmt(T.log_pass, { name });
}

function dealOverLines(entry, seatName, T) {
  const lines = [T.log_deal_over];
  if ("out" in entry) lines.push(entry.out === null ? T.nobody_out : fmt(T.went_out, { name: seatName(entry.out) }));
  return lines;
}

/** The whole deal in sentences, oldest first. */
export function logLines(view, seatName, T) {
  const lines = [];
  let led = null; // the rank that led the trick in play (septica, familie)
  let refilling = false; // septica's draws after a trick are one line for the whole table
  for (const entry of (view && view.log) || []) {
    const name = entry.seat === null || entry.seat === undefined ? "" : seatName(entry.seat);
    const type = entry.type;
    if (type !== "draw" || view.rules !== "septica") refilling = false;
    if (type === "play") {
      lines.push(playLine(view, entry, name, led, T));
      if (led === null && view.rules !== "americana") led = entry.card[0];
    } else if (type === "take") {
      led = null;
      if (view.rules === "septica") lines.push(entry.points ? fmt(T.log_take_points, { name, n: entry.points }) : fmt(T.log_take, { name }));
    } else if (type === "draw" && view.rules === "septica") {
      if (!refilling) lines.push(T.log_refill);
      refilling = true;
    } else if (type === "draw") lines.push(drawLine(entry, name, T));
    else if (type === "pass") lines.push(passLine(entry, name, T));
    else if (type === "end") lines.push(fmt(T.log_end, { name }));
    else if (type === "trick") lines.push(fmt(T.log_trick_points, { name, n: entry.points }));
    else if (type === "remove") lines.push(fmt(T.log_remove, { cards: entry.cards.map(short).join(" ") }));
    else if (type === "deal") lines.push(T.log_deal);
    else if (type === "turn_up") lines.push(fmt(T.log_turn_up, { card: short(entry.card) }));
    else if (type === "bury") lines.push(fmt(T.log_bury, { card: short(entry.card) }));
    else if (type === "reshuffle") lines.push(T.log_reshuffle);
    else if (type === "deal_over") lines.push(...dealOverLines(entry, seatName, T));
  }
  return lines;
}

/** The log as an ordered list, for the log panel. */
export function logHTML(view, seatName, T) {
  const lines = logLines(view, seatName, T);
  if (!lines.length) return `<p class="log-lines__empty">${esc(T.no_moves)}</p>`;
  return `<ol class="log-lines">${lines.map((line) => `<li>${esc(line)}</li>`).join("")}</ol>`;
}

// The trick taken last: its plays in order, who took it, and what it was worth.
// Septica's "take" carries the points; familie's follows it with a "trick" entry.
function lastTaken(view) {
  if (!view || view.rules === "americana") return null;
  let plays = [];
  let taken = null;
  for (const entry of view.log || []) {
    if (entry.type === "play") plays.push({ seat: entry.seat, card: entry.card });
    else if (entry.type === "take") {
      taken = { plays, seat: entry.seat, points: entry.points };
      plays = [];
    } else if (entry.type === "trick" && taken && entry.seat === taken.seat) taken.points = entry.points;
  }
  return taken && taken.plays.length ? taken : null;
}

/** [{seat, card}] of the trick taken last in this deal, in the order played, or null. */
export function lastTrick(view) {
  const taken = lastTaken(view);
  return taken ? taken.plays : null;
}

/** The seat that took the last trick, or null. */
export function lastTrickTaker(view) {
  const taken = lastTaken(view);
  return taken ? taken.seat : null;
}

// The card that won the trick: the last one of the led rank or a cutter (any
// card after the lead cuts in familie), or the lead when nothing beat it.
function winningIndex(view, taken) {
  const led = taken.plays[0].card[0];
  let winning = 0;
  taken.plays.forEach((play, index) => {
    if (index && (view.rules === "familie" || play.card[0] === led || isCutter(view, play.card))) winning = index;
  });
  return taken.plays[winning].seat === taken.seat ? winning : -1;
}

/** The last trick's cards with who played each, and who took it. */
export function lastTrickHTML(view, seatName, T) {
  const taken = lastTaken(view);
  if (!taken) return `<p class="last-trick__empty">${esc(T.no_last_trick)}</p>`;
  const who = seatName(taken.seat);
  const caption = taken.points ? fmt(T.last_trick_by_points, { name: who, n: taken.points }) : fmt(T.last_trick_by, { name: who });
  const winning = winningIndex(view, taken);
  const cards = taken.plays.map((play, index) => (
    `<li class="last-trick__play${index === winning ? " is-taker" : ""}">` +
    Cards.cardHTML(play.card, { text: T }) +
    `<span class="last-trick__who">${esc(seatName(play.seat))}</span></li>`
  ));
  return `<p class="last-trick__caption">${esc(caption)}</p><ol class="last-trick" aria-label="${esc(T.last_trick)}">${cards.join("")}</ol>`;
}
