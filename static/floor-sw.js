// The floor's service worker: the table map, the dealer's page, the floor tools and the clock
// control open on a tablet with the network gone. Served as /tournaments/floor-sw.js, so its
// scope is the floor's pages only (the phone page and the desk are not its business); the server
// writes VERSION (the static build's names and this file, hashed), SHELL (the hashed static
// files a floor page loads) and SCOPE in front of this code.
//
// - The shell (CSS, scripts, icons) is cached at install, under the version's name: a page and its
//   scripts come from one build. Hashed names never change content, so they are served from the
//   cache first.
// - Pages, the map's fragment, the API's and the live state's reads go to the network first; each
//   answer is kept, and served when the network is gone: the last state this tablet saw.
// - Kept for one login only. The server names the session each answer was for (X-TDM-Session: a
//   hash of the session, empty without a login); the worker keeps it beside the answers, throws
//   them all away the moment an answer names another session or none (logged out elsewhere, a
//   password reset, the idle time: the first answer after it says so), and serves from its copy
//   only answers kept under the session it last heard of. A logout answers Clear-Site-Data: the
//   browser drops this worker and its caches; the login page drops the copy too.
//   Offline, a session ended on the server cannot be known: the copy is served until the
//   network says so.
// - Writes are never touched here: the floor's queue (floor-queue.js) keeps them in IndexedDB and
//   sends them itself, each with its Idempotency-Key.
// - A new version installs beside the old one and waits: the page tells it to take over once its
//   queue is idle, then reloads, so no tablet runs an old page with new scripts or the reverse.
//   The old version's caches go when the new one activates.
const SHELL_CACHE = "tdm-floor-shell-" + VERSION;
const PAGES_CACHE = "tdm-floor-pages-" + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("tdm-floor-") && name !== SHELL_CACHE && name !== PAGES_CACHE) await caches.delete(name);
    }
    await self.clients.claim(); // the first install controls the page already open...
    // ...whose own load did not come through here: kept now, so it opens offline too
    for (const client of await self.clients.matchAll({ type: "window" })) {
      const url = new URL(client.url);
      if (url.pathname.startsWith(SCOPE)) await networkFirst(new Request(url.href, { credentials: "same-origin" })).catch(() => null);
    }
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "take-over") self.skipWaiting(); // the page's queue is idle: the new version may run
});

// What is kept of a read: a floor page, the map's fragment, the API's reads, the live state. The
// live stream is a stream (never kept); the clock's time is asked again when the network returns.
function kept(url, request) {
  if (request.mode === "navigate") return url.pathname.startsWith(SCOPE) && !url.pathname.endsWith(".js");
  if (url.pathname.startsWith(SCOPE)) return true;
  if (url.pathname.startsWith("/api/v1/")) return true;
  return /^\/live\/\d+\/state\/$/.test(url.pathname);
}

async function fromShell(request) {
  const hit = await caches.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) (await caches.open(SHELL_CACHE)).put(request, response.clone());
  return response;
}

// The session the kept answers were for: one entry of the pages' cache, gone with it.
const SESSION = new URL(SCOPE + "kept-session", self.location.origin).href;
// Read without opening the cache: opening one makes it.
async function keptSession() {
  if (!(await caches.has(PAGES_CACHE))) return "";
  const r = await (await caches.open(PAGES_CACHE)).match(SESSION);
  return r ? r.text() : "";
}

// An answer as kept: with the session it was kept under, whatever the answer said itself (the live
// state is the same for everybody and names no session).
async function stamped(response, session) {
  const headers = new Headers(response.headers);
  headers.set("X-TDM-Session", session);
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
}

async function networkFirst(request) {
  let response;
  try {
    response = await fetch(request);
  } catch (err) {
    return fromCopy(request, err);
  }
  const said = response.type === "basic" ? response.headers.get("X-TDM-Session") : null;
  // a login page after a redirect is not the page asked for: never kept under its address
  const keep = response.ok && !response.redirected && response.type === "basic" ? response.clone() : null;
  await inLane(async () => {
    let session = await keptSession();
    if (said !== null && said !== session) {
      // another session, or none: what was kept was another login's, and goes
      await caches.delete(PAGES_CACHE);
      session = said;
      if (session) await (await caches.open(PAGES_CACHE)).put(SESSION, new Response(session));
    }
    // Without a login nothing is kept, and no cache is made: an answer arriving after the login
    // page has thrown the copy away (a read started before the session ended) leaves nothing.
    if (session && keep) await (await caches.open(PAGES_CACHE)).put(request, await stamped(keep, session));
  });
  return response;
}

// One answer at a time reads and changes what is kept: two first answers of a session, side by
// side, would each throw away what the other had just kept.
let lane = Promise.resolve();
function inLane(work) {
  const run = lane.then(work);
  lane = run.catch(() => {});
  return run;
}

async function fromCopy(request, err) {
  const session = await keptSession();
  const cache = session ? await caches.open(PAGES_CACHE) : null;
  // Vary (the cookie, the language) is ignored: this cache holds one login's pages
  let hit = session ? (await cache.match(request, { ignoreVary: true })) || (request.mode === "navigate" ? await cache.match(request, { ignoreSearch: true, ignoreVary: true }) : null) : null;
  if (hit && hit.headers.get("X-TDM-Session") !== session) hit = null; // kept for another login: never shown
  if (hit) return hit;
  if (request.mode !== "navigate") throw err;
  const text = "Offline: this page is not kept on this tablet (not opened yet, or its login has ended). / Senza rete: questa pagina non è conservata su questo tablet (mai aperta, o il suo accesso è terminato).";
  return new Response(text, { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.endsWith("/stream/")) return;
  if (url.pathname.startsWith("/static/")) event.respondWith(fromShell(request));
  else if (kept(url, request)) event.respondWith(networkFirst(request));
});
