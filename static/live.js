// Live tournament state in the browser: SSE with automatic reconnect, a polling fallback,
// the offset to the server's clock measured NTP-style, and a local countdown from ends_at.
// A display that loses the network keeps counting and catches up when it returns.
// Every live page (lobby screen, clock, floor overview, seat lookup, table map, player's phone)
// follows its tournament through this one object: the only EventSource of the pages.
// It fetches through TDM.request (static/tdm.js, loaded first).
window.TDMLive = function (opts) {
  const state = { snap: null, offset: 0, lastSeq: -1, connected: false, lastEvent: 0 };
  const qs = opts.token ? "?token=" + encodeURIComponent(opts.token) : "";
  const base = opts.base || "/live/" + opts.tournament; // the player's phone page: "/p/<token>"

  async function measureOffset() {
    // Take the sample with the smallest round trip: its midpoint is the best estimate.
    let best = null;
    for (let i = 0; i < 5; i++) {
      const t0 = Date.now();
      try {
        const r = await TDM.request("/live/time/", { cache: "no-store" });
        const d = await r.json();
        const t1 = Date.now();
        const rtt = t1 - t0;
        if (!best || rtt < best.rtt) best = { rtt, offset: d.epoch_ms - (t0 + t1) / 2 };
      } catch (e) { /* offline: keep the last offset */ }
    }
    if (best) state.offset = best.offset;
  }

  // A player's phone gets the public state ("state", shared by every phone) and its own part
  // ("entry": entry, seat, move, prizes, a bounty event's bounty, a league's standing) apart,
  // the latter only when it changed: the page sees them as one state. A polled state carries both.
  const OWN = ["entry", "seat", "move", "prizes", "bounty", "league"];
  // A stream's overlay runs ``opts.delay`` seconds behind the room: each state is taken that
  // late and the clock counts that far back, so it shows what the room showed then.
  const delay = (opts.delay || 0) * 1000;
  function arrive(snap) {
    if (delay) setTimeout(() => { if (!closed) accept(snap); }, delay);
    else accept(snap);
  }
  function accept(snap) {
    if (snap.seq < state.lastSeq) return; // an older snapshot arrived late
    state.lastSeq = snap.seq;
    if ("entry" in snap) state.own = Object.fromEntries(OWN.map((k) => [k, snap[k]]));
    else if (state.own) Object.assign(snap, state.own);
    state.snap = snap;
    state.lastEvent = Date.now();
    opts.onState && opts.onState(snap);
  }
  function acceptOwn(own) {
    state.own = own;
    if (!state.snap) return;
    Object.assign(state.snap, own);
    opts.onState && opts.onState(state.snap);
  }

  function serverNow() { return Date.now() + state.offset - delay; }

  // Seconds left on the current clock item, counted locally.
  function secondsLeft() {
    const c = state.snap && state.snap.clock;
    if (!c) return null;
    if (c.status === "RUNNING" && c.ends_at) return Math.max(0, (Date.parse(c.ends_at) - serverNow()) / 1000);
    return c.seconds_left;
  }

  let es = null, pollTimer = null;
  function connect() {
    if (!window.EventSource) return startPolling();
    es = new EventSource(base + "/stream/" + qs);
    es.addEventListener("state", (e) => { state.connected = true; arrive(JSON.parse(e.data)); stopPolling(); });
    es.addEventListener("entry", (e) => acceptOwn(JSON.parse(e.data)));
    es.onerror = () => { state.connected = false; startPolling(); }; // EventSource reconnects by itself
  }
  async function poll() {
    try {
      const r = await TDM.request(base + "/state/" + qs, { cache: "no-store" });
      // a lobby screen whose link was revoked or renewed: reload, which shows the refusal
      if (r.status === 403 && opts.token) { location.reload(); return; }
      if (r.ok) arrive(await r.json());
    } catch (e) { /* offline: the local countdown goes on */ }
  }
  function startPolling() { if (!pollTimer) { poll(); pollTimer = setInterval(poll, 5000); } }
  function stopPolling() { if (pollTimer) { clearInterval(pollTimer); pollTimer = null; } }

  if (opts.initial) accept(opts.initial);
  // "Next break in", counted like the level clock: the seconds left in this item plus the
  // structure between its end and the break (fixed until the next snapshot); frozen when paused.
  function secondsToBreak() {
    const c = state.snap && state.snap.clock, left = secondsLeft();
    if (!c || c.next_break_after_item === null || c.next_break_after_item === undefined || left === null) return null;
    return left + c.next_break_after_item;
  }

  // Through a network drop the clock goes on by itself: at 0:00 the next item of the structure
  // (the snapshot's "next", then its "upcoming") starts where the last one ended, with its blinds
  // or its break, as the server would start it. The state is marked "local" (the pages show they
  // are not live) until the server's own state arrives and replaces it.
  function stepLocally() {
    const s = state.snap, c = s && s.clock;
    if (!c || c.status !== "RUNNING" || !c.ends_at || !c.next) return false;
    const end = Date.parse(c.ends_at);
    if (serverNow() < end) return false;
    const n = c.next, level = n.kind === "level", rest = c.upcoming || [];
    let toBreak = null, sum = 0; // the clock seconds after this item until the next break starts
    for (const item of rest) { if (item.kind === "break") { toBreak = sum; break; } sum += item.minutes * 60; }
    const clock = Object.assign({}, c, {
      item_index: n.item_index, is_break: !level, is_mid_level_break: false, is_final_level: false,
      level_number: level ? n.level_number : c.level_number,
      small_blind: level ? n.small_blind : null, big_blind: level ? n.big_blind : null,
      ante: level ? n.ante : null, ante_type: level ? n.ante_type : null, game: level ? n.game : null,
      minutes: n.minutes, item_seconds: n.minutes * 60, seconds_left: n.minutes * 60,
      color_up: level ? null : n.color_up, removes_denominations: level ? null : n.removes_denominations, add_on: level ? null : n.add_on,
      ends_at: new Date(end + n.minutes * 60000).toISOString(),
      next: rest[0] || null, upcoming: rest.slice(1), new_level_notice: false, hold_dealer_push: false,
      next_break_index: toBreak === null ? null : c.next_break_index, next_break_after_item: toBreak,
    });
    state.snap = Object.assign({}, s, { clock, local: true });
    opts.onState && opts.onState(state.snap);
    return true;
  }

  let closed = false;
  measureOffset().then(() => { if (!closed) connect(); });
  // The network is back: the server's state at once (the stream takes a few seconds to reconnect).
  const back = () => { if (!closed) { measureOffset(); poll(); } };
  window.addEventListener("online", back);
  const timers = [setInterval(measureOffset, 60000),
    // When the local countdown reaches zero, fetch the new level at once rather than wait, and
    // meanwhile start it here (a screen without network goes on with the structure).
    setInterval(() => { const left = secondsLeft(); if (left !== null && left <= 0 && state.snap && state.snap.clock.status === "RUNNING") { while (stepLocally()) { /* every item the drop lasted */ } poll(); } }, 1000)];
  // A rotating lobby screen follows one tournament at a time: close the last one's stream.
  function close() { closed = true; window.removeEventListener("online", back); if (es) es.close(); es = null; stopPolling(); timers.forEach(clearInterval); opts.onState = null; }
  return { state, secondsLeft, secondsToBreak, serverNow, poll, close };
};

