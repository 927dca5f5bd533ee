// Laying out the hand: the order the player keeps (per table, in this browser),
// and where each card sits. Cards overlap, and wrap to more rows when the
// overlap would leave less than MIN_STRIP px of a card to tap; they shrink
// a little before the hand grows taller than a share of the screen.

const MIN_STRIP = 32; // px of each covered card left visible: a fingertip, with room to spare over 28
const GAP = 6; // px between cards that do not need to overlap
const ROW_OVERLAP = 0.45; // a row covers this share of the row above it
const SCALES = [1, 0.9, 0.8, 0.7];

export function createHandOrder(tableId) {
  const key = `septica.hand.${tableId}`;
  function saved() {
    try {
      const order = JSON.parse(localStorage.getItem(key) || "[]");
      return Array.isArray(order) ? order : [];
    } catch (error) {
      return [];
    }
  }
  return {
    of(hand) {
      const kept = saved().filter((card) => hand.includes(card));
      return kept.concat(hand.filter((card) => !kept.includes(card)));
    },
    save(order) {
      try {
        localStorage.setItem(key, JSON.stringify(order));
      } catch (error) {
        /* private mode: the order lasts until the page is left */
      }
    },
  };
}

function cssPixels(element, name, fallback) {
  const value = parseFloat(getComputedStyle(element).getPropertyValue(name));
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

// Rows and steps for n cards of cardW × cardH in width px.
function arrangement(n, width, cardW, cardH) {
  const perRowMax = width <= cardW ? 1 : Math.floor((width - cardW) / MIN_STRIP) + 1;
  const rows = Math.max(1, Math.ceil(n / perRowMax));
  const perRow = Math.ceil(n / rows);
  const step = perRow > 1 ? Math.min(cardW + GAP, (width - cardW) / (perRow - 1)) : 0;
  const rowStep = Math.max(MIN_STRIP, cardH * (1 - ROW_OVERLAP));
  return { rows, perRow, step, rowStep, cardW, cardH, height: cardH + (rows - 1) * rowStep };
}

// The hand's box is a block whose cards are positioned absolutely, so its
// width is what the screen gives it, never what the cards would take.
export function fitHand(hand) {
  const cards = [...hand.querySelectorAll(".hand-card")];
  hand.classList.add("hand--fitted");
  if (!cards.length) {
    hand.style.height = "";
    return [];
  }
  const width = hand.clientWidth;
  const baseW = cssPixels(hand.parentElement, "--card-w", 62);
  const baseH = cssPixels(hand.parentElement, "--card-h", 90);
  const tallest = Math.max(baseH * 1.6, window.innerHeight * 0.32);
  let best = null;
  for (const scale of SCALES) {
    best = arrangement(cards.length, width, Math.round(baseW * scale), Math.round(baseH * scale));
    if (best.height <= tallest) break;
  }
  // A picked card rises out of the hand's box, over what is above it: no room is kept empty for it.
  const lift = Math.round(best.cardH * 0.3);
  const top = 6;
  hand.style.setProperty("--card-w", `${best.cardW}px`);
  hand.style.setProperty("--card-h", `${best.cardH}px`);
  hand.style.setProperty("--lift", `${lift}px`);
  hand.style.height = `${Math.ceil(best.height + top)}px`;
  const slots = cards.map((card, index) => {
    const row = Math.floor(index / best.perRow);
    const inRow = Math.min(best.perRow, cards.length - row * best.perRow);
    const left = (width - (best.cardW + (inRow - 1) * best.step)) / 2 + (index - row * best.perRow) * best.step;
    const y = top + row * best.rowStep;
    card.style.left = `${Math.round(left)}px`;
    card.style.top = `${Math.round(y)}px`;
    card.style.zIndex = String(index + 1);
    return { x: left + best.cardW / 2, y: y + best.cardH / 2 };
  });
  hand.dataset.rows = String(best.rows);
  return slots;
}

// The place in the hand nearest to (x, y), in page coordinates.
export function nearestSlot(hand, slots, x, y) {
  const box = hand.getBoundingClientRect();
  let best = 0;
  let bestDistance = Infinity;
  slots.forEach((slot, index) => {
    const distance = Math.hypot(box.left + slot.x - x, (box.top + slot.y - y) * 1.5);
    if (distance < bestDistance) {
      best = index;
      bestDistance = distance;
    }
  });
  return best;
}
