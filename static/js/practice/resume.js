// The home page's "Resume practice": shown while a practice match saved on
// this device is unfinished (store.js reads it without starting the engine).
import { savedPractice } from "./store.js";

const link = document.getElementById("resume-practice");

async function showResume() {
  if (!link || !window.indexedDB) return;
  let saved = null;
  try {
    saved = await savedPractice();
  } catch (error) {
    return; // storage refused (private mode): nothing to resume
  }
  if (!saved || saved.finished) return;
  const name = link.dataset[`name${saved.rules.charAt(0).toUpperCase()}${saved.rules.slice(1)}`];
  document.getElementById("resume-practice-game").textContent = name ? `· ${name}` : "";
  document.getElementById("resume-practice-box").hidden = false;
  const other = document.getElementById("practice-link");
  if (other) other.classList.remove("primary");
}

showResume();
