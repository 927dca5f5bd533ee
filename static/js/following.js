// Following: who is at a table and their open tables change with nobody
// pushing the news to a follower, so the page reads itself again every few
// seconds while it is in view (and at once when it comes back into view).
// Only the list is replaced, and only when it differs, so a reader's place
// and a keyboard user's focus stay where they were.
(function () {
  "use strict";

  const root = document.getElementById("following-people");
  if (!root || !window.fetch || !window.DOMParser) return;
  const every = Number(root.dataset.refreshMs) || 15000;

  // The focused control, by what it belongs to: a person's card or table and its role.
  function focusKey() {
    const active = document.activeElement;
    if (!active || !root.contains(active)) return null;
    const holder = active.closest("[data-table], [data-person]");
    if (!holder) return null;
    const attribute = holder.dataset.table ? "data-table" : "data-person";
    return `[${attribute}="${CSS.escape(holder.getAttribute(attribute))}"] ${active.tagName.toLowerCase()}`;
  }

  // A form's CSRF token is masked anew on every rendering: it is no change to the list.
  function comparable(node) {
    const copy = node.cloneNode(true);
    for (const input of copy.querySelectorAll('input[name="csrfmiddlewaretoken"]')) input.removeAttribute("value");
    return copy.innerHTML;
  }

  async function refresh() {
    try {
      const response = await fetch(location.pathname, { headers: { Accept: "text/html" }, credentials: "same-origin" });
      if (!response.ok || response.redirected) return; // logged out meanwhile: leave the page as it is
      const fresh = new DOMParser().parseFromString(await response.text(), "text/html").getElementById("following-people");
      if (!fresh || comparable(fresh) === comparable(root)) return;
      const key = focusKey();
      root.replaceChildren(...fresh.childNodes);
      const again = key && root.querySelector(key);
      if (again) again.focus();
    } catch (error) {
      // Offline for a moment: keep showing the last list and try again next time.
    }
  }

  setInterval(() => { if (!document.hidden) refresh(); }, every);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
})();
