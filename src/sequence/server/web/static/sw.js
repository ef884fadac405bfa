/* The service worker (issue 18): the page's static files from a cache when the network fails,
   so a flaky connection does not blank the page. Game state never comes from here: the
   WebSocket and the table API go to the server only. Every request is tried on the network
   first (a new version of the page arrives at once); the cache answers only when that fails. */
"use strict"; // i18n: ignore (a directive)

const CACHE = "sequence-v4"; // i18n: ignore (a cache name)
const SHELL = ["/", "/static/style.css", "/static/tap.js", "/static/glance.js", "/static/talk.js", "/static/coach.js", "/static/passplay.js", "/static/ratings.js", "/static/keys.js",
  "/static/pwa.js", "/static/account.js", "/static/social.js", "/static/app.js", "/static/favicon.svg", "/static/favicon-turn.svg",
  "/static/icon-192.png", "/static/icon-512.png", "/manifest.webmanifest"]; // i18n: ignore (paths)

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

/* What may come from the cache: the page, its files, and the create form's facts and strings. */
function cacheable(url) {
  return url.pathname.startsWith("/static/") || url.pathname === "/manifest.webmanifest"
    || url.pathname === "/api/meta" || url.pathname.startsWith("/api/i18n/"); // i18n: ignore (paths)
}

/* Tell the pages whether the server answered: they show the offline notice. */
async function tell(offline) {
  for (const c of await self.clients.matchAll({ includeUncontrolled: true })) c.postMessage({ offline });
}

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  if (req.mode === "navigate") { // every page is index.html: /, /t/CODE, /replay/CODE, /rules/GAME
    event.respondWith(fetch(req).catch(() => { tell(true); return caches.match("/"); }));
    return;
  }
  if (!cacheable(url)) return;
  // "no-cache": the browser's HTTP cache may answer only once the server has confirmed it, so
  // an answer here means the server is there (a file from the HTTP cache alone would say so
  // while it is gone, and hide the offline notice).
  event.respondWith(fetch(req, { cache: "no-cache" }).then((res) => {
    if (res.ok) { const copy = res.clone(); caches.open(CACHE).then((c) => c.put(req, copy)); }
    tell(false);
    return res;
  }).catch(() => { tell(true); return caches.match(req).then((hit) => hit || Response.error()); }));
});

// Web Push (docs/server.md, "Notifications away from the page"): the server's message is
// {title, body, url}, already in the player's language; a click opens (or focuses) its page.
self.addEventListener("push", (event) => {
  let msg = {};
  try { msg = event.data ? event.data.json() : {}; } catch (e) { msg = {}; }
  const title = typeof msg.title === "string" ? msg.title : "Sequence";
  event.waitUntil(self.registration.showNotification(title, {
    body: typeof msg.body === "string" ? msg.body : "",
    icon: "/static/icon-192.png",
    data: { url: typeof msg.url === "string" && msg.url.startsWith("/") ? msg.url : "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data.url, self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window" }).then((wins) => {
    const open = wins.find((w) => w.url === url);
    return open ? open.focus() : self.clients.openWindow(url);
  }));
});
