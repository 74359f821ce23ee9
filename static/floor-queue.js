// The floor through a Wi-Fi drop: the floor's pages (table map, dealer's page, floor tools, clock
// control) load this after their own scripts.
//
// - It registers the floor's service worker (floor-sw.js, its scope the floor's pages), which
//   keeps the pages and the last state they saw for a reload without network.
// - It keeps the floor's actions in a queue in IndexedDB while the tablet has no server: a bust
//   (with its eliminators), a slip confirmed, a hand completed, a penalty, a chip count. Each gets its own
//   Idempotency-Key and the time of the tap (sent as X-Tapped-At, logged by the server beside
//   the arrival) when it is tapped, and the queue sends them in the order tapped as soon as the
//   server answers. A repeat after a lost answer gets the first answer back: nothing acts twice.
// - Each action shows its state: waiting, sent, or refused with the server's reason (in the
//   page's language) and what to do. Nothing tapped is dropped silently.
// - A session that has ended (logged out elsewhere, a revoked login) stops the queue: its actions
//   are kept and shown as refused, to whoever logs in next on this tablet, without the names they
//   carried (what, at which table, when). Logging out, from any page, clears the queue and the
//   pages kept (after asking, when actions are still waiting).
//
// window.TDMQueue, for the floor's scripts:
//   TDMQueue.add({kind, label, anon, url, body}) → Promise: the action kept (and sent at once when it can);
//                                          anon: the label without a name, all that is kept once the login ends
//   TDMQueue.queueing()                    → true while actions go through the queue (offline, or some wait)
//   TDMQueue.flush()                       → send what waits, in order
// The page hears "tdm:queue-sent" on the document when actions reached the server (the map
// reloads its state) and "tdm:queue-changed" whenever the list changed.
(function () {
  const app = document.getElementById("floor-app");
  if (!app) return;
  const T = JSON.parse(document.getElementById("floor-app-i18n").textContent);
  const USER = app.dataset.user, TID = app.dataset.tournament || "";
  const DB = "tdm-floor", STORE = "actions", SINCE = "tdm-floor-offline-since", KEPT = "tdm-floor-kept";
  const SESSION_ENDED = ["not_authenticated", "authentication_failed"];
  const lang = document.documentElement.lang || "en";

  // --- the service worker ---------------------------------------------------------------------
  // Only a secure page (https, or this computer's own address) may register one: elsewhere the
  // floor is told why there is no offline mode, and where to open the page for it.
  const unable = document.getElementById("floor-offline-unable");
  function cannotKeep(why) {
    if (!unable) return;
    unable.querySelectorAll("[data-why]").forEach((p) => { p.hidden = p.dataset.why !== why; });
    unable.hidden = false;
    (document.querySelector("main") || document.body).prepend(unable);
  }
  if (app.dataset.worker && !window.isSecureContext) cannotKeep("insecure");
  else if (app.dataset.worker && !("serviceWorker" in navigator)) cannotKeep("failed");
  if ("serviceWorker" in navigator && app.dataset.worker) {
    const hadController = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.register(app.dataset.worker, { scope: app.dataset.scope }).then((reg) => {
      // A new version waits until this page's queue is idle, then takes over; the page reloads
      // with it (below), never running old HTML with new scripts.
      const offer = () => { if (reg.waiting && navigator.serviceWorker.controller) whenIdle(() => reg.waiting && reg.waiting.postMessage("take-over")); };
      offer();
      reg.addEventListener("updatefound", () => {
        const next = reg.installing;
        if (next) next.addEventListener("statechange", () => { if (next.state === "installed") offer(); });
      });
    }).catch(() => cannotKeep("failed")); // no worker (a private window, a certificate not trusted): the page works online as before
    let reloading = false;
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      if (!hadController || reloading) return; // the first install: this page is the version it runs
      reloading = true;
      location.reload();
    });
  }

  // --- IndexedDB ------------------------------------------------------------------------------
  let dbp = null;
  function db() {
    if (!dbp) dbp = new Promise((resolve, reject) => {
      const open = indexedDB.open(DB, 1);
      open.onupgradeneeded = () => open.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      open.onsuccess = () => {
        // the other pages' logout asks about waiting actions only where a queue was ever kept (tdm.js)
        try { localStorage.setItem(KEPT, "1"); } catch (e) { /* storage refused: the logout asks nothing */ }
        resolve(open.result);
      };
      open.onerror = () => reject(open.error);
    });
    return dbp;
  }
  async function tx(mode, work) {
    const d = await db();
    return new Promise((resolve, reject) => {
      const t = d.transaction(STORE, mode), store = t.objectStore(STORE);
      let out;
      Promise.resolve(work(store)).then((v) => { out = v; });
      t.oncomplete = () => resolve(out);
      t.onerror = () => reject(t.error);
    });
  }
  const req = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
  const all = () => tx("readonly", (s) => req(s.getAll())); // in id order: the order tapped
  const put = (a) => tx("readwrite", (s) => req(s.put(a)));
  const remove = (id) => tx("readwrite", (s) => req(s.delete(id)));

  // --- online or not ----------------------------------------------------------------------------
  let serverDown = false;
  const offline = () => !navigator.onLine || serverDown;
  function wentOffline() {
    if (!localStorage.getItem(SINCE)) localStorage.setItem(SINCE, new Date().toISOString());
    render();
  }
  function cameBack() {
    serverDown = false;
    localStorage.removeItem(SINCE);
    render();
  }
  window.addEventListener("offline", wentOffline);
  window.addEventListener("online", () => { serverDown = false; flush(); render(); });

  // --- the queue ------------------------------------------------------------------------------
  let items = [];
  const mine = (a) => a.user === USER;
  const waiting = () => items.filter((a) => mine(a) && (a.state === "waiting" || a.state === "sending"));
  const newKey = () => (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random());

  async function add(action) {
    const a = Object.assign({ user: USER, tournament: TID, key: newKey(), tapped_at: new Date().toISOString(), state: "waiting", reason: "", anon: "…" }, action);
    a.id = await put(a);
    items.push(a);
    changed();
    flush();
    return a;
  }

  let flushing = null;
  function flush() {
    if (!navigator.onLine) return Promise.resolve(); // no network at all: the "online" event sends
    if (!flushing) flushing = (navigator.locks ? navigator.locks.request("tdm-floor-queue", send) : send()).finally(() => { flushing = null; idle(); });
    return flushing;
  }
  async function send() {
    items = await all();
    let reached = false;
    for (const a of items.filter((x) => mine(x) && x.state === "waiting")) {
      a.state = "sending";
      render();
      let r, data = {};
      try {
        r = await TDM.request(a.url, { method: "POST", body: a.body, key: a.key, headers: { "X-Tapped-At": a.tapped_at } });
        try { data = await r.json(); } catch (e) { data = {}; }
      } catch (e) { r = null; }
      if (!r || r.status >= 500 || data.code === "request_in_progress") { // no server (or busy): try again later
        a.state = "waiting";
        if (!r || r.status >= 500) { serverDown = true; wentOffline(); }
        break;
      }
      reached = true;
      if (r.ok) {
        a.state = "sent";
        a.sent_at = new Date().toISOString();
      } else if (r.redirected || r.status === 401 || (r.status === 403 && SESSION_ENDED.includes(data.code))) {
        // The session has ended: the queue stops. Nothing is lost: every action still waiting is
        // shown as refused, to whoever logs in next on this tablet.
        // What it kept of the login goes: the worker's copy of the pages, and each action's names
        // and body (TDM.forgetLogin); this screen still shows them, the next login only what,
        // where and when.
        for (const b of items.filter((x) => mine(x) && (x.state === "waiting" || x === a))) {
          b.state = "refused"; b.reason = T.sessionEnded; b.todo = T.tapAgain;
          await put(b);
        }
        await TDM.forgetLogin();
        break;
      } else {
        a.state = "refused";
        a.reason = data.detail || r.statusText || String(r.status);
        a.code = data.code || "";
        // a slip that no longer applies: the server said what happened instead, and the map
        // (reloaded when the queue has sent) shows the slips that stand now
        const slip = ["move_done", "move_superseded", "move_undone", "move_player_out", "move_waiting_for_hand"].includes(data.code);
        a.todo = data.code === "already_out" ? T.alreadyOutTodo : slip ? T.slipTodo : T.tapAgain;
      }
      await put(a);
      changed();
    }
    if (reached) cameBack();
    changed();
    if (reached) document.dispatchEvent(new CustomEvent("tdm:queue-sent"));
  }
  const idleCallbacks = [];
  function whenIdle(cb) { if (!flushing && !waiting().length) cb(); else idleCallbacks.push(cb); }
  function idle() { if (!waiting().length) idleCallbacks.splice(0).forEach((cb) => cb()); }

  // --- what the floor sees ----------------------------------------------------------------------
  const box = document.createElement("section");
  box.id = "floor-queue";
  box.className = "card floor-queue";
  box.setAttribute("aria-labelledby", "floor-queue-status");
  box.hidden = true;
  const status = document.createElement("p");
  status.id = "floor-queue-status";
  status.setAttribute("role", "status");
  const list = document.createElement("ol");
  list.className = "plain small";
  box.append(status, list);
  (document.querySelector("main") || document.body).prepend(box);

  const hhmm = (iso) => new Date(iso).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  function render() {
    const since = localStorage.getItem(SINCE), n = waiting().length;
    const parts = [];
    if (offline() && since) parts.push(T.offlineSince.replace("{time}", hhmm(since)));
    else if (offline()) parts.push(T.offline);
    if (n) parts.push((n === 1 ? T.waitingOne : T.waitingMany).replace("{n}", n));
    status.textContent = parts.join(" — ");
    status.className = offline() ? "offline" : "";
    const shown = items.filter((a) => a.state !== "sent" || (mine(a) && Date.now() - Date.parse(a.sent_at) < 10 * 60 * 1000));
    list.replaceChildren(...shown.map((a) => {
      const li = document.createElement("li");
      li.className = "queued " + a.state;
      li.dataset.state = a.state;
      li.dataset.key = a.key;
      const what = document.createElement("b");
      what.textContent = a.label;
      const when = document.createElement("span");
      when.className = "muted";
      when.textContent = " " + hhmm(a.tapped_at) + " · ";
      const state = document.createElement("span");
      state.className = "tag state" + (a.state === "refused" ? " bad" : a.state === "sent" ? " ok" : " warn");
      state.textContent = mine(a) ? T[a.state] : T.refused;
      li.append(what, when, state);
      if (!mine(a) && a.state !== "refused") {
        const why = document.createElement("div");
        why.className = "reason";
        why.textContent = T.otherUser.replace("{user}", a.user) + " " + T.tapAgain;
        li.append(why);
      } else if (a.state === "refused") {
        const why = document.createElement("div");
        why.className = "reason";
        why.textContent = a.ended && !a.reason ? T.sessionEnded + " " + T.tapAgain : a.reason + (a.todo ? " " + a.todo : "");
        li.append(why);
      }
      if (a.state === "refused" || !mine(a)) {
        const seen = document.createElement("button");
        seen.type = "button";
        seen.className = "link seen";
        seen.textContent = T.seen;
        seen.setAttribute("aria-label", TDM.colon(T.seen, a.label));
        seen.addEventListener("click", async () => { await remove(a.id); items = items.filter((x) => x.id !== a.id); changed(); });
        li.append(" ", seen);
      }
      return li;
    }));
    box.hidden = !parts.length && !shown.length;
    // the players of a bust still waiting, struck through on the map: the floor sees it is tapped
    document.querySelectorAll("tr.queued-out").forEach((r) => r.classList.remove("queued-out"));
    waiting().filter((a) => a.kind === "bust").forEach((a) => (a.entries || []).forEach((id) => {
      const row = document.querySelector("tr[data-entry='" + id + "']");
      if (row) row.classList.add("queued-out");
    }));
  }
  document.addEventListener("tdm:map-refreshed", render);
  function changed() {
    render();
    markQueued();
    document.dispatchEvent(new CustomEvent("tdm:queue-changed"));
  }

  // A slip confirmed while the tablet is offline is done as far as the floor is concerned: its
  // "Done" waits with it (disabled, marked waiting), so a second tap queues no second
  // confirmation; the map, refreshed, keeps the mark until the queue has sent it.
  function markQueued() {
    const queued = new Set(
      items.filter((a) => mine(a) && a.kind === "confirm" && (a.state === "waiting" || a.state === "sending"))
        .flatMap((a) => (a.body && a.body.moves) || []).map(String)
    );
    document.querySelectorAll("tr[data-move]").forEach((tr) => {
      const waits = queued.has(tr.dataset.move);
      tr.classList.toggle("queued", waits);
      tr.querySelectorAll("form button").forEach((b) => {
        b.disabled = waits;
        if (waits) b.setAttribute("aria-description", T.waiting); else b.removeAttribute("aria-description");
      });
    });
  }
  document.addEventListener("tdm:map-refreshed", markQueued);

  // --- the floor's forms through the queue -----------------------------------------------------
  // The table map's and the dealer's forms post to the page when the server answers; while it does
  // not (or while earlier actions still wait, to keep their order) the actions the floor must not
  // lose go through the queue, to the API: the same services, with an Idempotency-Key.
  const api = (path) => "/api/v1/tournaments/" + TID + "/" + path;
  function chips(text) {
    const digits = String(text || "").replace(/[\s.,'’]/g, "");
    if (!digits) return null;
    return /^\d+$/.test(digits) ? Number(digits) : text;
  }
  function nameOf(id) {
    const cell = document.querySelector("tr[data-entry='" + id + "'] td.player");
    return cell ? Array.from(cell.querySelectorAll("a, span")).slice(0, 2).map((n) => n.textContent.trim()).join(" ") : "#" + id;
  }
  function fromForm(form, submitter) {
    const f = new FormData(form, submitter && submitter.name ? submitter : undefined);
    const op = f.get("op"), table = Number(f.get("table")) || null;
    if (op === "bust") {
      const only = f.get("only");
      const ids = only ? [only] : f.getAll("entries");
      if (!ids.length) return null;
      const entries = ids.map((id) => {
        const item = { entry: Number(id), starting_stack: chips(f.get("stack_" + id)) };
        const named = f.getAll("eliminators_" + id).filter(Boolean).map((other) => {
          const share = (f.get("pot_share_" + id + "_" + other) || "").trim();
          return share ? { entry: Number(other), pot_share: chips(share) } : Number(other);
        });
        if (named.length) item.eliminators = named;
        return item;
      });
      const body = { entries, table, same_hand: !!f.get("same_hand") && !only };
      if (f.get("override_reason")) body.override_reason = f.get("override_reason");
      const label = (names) => T.bust.replace("{names}", names).replace("{t}", table);
      return { kind: "bust", label: label(ids.map(nameOf).join(", ")), anon: label("…"), url: api("busts/"), body, entries: ids.map(Number) };
    }
    if (op === "confirm" || op === "confirm_all") {
      const moves = op === "confirm" ? [f.get("move")] : f.getAll("moves");
      const row = op === "confirm" ? document.querySelector("tr[data-move='" + moves[0] + "'] td b") : null;
      return { kind: "confirm", label: T.confirm.replace("{what}", row ? row.textContent : "#" + moves.join(", #")), anon: T.confirm.replace("{what}", "…"), url: api("moves/confirm/"), body: { moves: moves.map(Number) } };
    }
    if (op === "hand" && table) return { kind: "hand", label: T.hand.replace("{t}", table), anon: T.hand.replace("{t}", table), url: api("tables/" + table + "/hand-completed/"), body: {} };
    return null;
  }
  const queueing = () => offline() || waiting().length > 0;
  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (e.defaultPrevented || !form.matches || form.method !== "post" || !queueing()) return;
    if (form.matches("form[action$='/logout/']")) return;
    e.preventDefault();
    const action = fromForm(form, e.submitter);
    if (!action) { // an action that needs the server now: said, not kept
      status.textContent = T.needsServer;
      box.hidden = false;
      return;
    }
    form.querySelectorAll("input[type=checkbox]:checked").forEach((i) => { i.checked = false; });
    add(action);
  });

  // Logging out clears this tablet's queue and the pages it kept: the next login starts clean.
  // Actions still waiting are not dropped unsaid: the floor is asked first.
  document.addEventListener("submit", async (e) => {
    const form = e.target;
    if (!form.matches || !form.matches("form[action$='/logout/']") || form.dataset.cleared === "1") return;
    e.preventDefault();
    const n = waiting().length;
    if (n && !(await TDM.confirm(T.logoutWaiting.replace("{n}", n)))) return;
    await forget();
    form.dataset.cleared = "1";
    form.submit();
  }, true);
  async function forget() {
    try {
      const d = await db();
      d.close();
      dbp = null;
    } catch (e) { /* nothing kept */ }
    await new Promise((resolve) => { const r = indexedDB.deleteDatabase(DB); r.onsuccess = r.onerror = r.onblocked = resolve; });
    if (window.caches) for (const name of await caches.keys()) if (name.startsWith("tdm-floor-pages-")) await caches.delete(name);
    localStorage.removeItem(SINCE);
  }

  window.TDMQueue = { add, flush, queueing, items: () => items.slice() };
  if (!navigator.onLine) wentOffline();
  all().then((kept) => {
    // sent long ago: gone; the rest (waiting, refused, another login's) stays until seen
    const old = kept.filter((a) => a.state === "sent" && Date.now() - Date.parse(a.sent_at) > 10 * 60 * 1000);
    old.forEach((a) => remove(a.id));
    items = kept.filter((a) => !old.includes(a));
    // an action left "sending" by a closed tab: waiting again (its key makes a repeat harmless)
    items.forEach((a) => { if (a.state === "sending") { a.state = "waiting"; put(a); } });
    changed();
    if (navigator.onLine) flush();
  });
  setInterval(() => { if (waiting().length && navigator.onLine) flush(); }, 5000);
})();
