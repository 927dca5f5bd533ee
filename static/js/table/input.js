// Input on the hand: a tap (or Enter, Space) on a card, a drag up to the middle
// to play it or sideways to reorder, arrow keys to walk or move, number keys
// to pick, Escape to put a picked card back. It decides nothing about the
// game: it tells the handlers what the player did.
import { fitHand, nearestSlot } from "./hand.js";

const DRAG_START_PX = 10;

// handlers: onTap(card), onEnter(card), onDrop(card), onReorder(order), onNumber(index), onEscape(),
// onMoveCard(card, step) (arrows on the picked card), picked() -> the card picked or null,
// busy() -> true while a move is on its way, dragEnded() (redraw what waited for the drag).
export function attachInput(hand, center, handlers) {
  let drag = null;
  let suppressClick = false;

  const cardOf = (target) => target && target.closest && target.closest(".hand-card");
  const order = () => [...hand.querySelectorAll(".hand-card")].map((b) => b.dataset.card);

  hand.addEventListener("click", (event) => {
    const button = cardOf(event.target);
    if (!button) return;
    if (suppressClick) {
      suppressClick = false;
      return;
    }
    handlers.onTap(button.dataset.card);
  });

  hand.addEventListener("keydown", (event) => {
    const button = cardOf(event.target);
    if (button && event.key === "Enter") {
      event.preventDefault(); // no click follows: Enter plays a picked card whatever a tap would do
      handlers.onEnter(button.dataset.card);
      return;
    }
    if (!button || !["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    event.preventDefault();
    const cards = order();
    const from = cards.indexOf(button.dataset.card);
    const step = { ArrowLeft: -1, ArrowRight: 1, Home: -cards.length, End: cards.length }[event.key];
    if (button.dataset.card === handlers.picked()) {
      handlers.onMoveCard(button.dataset.card, step);
      return;
    }
    // Nothing picked: the arrows walk along the hand.
    const to = Math.max(0, Math.min(cards.length - 1, from + step));
    hand.querySelectorAll(".hand-card")[to].focus();
  });

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target.closest && target.closest("input, textarea, select, dialog[open]")) return;
    if (document.querySelector("dialog[open]")) return;
    if (event.key === "Escape" && handlers.picked()) {
      event.preventDefault();
      handlers.onEscape();
    } else if (/^[1-9]$/.test(event.key) && !hand.hidden) {
      event.preventDefault();
      handlers.onNumber(Number(event.key) - 1);
    }
  });

  hand.addEventListener("pointerdown", (event) => {
    const button = cardOf(event.target);
    if (!button || event.button > 0 || handlers.busy()) return;
    drag = { button, card: button.dataset.card, x: event.clientX, y: event.clientY, id: event.pointerId, moving: false };
    try {
      button.setPointerCapture(event.pointerId);
    } catch (error) {
      /* a synthetic pointer without capture still works through the document */
    }
  });

  function startDrag() {
    const rect = drag.button.getBoundingClientRect();
    drag.moving = true;
    drag.offsetX = drag.x - rect.left;
    drag.offsetY = drag.y - rect.top;
    const ghost = drag.button.cloneNode(true);
    ghost.className = "hand-card drag-ghost";
    ghost.removeAttribute("style");
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.width = `${rect.width}px`;
    ghost.style.height = `${rect.height}px`;
    ghost.style.setProperty("--card-w", `${rect.width}px`);
    ghost.style.setProperty("--card-h", `${rect.height}px`);
    document.body.appendChild(ghost);
    drag.ghost = ghost;
    drag.slots = fitHand(hand);
    drag.button.classList.add("is-dragged");
    center.classList.add("is-drop-ready");
  }

  function inPlayZone(x, y) {
    const middle = center.getBoundingClientRect();
    const own = hand.getBoundingClientRect();
    const inMiddle = x >= middle.left - 16 && x <= middle.right + 16 && y >= middle.top - 16 && y <= middle.bottom + 16;
    return inMiddle || y < own.top - 40;
  }

  function reorderAt(x, y) {
    const buttons = [...hand.querySelectorAll(".hand-card")];
    const from = buttons.indexOf(drag.button);
    const to = nearestSlot(hand, drag.slots, x, y);
    if (to === from) return;
    buttons.splice(from, 1);
    const before = buttons[to] || null;
    hand.insertBefore(drag.button, before);
    drag.slots = fitHand(hand);
  }

  document.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.moving) {
      if (Math.hypot(dx, dy) < DRAG_START_PX) return;
      startDrag();
    }
    event.preventDefault();
    drag.ghost.style.transform = `translate(${event.clientX - drag.offsetX}px, ${event.clientY - drag.offsetY}px) rotate(${Math.max(-8, Math.min(8, dx / 20))}deg)`;
    drag.toPlay = inPlayZone(event.clientX, event.clientY);
    center.classList.toggle("is-drop-target", drag.toPlay);
    if (!drag.toPlay) reorderAt(event.clientX, event.clientY);
  });

  function endDrag(event, cancelled) {
    if (!drag || event.pointerId !== drag.id) return;
    const { moving, toPlay, card, ghost, button } = drag;
    drag = null;
    if (!moving) return; // a tap: the click handler takes it
    suppressClick = true;
    setTimeout(() => (suppressClick = false), 0);
    ghost.remove();
    button.classList.remove("is-dragged");
    center.classList.remove("is-drop-target", "is-drop-ready");
    if (!cancelled && !toPlay) handlers.onReorder(order());
    handlers.dragEnded();
    if (!cancelled && toPlay) handlers.onDrop(card);
  }
  document.addEventListener("pointerup", (event) => endDrag(event, false));
  document.addEventListener("pointercancel", (event) => endDrag(event, true));

  return {
    get dragging() {
      return Boolean(drag && drag.moving);
    },
  };
}
