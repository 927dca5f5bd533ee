// Loaded in the <head> of every page, before the body is drawn: what must work
// from the first paint, before the scripts at the end of the page have loaded.
// (Inline scripts and handlers would be blocked by the Content-Security-Policy.)
(() => {
  "use strict";
  document.documentElement.classList.replace("no-js", "js");

  // The phone menu button.
  document.addEventListener("click", (event) => {
    const toggle = event.target.closest(".nav-toggle");
    if (!toggle) return;
    const links = document.getElementById(toggle.getAttribute("aria-controls"));
    const open = links.classList.toggle("open");
    toggle.setAttribute("aria-expanded", String(open));
  });

  // A menu that takes effect as soon as it is changed (the language menu);
  // without scripts its form has a button instead.
  document.addEventListener("change", (event) => {
    const select = event.target.closest("select[data-submit-on-change]");
    if (select && select.form) select.form.submit();
  });
})();
