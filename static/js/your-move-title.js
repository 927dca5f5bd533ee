// "● " before the tab's title on every page but a table's (which marks its own
// table) while it is the person's move somewhere: the count comes from site.js's
// /ws/me/ messages ("septica:me"), so a tab left on My matches or the lobby tells them too.
(() => {
  "use strict";
  if (document.getElementById("table-data")) return;
  const MARK = "● ";
  const plain = document.title.startsWith(MARK) ? document.title.slice(MARK.length) : document.title;
  document.addEventListener("septica:me", (event) => {
    document.title = Number(event.detail.your_move) > 0 ? MARK + plain : plain;
  });
})();
