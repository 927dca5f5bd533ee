// On every page: the service worker (so an installed app and practice work
// offline) and the menu's "Install the app", shown only once the browser
// offers to install the site.
(() => {
  "use strict";
  const script = document.currentScript;
  const worker = script && script.dataset.serviceWorker;
  if (worker && "serviceWorker" in navigator && window.isSecureContext) {
    // After the page has loaded, so the worker's start never delays the page.
    const register = () => navigator.serviceWorker.register(worker, { scope: "/" }).catch(() => {});
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register, { once: true });
  }

  const button = document.getElementById("install-app");
  if (!button) return;
  const item = button.closest("li") || button;
  let offer = null;
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault(); // the menu's button asks instead of the browser's own bar
    offer = event;
    item.hidden = false;
  });
  button.addEventListener("click", async () => {
    if (!offer) return;
    const asked = offer;
    offer = null;
    item.hidden = true;
    await asked.prompt();
  });
  window.addEventListener("appinstalled", () => {
    offer = null;
    item.hidden = true;
  });
})();