// The clock and a break's colour-up as the live pages write them; numbers and money are
// TDM.num / TDM.money (static/tdm.js, loaded before this file on every page that uses it).
window.TDMFormat = {
  clock(sec) {
    if (sec === null || sec === undefined) return "--:--";
    sec = Math.ceil(sec);
    const h = Math.floor(sec / 3600), m = Math.floor((sec % 3600) / 60), s = sec % 60;
    const mm = String(m).padStart(2, "0"), ss = String(s).padStart(2, "0");
    return h ? h + ":" + mm + ":" + ss : mm + ":" + ss;
  },
  // A break's scheduled colour-up (CLK-09) in the page's language, from the chips it removes:
  // T.colourUp and T.chipsAnd are the messages tournaments.labels.break_note formats on the server.
  colourUp(T, denominations) {
    const names = (denominations || []).map((d) => "T" + d);
    if (!names.length) return "";
    const chips = names.length < 2 ? names[0] : T.chipsAnd.replace("{first}", names.slice(0, -1).join(", ")).replace("{last}", names[names.length - 1]);
    return T.colourUp.replace("{chips}", chips);
  },
  // FMT-16: a mixed event plays a game per level. The current level's game and the next level's
  // when it changes, named in the page's language from its "game-names" map (codes in the snapshot).
  games(c) {
    const el = document.getElementById("game-names");
    const G = el ? JSON.parse(el.textContent) : {}, name = (code) => (code ? G[code] || code : "");
    const n = c.next, now = c.is_break ? "" : name(c.game);
    const next = n && n.kind === "level" && n.game && n.game !== c.game ? name(n.game) : "";
    return { now, next };
  },
};
