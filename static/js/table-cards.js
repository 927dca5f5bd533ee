// The site's own card pictures: inline SVG inside a styled box (static/css/cards.css).
// The table page, the tutorial and the rules pages all draw cards with these
// functions; templates/games/_table_card.html draws the same markup on the server.
// Suits and the joker's star are paths, not font glyphs, so a card looks the
// same on a machine with no symbol or emoji font.
(function () {
  "use strict";
  const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

  // Each shape fills a 100 × 100 box; the card's own box is 70 × 100.
  const SUIT_PATHS = {
    C: "M50 6a21 21 0 1 1-.1 0ZM27 40a21 21 0 1 1-.1 0ZM73 40a21 21 0 1 1-.1 0ZM46 58C46 78 40 90 30 98H70C60 90 54 78 54 58Z",
    D: "M50 2L88 50L50 98L12 50Z",
    H: "M50 94C42 84 4 60 4 31C4 14 16 4 30 4C40 4 47 10 50 19C53 10 60 4 70 4C84 4 96 14 96 31C96 60 58 84 50 94Z",
    S: "M50 3C40 20 5 38 5 62C5 77 16 86 29 86C37 86 43 82 47 76C46 86 42 92 32 98H68C58 92 54 86 53 76C57 82 63 86 71 86C84 86 95 77 95 62C95 38 60 20 50 3Z",
  };
  const STAR_PATH = "M50 4L61.2 36.6L95.7 37.2L68.1 57.9L78.2 90.8L50 71L21.8 90.8L31.9 57.9L4.3 37.2L38.8 36.6Z";
  const FONT = "Georgia, 'DejaVu Serif', 'Times New Roman', serif";
  const SVG_OPEN = '<svg class="card__face" viewBox="0 0 70 100" aria-hidden="true" focusable="false" xmlns="http://www.w3.org/2000/svg">';

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

  // A short label for sentences: "K♥", "10♣", "★" (a star: the joker emoji is a blank box without an emoji font).
  function cardShort(code) {
    if (code[0] === "X") return code[1] === "R" ? "★(R)" : "★";
    return rankLabel(code) + SUITS[code[1]];
  }

  function shape(path, x, y, size, part) {
    return `<path class="card__${part}" transform="translate(${x} ${y}) scale(${size / 100})" d="${path}"/>`;
  }

  function rankText(label, x, y, size) {
    // Two digits in a corner meant for one: drawn a little tighter.
    const tight = label.length > 1 ? ` letter-spacing="${-Math.round(size / 11)}"` : "";
    return `<text class="card__index" x="${x}" y="${y}" text-anchor="middle" font-family="${FONT}" font-size="${size}" font-weight="700"${tight}>${label}</text>`;
  }

  // A full card: rank and suit in the corner (what stays visible when cards
  // overlap), a big pip below; a mini card (card--mini) is rank over suit, large.
  function faceSVG(code, mini) {
    const joker = code[0] === "X";
    const pip = joker ? STAR_PATH : SUIT_PATHS[code[1]];
    if (mini) {
      if (joker) return SVG_OPEN + shape(pip, 5, 20, 60, "symbol") + "</svg>";
      return SVG_OPEN + rankText(rankLabel(code), 35, 50, 48) + shape(pip, 20, 58, 30, "symbol") + "</svg>";
    }
    if (joker) {
      const letters = ["J", "O", "K", "E", "R"].map((letter, i) =>
        `<tspan x="12" y="${34 + i * 11}">${letter}</tspan>`).join("");
      return SVG_OPEN + shape(pip, 3, 5, 18, "index-suit") +
        `<text class="card__index" text-anchor="middle" font-family="${FONT}" font-size="11" font-weight="700">${letters}</text>` +
        shape(pip, 22, 40, 46, "symbol") + "</svg>";
    }
    return SVG_OPEN + rankText(rankLabel(code), 12, 23, 22) + shape(pip, 5, 27, 14, "index-suit") +
      shape(pip, 29, 50, 36, "symbol") + "</svg>";
  }

  function backSVG() {
    return SVG_OPEN + '<rect class="card__frame" x="5" y="5" width="60" height="90" rx="5" fill="none" stroke="#fff" stroke-width="2.5"/>' +
      shape("M50 10L80 50L50 90L20 50Z", 20, 35, 30, "emblem") + "</svg>";
  }

  function cardHTML(code, options) {
    const opts = options || {};
    const joker = code[0] === "X";
    const classes = ["card"];
    if (isRed(code)) classes.push("card--red");
    if (joker) classes.push("card--joker");
    if (opts.extra) classes.push(opts.extra);
    const mini = classes.join(" ").split(" ").includes("card--mini");
    const name = escapeHTML(cardName(code, opts.text));
    const role = opts.decorative ? 'aria-hidden="true"' : `role="img" aria-label="${name}"`;
    return `<span class="${classes.join(" ")}" data-card="${escapeHTML(code)}" ${role}>${faceSVG(code, mini)}</span>`;
  }

  function cardBackHTML(extra) {
    return `<span class="card card--back${extra ? " " + extra : ""}" aria-hidden="true">${backSVG()}</span>`;
  }

  window.SepticaCards = { SUITS, SUIT_PATHS, cardHTML, cardBackHTML, cardName, cardShort, escapeHTML };
})();
