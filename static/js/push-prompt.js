// The table page's one-time offer of notifications: the first time someone's move
// leaves the table waiting for others (the tab loses its "● " mark), and only if
// this browser could take them and was never asked. It watches the page's title
// and touches nothing of the table's own script.
import { state, supported, turnOn } from "./push.js";

const ASKED = "septica-push-offered";

function offered() {
  try {
    return localStorage.getItem(ASKED) === "1";
  } catch (error) {
    return true;
  }
}

function remember() {
  try {
    localStorage.setItem(ASKED, "1");
  } catch (error) { /* private mode: asked again next time */ }
}

function offer() {
  remember();
  const box = document.createElement("aside");
  box.className = "push-prompt";
  // Its own look (the table page loads no stylesheet of notify's), among the messages that float
  // over the felt: put into the page, it pushed the table down under a player's finger in mid-move,
  // and over the top of the screen it covered the table's tools.
  Object.assign(box.style, { display: "flex", flexWrap: "wrap", gap: "0.5rem", alignItems: "center",
    padding: "0.5rem 0.75rem", background: "var(--paper, #fff)", color: "var(--ink, #1b1f23)",
    border: "1px solid var(--line)", borderRadius: "var(--radius)" });
  box.setAttribute("aria-label", gettext("Notifications"));
  const text = document.createElement("p");
  text.style.margin = "0";
  text.textContent = gettext("Waiting for the others. Get a notification on this device when it is your move?");
  const yes = document.createElement("button");
  yes.type = "button";
  yes.className = "primary";
  yes.textContent = gettext("Turn on notifications");
  const no = document.createElement("button");
  no.type = "button";
  no.textContent = gettext("Not now");
  no.addEventListener("click", () => box.remove());
  yes.addEventListener("click", async () => {
    yes.disabled = true;
    try {
      const now = await turnOn();
      text.textContent = now === "on" ? gettext("Notifications are on for this device.")
        : gettext("This browser did not allow notifications.");
    } catch (error) {
      text.textContent = gettext("Notifications could not be turned on.");
    }
    yes.remove();
    no.textContent = gettext("Close");
  });
  box.append(text, yes, no);
  (document.querySelector(".felt-messages") || document.querySelector("main") || document.body).append(box);
}

async function watch() {
  if (!supported() || offered() || Notification.permission !== "default" || (await state()) !== "off") return;
  let mine = document.title.startsWith("● ");
  const seen = new MutationObserver(() => {
    const now = document.title.startsWith("● ");
    if (mine && !now) {
      seen.disconnect();
      offer();
    }
    mine = now;
  });
  seen.observe(document.querySelector("title"), { childList: true, characterData: true, subtree: true });
}

watch();
