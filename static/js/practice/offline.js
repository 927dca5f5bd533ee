// Practice without a network: what the browser lacks for it, the service
// worker, and the download into the one cache the worker serves practice from.
//
//   missingFeatures()                      -> ["webassembly" | "service-worker" | "indexeddb" | "worker", ...]
//   registerServiceWorker()                -> Promise<ServiceWorkerRegistration | null>
//   isAvailableOffline(offline)            -> Promise<boolean>
//   makeAvailableOffline(offline, onProgress(doneBytes, totalBytes)) -> Promise<void>,
//       rejects with an Error whose .code is "network", "integrity" or "quota"
//
// `offline` is practice.assets.offline_assets(): {version, shell, files: [{url, bytes, sha256}], total_bytes}.

const SERVICE_WORKER = "/sw.js";
// The same names as practice/pwa.py gives the service worker.
const CACHE_PREFIX = "septica-practice-";
const MARKER = "offline-complete";
const TRIES = 3; // a file that arrives cut short or changed is fetched twice more
const AT_ONCE = 4;
// Stored copies keep what the page needs (its type, the page's policy) and
// drop what described the transfer. Vary would make the cache compare request
// headers the stored copy was never asked with, and miss.
const DROPPED_HEADERS = ["content-encoding", "content-length", "transfer-encoding", "vary", "set-cookie"];

export function missingFeatures() {
  const missing = [];
  if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") missing.push("webassembly");
  // Service workers, the Cache API and crypto.subtle come together, in secure contexts only.
  if (!window.isSecureContext || !("serviceWorker" in navigator) || typeof caches === "undefined"
      || !(window.crypto && crypto.subtle)) {
    missing.push("service-worker");
  }
  let indexedDb = false;
  try {
    indexedDb = typeof indexedDB === "object" && indexedDB !== null;
  } catch {
    // Some private modes throw on merely reading it.
  }
  if (!indexedDb) missing.push("indexeddb");
  if (typeof Worker !== "function") missing.push("worker");
  return missing;
}

export async function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return null;
  try {
    await navigator.serviceWorker.register(SERVICE_WORKER, { scope: "/" });
    const registration = await navigator.serviceWorker.ready;
    await controlled(3000);
    return registration;
  } catch {
    return null;
  }
}

// The worker claims open pages as it activates; a page loaded with the cache
// bypassed (shift-reload) stays uncontrolled until the next load, so the wait is bounded.
function controlled(limitMs) {
  if (navigator.serviceWorker.controller) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), limitMs);
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      clearTimeout(timer);
      resolve(true);
    }, { once: true });
  });
}

export function cacheName(offline) {
  return CACHE_PREFIX + offline.version;
}

function absolute(url) {
  return new URL(url, window.location.origin).href;
}

function markerUrl(offline) {
  return absolute(offline.shell + MARKER);
}

export async function isAvailableOffline(offline) {
  if (typeof caches === "undefined") return false;
  try {
    if (!(await caches.has(cacheName(offline)))) return false;
    const cache = await caches.open(cacheName(offline));
    return Boolean(await cache.match(markerUrl(offline)));
  } catch {
    return false;
  }
}

class OfflineError extends Error {
  constructor(code, message, url) {
    super(message);
    this.name = "OfflineError";
    this.code = code;
    this.url = url;
  }
}

function storageError(error, url) {
  if (error instanceof OfflineError) return error;
  if (error && (error.name === "QuotaExceededError" || error.code === 22)) {
    return new OfflineError("quota", "the device has no room left for practice's files", url);
  }
  return new OfflineError("network", String(error && error.message || error), url);
}

