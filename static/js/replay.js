// The replay of a finished match: step through every position with all hands
// shown, and check the revealed seed against the hash published at the start.
(() => {
  "use strict";
  const source = document.getElementById("replay-data");
  if (!source) return;
  const data = JSON.parse(source.textContent);
  const words = data.words;
  const names = data.names;

  // The server sends each step with only what changed; rebuild full positions once.
  const steps = [];
  data.steps.reduce((previous, change) => {
    const full = Object.assign({}, previous, change);
    steps.push(full);
    return full;
  }, {});

  const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
  const RANKS = { T: "10" };
  const format = (template, values) => template.replace(/%\((\w+)\)s/g, (_, key) => values[key]);
  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  const cardWords = words.cards;

  // "ace of hearts", "red joker": what a tooltip and a screen reader say.
  function cardName(code) {
    if (code[0] === "X") return code[1] === "R" ? cardWords.red_joker : cardWords.black_joker;
    return format(cardWords.card_name, { rank: cardWords.rank_names[code[0]], suit: cardWords.suit_names[code[1]] });
  }

  // In sentences: the face ("A♥", "10♣"), a joker by its name.
  function cardLabel(code) {
    if (code[0] === "X") return cardName(code);
    return (RANKS[code[0]] || code[0]) + (SUITS[code[1]] || code[1]);
  }

  function card(code) {
    const red = code[1] === "H" || code[1] === "D" || code === "XR";
    const joker = code[0] === "X";
    const node = el("span", "rcard" + (red ? " red" : ""), joker ? "★" : cardLabel(code));
    node.title = cardName(code);
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", cardName(code));
    return node;
  }

  function cardList(codes) {
    const list = el("span", "rcards");
    if (!codes || !codes.length) list.append(el("span", "muted", words.no_cards));
    (codes || []).forEach((code) => list.append(card(code), " "));
    return list;
  }

  function moveText(move) {
    let text = words.moves[move.type] || move.type;
    if (move.card) text += " " + cardLabel(move.card);
    if (move.suit) text += ", " + words.moves.names + " " + (cardWords.suit_names[move.suit] || move.suit);
    return text;
  }

  function eventText(event) {
    const who = event.seat === null || event.seat === undefined ? "" : names[event.seat] + ": ";
    let text = who + (words.events[event.type] || event.type);
    if (event.card) text += " " + cardLabel(event.card);
    if (event.suit) text += ", " + words.moves.names + " " + (cardWords.suit_names[event.suit] || event.suit);
    if (event.cards) text += " " + event.cards.map(cardLabel).join(" ");
    if (event.count && event.type === "draw") text += " " + event.count;
    if (event.points !== undefined) text += " (" + event.points + " " + words.points + ")";
    return text;
  }

  function seatPanel(step, seat) {
    const panel = el("article", "replay-seat");
    panel.dataset.seat = seat;
    if (step.to_move === seat) panel.classList.add("to-move");
    if (step.seq > 0 && step.seat === seat) panel.classList.add("just-moved");
    const title = el("h3");
    const profile = (data.profile_urls || [])[seat];  // a person's name opens their profile; bots have none
    if (profile) {
      const link = el("a", null, names[seat]);
      link.href = profile;
      title.append(link);
    } else title.textContent = names[seat];
    if (step.to_move === seat) title.append(" ", el("span", "badge", words.to_move));
    panel.append(title, cardList(step.hands[seat]));
    const facts = el("p", "muted");
    if (step.points) facts.append(words.points + ": " + step.points[seat] + " · ");
    facts.append(words.score + ": " + step.scores[seat]);
    panel.append(facts);
    return panel;
  }

  function middle(step) {
    const box = el("div");
    if (step.table !== undefined) {
      box.append(el("h3", null, words.trick));
      const trick = el("p", "rcards");
      step.table.forEach((play) => trick.append(card(play.card), el("span", "muted", " " + names[play.seat] + " ")));
      if (!step.table.length) trick.append(el("span", "muted", words.no_cards));
      box.append(trick);
    } else {
      box.append(el("h3", null, words.pile));
      const pile = el("p", "rcards");
      if (step.top) pile.append(card(step.top));
      if (step.suit) pile.append(" " + words.suit + ": " + SUITS[step.suit]);
      box.append(pile);
      if (step.attack) {
        const attack = step.attack.kind === "draw"
          ? format(words.attack_draw, { count: step.attack.count }) : words.attack_skip;
        box.append(el("p", "attack", attack));
      }
    }
    box.append(el("p", null, words.stock + ": " + step.stock));
    if (step.removed && step.removed.length) {
      const removed = el("p", null, words.removed + ": ");
      removed.append(cardList(step.removed));
      box.append(removed);
    }
    return box;
  }

  const slider = document.getElementById("replay-slider");
  const now = document.getElementById("replay-now");
  const seats = document.getElementById("replay-seats");
  const centre = document.getElementById("replay-middle");
  const events = document.getElementById("replay-events");
  let current = 0;

  function show(index) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[current];
    slider.value = String(current);
    now.textContent = current === 0
      ? words.dealt
      : format(words.move_of, { k: current, n: steps.length - 1 }) + " · " + names[step.seat] + " " +
        moveText(step.move) + (step.actor && step.actor !== "person" ? " (" + words.actors[step.actor] + ")" : "");
    seats.replaceChildren(...step.hands.map((_, seat) => seatPanel(step, seat)));
    centre.replaceChildren(middle(step));
    events.replaceChildren(...(step.events || []).map((event) => el("li", null, eventText(event))));
    document.querySelectorAll("[data-go]").forEach((button) => {
      const back = button.dataset.go === "first" || button.dataset.go === "previous";
      button.disabled = back ? current === 0 : current === steps.length - 1;
    });
  }

  const moves = {
    first: () => 0, previous: () => current - 1, next: () => current + 1, last: () => steps.length - 1,
  };
  document.querySelectorAll("[data-go]").forEach((button) => {
    button.addEventListener("click", () => show(moves[button.dataset.go]()));
  });
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input:not([type=range]), textarea, select")) return;
    const keys = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" };
    if (!keys[event.key] || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target === slider) return; // the slider handles its own arrows
    event.preventDefault();
    show(moves[keys[event.key]]());
  });

  // The analysis's "Show move n on the board" buttons (replay-analysis.js may put new ones in: delegated).
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-show-step]");
    if (!button) return;
    show(Number(button.dataset.showStep));
    document.getElementById("replay").scrollIntoView({ block: "start" });
    slider.focus();
  });

  document.getElementById("replay").hidden = false;
  show(0);

  // --- the seed check -----------------------------------------------------------
  const check = document.getElementById("seed-check");
  const output = document.getElementById("seed-check-result");
  check.addEventListener("click", async () => {
    if (!window.crypto || !window.crypto.subtle) {
      output.textContent = words.check_unavailable;
      return;
    }
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(data.seed));
    const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
    const ok = hex === data.seed_sha256;
    output.textContent = (ok ? words.check_ok : words.check_bad) + " (" + hex + ")";
    output.className = ok ? "check-ok" : "check-bad";
  });
})();
