// Site-wide behaviour for people logged in: the live "your move" badge on the
// My matches link. (The phone menu button and the language menu are
// handled by site-head.js, loaded in the head.)

// /ws/me/ says, whenever a table of mine changes, at how many tables it is my
// move. Other scripts (My matches) listen for the same messages:
//   document.addEventListener("septica:me", (event) => event.detail)
// and window.septicaMe.online tells them whether to poll instead.
(() => {
  "use strict";
  const badge = document.getElementById("your-move");
  if (!badge || !window.LiveSocket || !window.WebSocket) return;
  const news = document.getElementById("your-move-news");
  const toggle = document.querySelector(".nav-toggle");
  let shown = null;

  function showYourMove(count) {
    // ngettext and interpolate come from the JavaScript catalog (/jsi18n/), loaded before this script.
    const words = interpolate(ngettext("Your move at %(n)s table", "Your move at %(n)s tables", count), { n: count }, true);
    badge.replaceChildren();
    if (count) {
      const number = document.createElement("span");
      number.setAttribute("aria-hidden", "true");
      number.textContent = String(count);
      const said = document.createElement("span");
      said.className = "visually-hidden";
      said.textContent = `: ${words}`;
      badge.append(number, said);
    }
    badge.hidden = !count;
    if (toggle) toggle.classList.toggle("has-your-move", count > 0);
    // Said once when it goes up, not on every page load.
    if (news && shown !== null && count > shown) news.textContent = words;
    shown = count;
  }

  const me = { last: null };
  const live = window.LiveSocket("/ws/me/", {
    poll: { url: "/api/me/matches", type: "my_matches" }, // while the socket is down (Redis unreachable, say)
    onMessage(message) {
      if (message.type !== "my_matches") return;
      me.last = message;
      showYourMove(Number(message.your_move) || 0);
      document.dispatchEvent(new CustomEvent("septica:me", { detail: message }));
    },
  });
  Object.defineProperty(me, "online", { get: () => live.online });
  window.septicaMe = me;
})();
