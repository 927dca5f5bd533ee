// The replay page's analysis while the Master is still judging (or it waits its turn): wait for the table socket's
// analysis_ready (the API polled instead while the socket is down, and once in a while anyway),
// then take the finished section and the marked move list from the page itself, as the server words them.
(() => {
  "use strict";
  const section = document.getElementById("analysis");
  const UNDER_WAY = ["waiting", "pending"]; // waiting: queued behind its person's other analyses
  if (!section || !UNDER_WAY.includes(section.dataset.status)) return;
  const announce = document.getElementById("analysis-announce");
  const CHECK_EVERY = Number(section.dataset.checkEvery) || 30000;
  let done = false;
  let live = null;
  let checker = null;

  async function fillIn() {
    if (done) return;
    let page;
    try {
      const response = await fetch(location.href, { headers: { Accept: "text/html" }, credentials: "same-origin" });
      if (!response.ok) return;
      page = new DOMParser().parseFromString(await response.text(), "text/html");
    } catch (error) {
      return; // offline: the next check tries again
    }
    const fresh = page.getElementById("analysis");
    if (done || !fresh || UNDER_WAY.includes(fresh.dataset.status)) return;
    done = true;
    clearInterval(checker);
    if (live) live.close();
    document.getElementById("analysis").replaceWith(document.importNode(fresh, true));
    const list = page.getElementById("move-list");
    const mine = document.getElementById("move-list");
    if (list && mine) mine.replaceWith(document.importNode(list, true));
    if (announce) announce.textContent = section.dataset.readyWords;
  }

  async function check() {
    try {
      const response = await fetch(section.dataset.api, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.ok && (await response.json()).status === "ready") fillIn();
    } catch (error) {
      /* offline: the next check tries again */
    }
  }

  checker = setInterval(check, CHECK_EVERY);
  if (!window.LiveSocket) return;
  live = window.LiveSocket(section.dataset.socket, {
    onMessage(message) {
      if (message.type === "analysis_ready" || (message.type === "analysis" && message.status === "ready")) fillIn();
    },
    onOpen: check, // it may have been ready between the page and the socket
    poll: { url: section.dataset.api, type: "analysis", every: 5000 },
  });
})();
