// The profile's "Notifications on this device" switch: its words come with the page.
import { state, turnOff, turnOn } from "./push.js";

const section = document.querySelector("[data-push-device]");
if (section) {
  const button = section.querySelector("button");
  const says = (name) => section.querySelectorAll("[data-state]").forEach((line) => { line.hidden = line.dataset.state !== name; });

  const show = (name) => {
    says(name);
    button.hidden = name === "unsupported" || name === "blocked";
    button.textContent = name === "on" ? button.dataset.off : button.dataset.on;
    button.setAttribute("aria-pressed", String(name === "on"));
  };

  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      show(await (button.getAttribute("aria-pressed") === "true" ? turnOff() : turnOn()));
    } catch (error) {
      says("failed");
    } finally {
      button.disabled = false;
    }
  });
  state().then(show);
}