export async function makeAvailableOffline(offline, onProgress = () => {}) {
  let cache;
  try {
    cache = await caches.open(cacheName(offline));
  } catch (error) {
    throw storageError(error);
  }
  const total = offline.total_bytes;
  let done = 0;
  const partial = new Map();
  const report = () => {
    let sum = done;
    for (const bytes of partial.values()) sum += bytes;
    onProgress(Math.min(sum, total), total);
  };
  report();

  const queue = [...offline.files];
  let failure = null;
  async function next() {
    while (queue.length && !failure) {
      const file = queue.shift();
      try {
        await keep(cache, file, (bytes) => {
          partial.set(file.url, Math.min(bytes, file.bytes ?? 0));
          report();
        });
        partial.delete(file.url);
        done += file.bytes ?? 0;
        report();
      } catch (error) {
        partial.delete(file.url);
        failure = failure || error;
      }
    }
  }
  await Promise.all(Array.from({ length: AT_ONCE }, next));
  if (failure) throw failure;

  await keep(cache, { url: offline.shell, bytes: null, sha256: null }, () => {}, { anonymous: true });
  try {
    const record = { version: offline.version, files: offline.files.length, total_bytes: total,
                     at: new Date().toISOString() };
    await cache.put(markerUrl(offline), new Response(JSON.stringify(record),
                                                     { headers: { "Content-Type": "application/json" } }));
  } catch (error) {
    throw storageError(error);
  }
  onProgress(total, total);
}

// Files with a known hash that are already kept were checked before they were
// put, so a download cut off half-way picks up where it stopped. Answers made
// per request (no hash) are fetched again each time.
async function keep(cache, file, onBytes, { anonymous = false } = {}) {
  const url = absolute(file.url);
  if (file.sha256 && (await cache.match(url))) {
    onBytes(file.bytes);
    return;
  }
  let lastError = null;
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const response = await fetchOnce(url, file, attempt, anonymous).catch((error) => {
      lastError = error;
      return null;
    });
    if (!response) continue;
    let body;
    try {
      body = await readBody(response, onBytes);
    } catch (error) {
      lastError = new OfflineError("network", String(error && error.message || error), url);
      continue;
    }
    const problem = await checked(body, file);
    if (problem) {
      lastError = new OfflineError("integrity", `${file.url}: ${problem}`, url);
      onBytes(0);
      continue;
    }
    try {
      await cache.put(url, stored(response, body));
    } catch (error) {
      throw storageError(error, url);
    }
    return;
  }
  throw lastError;
}

async function fetchOnce(url, file, attempt, anonymous) {
  const made = !file.sha256; // made per request: the catalogue, the manifest, the shell
  const options = {
    // A retry asks the site itself, past any copy the browser's own cache holds.
    cache: made ? "no-store" : (attempt === 0 ? "default" : "reload"),
    redirect: "error",
  };
  if (made) {
    // Without cookies the site answers as to someone not signed in: the kept
    // practice page must never be a signed-in person's. Only the page's
    // language is passed on, so the page and its words agree.
    options.credentials = "omit";
    options.headers = { "Accept-Language": document.documentElement.lang || "en" };
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (error) {
    throw new OfflineError("network", String(error && error.message || error), url);
  }
  if (!response.ok) throw new OfflineError("network", `${file.url}: HTTP ${response.status}`, url);
  return response;
}

async function readBody(response, onBytes) {
  if (!response.body || typeof response.body.getReader !== "function") {
    const buffer = await response.arrayBuffer();
    onBytes(buffer.byteLength);
    return new Uint8Array(buffer);
  }
  const reader = response.body.getReader();
  const chunks = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
    onBytes(length);
  }
  const body = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

async function checked(body, file) {
  if (file.bytes !== null && file.bytes !== undefined && body.byteLength !== file.bytes) {
    return `${body.byteLength} bytes where ${file.bytes} were expected`;
  }
  if (file.sha256) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
    const hex = Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
    if (hex !== file.sha256) return "its SHA-256 does not match";
  }
  return null;
}

function stored(response, body) {
  const headers = new Headers(response.headers);
  for (const name of DROPPED_HEADERS) headers.delete(name);
  headers.set("Content-Length", String(body.byteLength));
  return new Response(body, { status: 200, statusText: "OK", headers });
}
