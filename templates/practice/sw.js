// The site's service worker (/sw.js, scope "/"). It serves practice's files
// from the one cache "Make practice available offline" fills
// (static/js/practice/offline.js), and the practice page when there is no
// network. It stores nothing itself: a signed-in page or an /api/ answer can
// never end up in a cache through it.
"use strict";

const CONFIG = {{ config }};
const CACHE = CONFIG.cache_prefix + CONFIG.version;
const SHELL = new URL(CONFIG.shell, self.location.origin).href;
// offline.js writes it last, once every file was checked: no marker, no offline practice.
const MARKER = new URL(CONFIG.marker, self.location.origin).href;
// Made per request (the catalogue in the page's language, the manifest): the
// network's answer while there is one, the kept copy without.
const NETWORK_FIRST = new Set(CONFIG.network_first.map((path) => new URL(path, self.location.origin).href));

// Nothing to fetch ahead: the download happens when someone asks for it.
self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    // A new release names a new cache: the old runtime and engine go.
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(CONFIG.cache_prefix) && name !== CACHE)
      .map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(request, url));
  } else if (NETWORK_FIRST.has(url.href)) {
    event.respondWith(networkFirst(request));
  } else if (url.pathname.startsWith(CONFIG.static_url)) {
    event.respondWith(keptFirst(request));
  }
  // Anything else (/api/, pages' data, websockets) goes to the network untouched.
});

async function kept(request) {
  if (!(await caches.has(CACHE))) return undefined;
  const cache = await caches.open(CACHE);
  return cache.match(request);
}

// Static names change with their content (or sit in a versioned folder), so a kept copy is the file.
async function keptFirst(request) {
  return (await kept(request)) || fetch(request);
}

async function networkFirst(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const copy = await kept(request);
    if (copy) return copy;
    throw error;
  }
}

// Pages always come from the network and are never stored. Without a network,
// a device that made practice available offline gets the practice page, which
// was fetched without cookies (an anonymous page); any other page sends it there.
async function navigate(request, url) {
  try {
    return await fetch(request);
  } catch (error) {
    if (!(await caches.has(CACHE))) throw error;
    const cache = await caches.open(CACHE);
    if (!(await cache.match(MARKER))) throw error;
    if (url.origin + url.pathname !== SHELL) return Response.redirect(SHELL, 303);
    const shell = await cache.match(SHELL);
    if (!shell) throw error;
    return shell;
  }
}

// Web push (notify/push.py sends {title, body, url, tag}). One notification per
// tag (a table): a newer one replaces the older rather than piling up.
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (error) {
    message = {};
  }
  const target = new URL(message.url || "/", self.location.origin);
  const url = target.origin === self.location.origin ? target.href : new URL("/", self.location.origin).href;
  const options = { body: message.body || "", data: { url }, icon: CONFIG.static_url + "icons/icon-192.png" };
  if (message.tag) Object.assign(options, { tag: message.tag, renotify: true });
  event.waitUntil(self.registration.showNotification(message.title || "Șeptică", options));
});

// Tapped: the table's tab if one is open, else a new one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || new URL("/", self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((client) => client.url === url);
    if (open) return open.focus();
    return self.clients.openWindow(url);
  })());
});
