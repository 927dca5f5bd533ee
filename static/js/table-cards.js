// The site's own card pictures, drawn with HTML and CSS (static/css/table.css).
// The table page, its replay and the rules pages all draw cards with these
// functions; templates/games/_table_card.html draws the same markup on the server.
(function () {
  "use strict";
  const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

  function escapeHTML(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }

  function rankLabel(code) {
    if (code[0] === "X") return "★";
    return code[0] === "T" ? "10" : code[0];
  }

  function isRed(code) {
    return code[0] === "X" ? code[1] === "R" : code[1] === "D" || code[1] === "H";
  }

  // A readable name: "king of hearts"; text holds the translated words.
  function cardName(code, text) {
    if (!text) return code;
    if (code[0] === "X") return code[1] === "R" ? text.red_joker : text.black_joker;
    const rank = text.rank_names[code[0]];
    const suit = text.suit_names[code[1]];
    return text.card_name.replace("%(rank)s", rank).replace("%(suit)s", suit);
  }

  // A short label for sentences: "K♥", "10♣", "🃏".
  function cardShort(code) {
    if (code[0] === "X") return code[1] === "R" ? "🃏(R)" : "🃏";
    return rankLabel(code) + SUITS[code[1]];
  }

  function cardHTML(code, options) {
    const opts = options || {};
    const joker = code[0] === "X";
    const classes = ["card"];
    if (isRed(code)) classes.push("card--red");
    if (joker) classes.push("card--joker");
    if (opts.extra) classes.push(opts.extra);
    const suit = joker ? "" : SUITS[code[1]];
    const name = escapeHTML(cardName(code, opts.text));
    const role = opts.decorative ? 'aria-hidden="true"' : `role="img" aria-label="${name}"`;
    return (
      `<span class="${classes.join(" ")}" data-card="${escapeHTML(code)}" ${role}>` +
      `<span class="card__corner" aria-hidden="true"><span class="card__rank">${rankLabel(code)}</span>` +
      `<span class="card__suit">${suit}</span></span>` +
      `<span class="card__pip" aria-hidden="true">${joker ? "🃏" : suit}</span></span>`
    );
  }

  function cardBackHTML(extra) {
    return `<span class="card card--back${extra ? " " + extra : ""}" aria-hidden="true"></span>`;
  }

  window.SepticaCards = { SUITS, cardHTML, cardBackHTML, cardName, cardShort, escapeHTML };
})();
