// Web push on this device: whether it can take notifications, and subscribing or
// unsubscribing it (POST / DELETE /api/push/subscriptions, documented at /api/docs/).
// The site's service worker (/sw.js, registered by pwa.js) shows what arrives.

export function supported() {
  return window.isSecureContext && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

function keyBytes(base64url) {
  const base64 = (base64url + "=".repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
}

async function registration() {
  if (!(await navigator.serviceWorker.getRegistration("/"))) {
    await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  }
  return navigator.serviceWorker.ready;
}

async function send(method, body) {
  const answer = await fetch("/api/push/subscriptions", {
    method, credentials: "same-origin", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
  });
  if (!answer.ok) throw new Error((await answer.json()).error);
}

// "on" (this device takes them), "off", "blocked" (the browser was told no) or "unsupported".
export async function state() {
  if (!supported()) return "unsupported";
  if (Notification.permission === "denied") return "blocked";
  const found = await navigator.serviceWorker.getRegistration("/");
  const subscription = found && (await found.pushManager.getSubscription());
  return subscription && Notification.permission === "granted" ? "on" : "off";
}

export async function turnOn() {
  if ((await Notification.requestPermission()) !== "granted") return state();
  const worker = await registration();
  const key = (await (await fetch("/api/push/key", { credentials: "same-origin" })).json()).public_key;
  let subscription = await worker.pushManager.getSubscription();
  if (!subscription) {
    subscription = await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  }
  await send("POST", subscription.toJSON());
  return "on";
}

export async function turnOff() {
  const found = await navigator.serviceWorker.getRegistration("/");
  const subscription = found && (await found.pushManager.getSubscription());
  if (subscription) {
    await send("DELETE", { endpoint: subscription.endpoint });
    await subscription.unsubscribe();
  }
  return state();
}
