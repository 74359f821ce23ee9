// Director's clock page: live state, one-click actions, hand-for-hand table reports.
(function () {
  const root = document.getElementById("clockpage"), T = JSON.parse(document.getElementById("clock-i18n").textContent), F = window.TDMFormat;
  const STATUS = JSON.parse(document.getElementById("clock-statuses").textContent); // NOT_STARTED → "Not started"
  const tid = root.dataset.tournament;
  const $ = (id) => document.getElementById(id);
  async function post(path, body) {
    const r = await TDM.api(path, { method: "POST", body: body || {} });
    return { ok: r.ok, d: r.data || {} };
  }
  function say(t, ok) { const m = $("c-msg"); m.textContent = t; m.className = "message " + (ok ? "ok" : "error"); }

  // "12:30" → 750 seconds; "12" → 720 (minutes); "1:05:00" → 3900; anything else → null.
  function durationSeconds(text) {
    const parts = String(text).trim().split(":");
    if (!parts.every((p) => /^\d+$/.test(p)) || parts.length > 3) return null;
    const n = parts.map(Number);
    if (n.length === 1) return n[0] * 60;
    if (n[n.length - 1] > 59 || (n.length === 3 && n[1] > 59)) return null;
    return n.length === 2 ? n[0] * 60 + n[1] : n[0] * 3600 + n[1] * 60 + n[2];
  }

  function render(s) {
    const c = s.clock || {};
    // Only what the clock's state allows (the engine's own list): the likely next one is primary.
    const allowed = new Set(c.actions || []);
    document.querySelectorAll("button[data-op]").forEach((b) => { b.disabled = !allowed.has(b.dataset.op); });
    const next = ["start", "resume", "end-hand-for-hand"].find((op) => allowed.has(op));
    document.querySelectorAll("button[data-op=start], button[data-op=resume], button[data-op=end-hand-for-hand]")
      .forEach((b) => b.classList.toggle("primary", b.dataset.op === next));
    $("c-level").textContent = (c.is_break ? T.brk : T.level + " " + c.level_number) + " · " + (STATUS[c.status] || "") + (c.hand_for_hand ? " · " + T.hand + " " + c.h4h_hand : "") + (F.games(c).now ? " · " + F.games(c).now : "");
    $("c-blinds").textContent = c.is_break ? (c.color_up || F.colourUp(T, c.removes_denominations)) : TDM.num(c.small_blind) + " / " + TDM.num(c.big_blind) + (c.ante ? " · ante " + TDM.num(c.ante) : "");
    const n = c.next;
    $("c-next").textContent = n ? TDM.colon(T.next, n.kind === "break" ? T.brk + " " + n.minutes + "′" : TDM.num(n.small_blind) + "/" + TDM.num(n.big_blind) + (F.games(c).next ? " · " + F.games(c).next : "")) : "";
    $("c-notice").textContent = c.hold_dealer_push ? T.hold : c.new_level_notice ? T.newLevel + (c.deck_change ? " · " + T.deckChange : "") : "";
    document.querySelectorAll("#structure tr").forEach((tr) => tr.classList.toggle("current", Number(tr.dataset.index) === c.item_index));
    const prop = $("h4h-proposal");
    // At the bubble (players left = places paid + 1), and only with two tables or more: at one
    // table every hand is played hand for hand anyway.
    if (prop) prop.hidden = !(s.places_paid && s.players_left === s.places_paid + 1 && !c.hand_for_hand && (s.tables_in_play || 0) > 1);
    const box = $("h4h-tables"); box.replaceChildren();
    // CLK-06: which tables still play the hand, which hold an all-in (cards face down), and the
    // announcement's numbers ("28 left, 27 paid").
    const summary = $("h4h-summary"), tables = s.h4h_tables || [], doneList = s.h4h_done || [], holdList = s.h4h_hold || [];
    summary.hidden = !c.hand_for_hand;
    // The tables' part is there while hand-for-hand is on; once over, the page says so (at the money: by itself).
    $("h4h-heading").hidden = $("h4h-tables").hidden = !c.hand_for_hand;
    const ended = $("h4h-ended"), over = !c.hand_for_hand && s.h4h_ended;
    ended.hidden = !over;
    ended.textContent = over ? (s.h4h_ended.money_reached ? T.h4hEndedMoney : T.h4hEnded) : "";
    if (c.hand_for_hand) {
      const playing = tables.filter((n) => !doneList.includes(n) && !holdList.includes(n));
      // Once every player left is paid it is the money, not a bubble (CLK-06).
      const line = s.h4h_last_hand ? T.h4hMoneyLast : s.h4h_in_the_money ? T.h4hMoneyOn : T.h4hLine;
      const parts = [line.replace("{left}", TDM.num(s.players_left || 0)).replace("{paid}", TDM.num(s.places_paid || 0))];
      if (playing.length) parts.push((playing.length === 1 ? T.h4hPlayingOne : T.h4hPlaying).replace("{tables}", playing.join(", ")));
      if (holdList.length) parts.push((holdList.length === 1 ? T.h4hHoldingOne : T.h4hHolding).replace("{tables}", holdList.join(", ")));
      if (tables.length && !playing.length && !holdList.length) parts.push(T.h4hAllDone);
      summary.textContent = parts.join(" · ");
    }
    tables.forEach((number) => { // the tables playing the hand-for-hand hand (only during one)
      const b = document.createElement("button");
      const done = doneList.includes(number), hold = holdList.includes(number);
      b.textContent = T.table + " " + number + (done ? " ✓" : hold ? " ⏸ " + T.holdTag : "");
      b.disabled = !c.hand_for_hand || done;
      b.className = done ? "" : "primary";
      b.addEventListener("click", async () => { const r = await post("/api/v1/tournaments/" + tid + "/tables/" + number + "/hand-completed/", {}); if (!r.ok) say(r.d.detail, false); });
      box.appendChild(b);
    });
  }
  const live = window.TDMLive({ tournament: tid, onState: render });
  setInterval(() => {
    $("c-time").textContent = F.clock(live.secondsLeft());
    const toBreak = live.secondsToBreak(); // counted with the clock, frozen while it is paused
    $("c-next-break").textContent = toBreak === null ? "—" : F.clock(toBreak);
    const onAir = live.state.connected && !(live.state.snap && live.state.snap.local); // counting alone: not live
    const conn = $("conn"); conn.textContent = onAir ? T.live : T.offline; conn.className = "badge " + (onAir ? "running" : "cancelled");
  }, 200);

  const REASON_NEEDED = ["jump", "insert-break", "finish"];
  document.querySelectorAll("button[data-op]").forEach((b) => b.addEventListener("click", async () => {
    const body = {};
    if (b.dataset.seconds) body.seconds = Number(b.dataset.seconds);
    // In-page dialogs (static/tdm.js): a level is chosen by the name players use ("Level 9",
    // "Break after level 4"), never by a structure index.
    if (b.dataset.ask === "item_index") {
      const options = Array.from(document.querySelectorAll("#structure tbody tr")).map((tr) => [tr.dataset.index, tr.dataset.name]);
      const v = await TDM.ask({ title: b.textContent, label: T.ask_item_index, input: "select", options, value: live.state.snap && live.state.snap.clock ? live.state.snap.clock.item_index : undefined });
      if (v === null) return;
      body.item_index = Number(v);
    } else if (b.dataset.ask === "duration") {
      const v = await TDM.ask({ title: b.textContent, label: T.ask_duration, input: "text", required: true });
      if (v === null || v === "") return;
      const secs = durationSeconds(v);
      if (secs === null) { say(T.bad_duration, false); return; }
      body.seconds = secs;
    } else if (b.dataset.ask) {
      const v = await TDM.ask({ title: b.textContent, label: T["ask_" + b.dataset.ask], input: "number", required: true });
      if (v === null || v === "") return;
      body[b.dataset.ask] = Number(v);
    }
    // The reason typed beside the buttons goes with the action. A change of the clock's course (a
    // level skipped, a break added, the clock finished) needs one (CLK-07): asked when none is
    // typed. Pause, resume and the time are one tap during a dispute, their reason optional.
    const typed = $("c-reason").value.trim();
    if (typed) body.reason = typed;
    if (REASON_NEEDED.includes(b.dataset.op) && !typed) {
      const r = await TDM.ask({ title: b.textContent, label: T.reasonNeeded, input: "textarea", required: true });
      if (r === null || !r.trim()) return;
      body.reason = r.trim();
    }
    const r = await post("/api/v1/tournaments/" + tid + "/clock/" + b.dataset.op + "/", body);
    // the reason sent is used up; one typed meanwhile waits for the next action
    if (r.ok) { say(T.done, true); if (typed && $("c-reason").value.trim() === typed) $("c-reason").value = ""; live.poll(); } else say(r.d.detail || r.d.code, false);
  }));

  // Shot clock (CLK-10): logged on the server, counted here.
  let shotTimer = null;
  $("shot-start").addEventListener("click", async () => {
    const table = Number($("shot-table").value);
    const body = { table, preset: $("shot-preset").value };
    if ($("shot-entry").value) body.entry = Number($("shot-entry").value);
    const r = await post("/api/v1/tournaments/" + tid + "/clock/call-clock/", body);
    if (!r.ok) { say(r.d.detail || r.d.code, false); return; }
    const until = Date.now() + (r.d.seconds + r.d.countdown) * 1000;
    $("shot-outcome").textContent = r.d.outcome;
    clearInterval(shotTimer);
    shotTimer = setInterval(() => {
      const left = Math.max(0, (until - Date.now()) / 1000);
      $("shot-time").textContent = Math.ceil(left) + " s";
      $("shot-time").classList.toggle("low", left <= r.d.countdown);
      if (left <= 0) clearInterval(shotTimer);
    }, 100);
  });

  // CLK-10: the director sets one player's time (heads-up: cut to 10 s for abuse); logged.
  // The director's announcement to the event's players: their pages show it, their phones are told.
  const tell = $("tellform");
  if (tell) tell.addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await post("/api/v1/tournaments/" + tid + "/clock/tell-players/", { text: new FormData(tell).get("text") || "" });
    if (r.ok) { say(T.done, true); tell.reset(); } else say(r.d.detail || r.d.code, false);
  });

  const callTime = $("calltimeform");
  if (callTime) callTime.addEventListener("submit", async (e) => {
    e.preventDefault();
    const fd = new FormData(callTime);
    const body = { entry: Number(fd.get("entry")), preset: $("shot-preset").value, reason: fd.get("reason") || "" };
    if (fd.get("seconds")) body.seconds = Number(fd.get("seconds"));
    const r = await post("/api/v1/tournaments/" + tid + "/clock/call-time/", body);
    if (r.ok) say(T.done, true); else say(r.d.detail || r.d.code, false);
  });

  const form = $("screenform");
  if (form) form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const fd = new FormData(form);
    const show = {};
    form.querySelectorAll("input[name=panel]").forEach((cb) => { show[cb.value] = cb.checked; });
    const r = await post("/api/v1/screens/", { name: fd.get("name"), tournament: Number(tid), announcement: fd.get("announcement") || "", show });
    if (r.ok) location.reload(); else say(r.d.detail, false);
  });
})();
