// Floor tools: penalties that follow the player, chips in play, chip counts, chip race entry.
(function () {
  const root = document.getElementById("floor"), tid = root.dataset.tournament;
  const $ = (s) => document.querySelector(s);
  async function call(method, path, body) {
    const r = await TDM.api(path, { method, body });
    return { ok: r.ok, d: r.data || {} };
  }
  function say(t, ok) { const m = $("#f-msg"); m.textContent = t; m.className = "message " + (ok ? "ok" : "error"); }
  const cell = (tr, v) => { const td = document.createElement("td"); td.textContent = v === null || v === undefined ? "" : v; tr.appendChild(td); return td; };
  const T = JSON.parse(document.getElementById("floor-i18n").textContent);
  const L = JSON.parse(document.getElementById("code-labels").textContent); // codes → labels (tournaments/labels.py)
  const num = (n) => TDM.num(n);
  const chips = (breakdown) => Object.entries(breakdown || {}).map(([d, n]) => "T" + num(d) + " × " + num(n)).join(", ");

  async function loadPenalties() {
    const r = await call("GET", "tournaments/" + tid + "/floor/penalties/");
    const body = $("#penalties tbody"); body.replaceChildren();
    (r.d || []).forEach((p) => {
      const tr = document.createElement("tr"); tr.dataset.penalty = p.id;
      cell(tr, p.player);
      cell(tr, p.seat ? p.seat.table + " / " + p.seat.seat : "");
      cell(tr, p.progress.kind_label + (p.rounds ? " ×" + p.rounds : ""));
      cell(tr, p.reason_label);
      // PEN-03 / PEN-05: the table's "hand completed" counts the hands; a suspension runs on the clock.
      const left = cell(tr, p.progress.label); left.className = "left";
      if (p.progress.hands_left !== null) left.dataset.handsLeft = p.progress.hands_left;
      if (p.progress.seconds_left !== null) left.dataset.secondsLeft = p.progress.seconds_left;
      cell(tr, "");
      body.appendChild(tr);
    });
  }
  async function loadChips() {
    const r = await call("GET", "tournaments/" + tid + "/floor/chips/");
    if (!r.ok) return;
    $("#chips-in-play").textContent = num(r.d.chips_in_play);
    const c = r.d.counts;
    const counts = { counted: num(c.counted_players), players: num(c.players), total: num(c.counted_total), difference: num(c.difference) };
    $("#count-summary").textContent = TDM.fill(c.difference !== null ? T.countSummaryDiff : T.countSummary, counts);
    const sc = r.d.stack_check;
    // each stack one whole sentence, the colour-ups another (translated as wholes, never glued)
    const stackLine = ([k, v]) => TDM.fill(!v.possible ? T.stackCannot : v.enough ? T.stackEnough : T.stackShort, {
      stack: { starting: T.stackStarting, rebuy: T.stackRebuy, addon: T.stackAddon }[k] || k, amount: num(v.stack),
      chips: chips(v.breakdown), short: chips(v.short), racks: num(v.racks_per_table),
    });
    const colourUp = (s) => TDM.fill(T.colourUpAt, { chips: "T" + s.denominations.map(num).join("/T"), level: num(s.level) });
    const ups = r.d.color_up_suggestions.length ? [TDM.fill(T.colourUps, { list: r.d.color_up_suggestions.map(colourUp).join(", ") })] : [];
    $("#stack-check").textContent = sc.chip_set ? [...Object.entries(sc.stacks).map(stackLine), ...ups].join(" · ") : "";
    const body = $("#adjustments tbody"); body.replaceChildren();
    r.d.adjustments.forEach((a) => { const tr = document.createElement("tr"); cell(tr, L.adjustment[a.kind] || a.kind.toLowerCase()); cell(tr, num(a.chips)); cell(tr, a.reason); body.appendChild(tr); });
    const form = $("#raceform");
    if (r.d.race_denomination && !form.elements.removed.value) form.elements.removed.value = r.d.race_denomination;
  }

  // PEN-06 / C28: each heads-up reading shows the hands it gives for the rounds typed.
  const readings = document.querySelectorAll("#heads-up-reading input[data-per-round]");
  const showReadings = () => {
    const rounds = Number($("#penaltyform").elements.amount.value) || 0;
    readings.forEach((r) => { r.parentNode.querySelector(".reading-hands").textContent = rounds ? "= " + num(rounds * Number(r.dataset.perRound)) + " " + T.hands : ""; });
  };
  if (readings.length) $("#penaltyform").elements.amount.addEventListener("input", showReadings);

  $("#penaltyform").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(e.target), kind = f.get("kind"), amount = f.get("amount") ? Number(f.get("amount")) : null;
    const body = { entry: Number(f.get("entry")), kind, reason_code: f.get("reason_code"), note: f.get("note") };
    const field = { MISSED_ROUNDS: "rounds", MISSED_HANDS: "hands", TIME_SUSPENSION: "minutes", CHIP_FORFEIT: "chips" }[kind];
    if (field) body[field] = amount;
    if (f.get("players_at_table") && kind === "MISSED_ROUNDS") body.players_at_table = Number(f.get("players_at_table"));
    if (f.get("heads_up_reading") && kind === "MISSED_ROUNDS") body.heads_up_reading = f.get("heads_up_reading");  // PEN-06
    body.between_hands = f.get("between_hands") === "1";
    // Through a Wi-Fi drop (floor-queue.js): the penalty waits on the tablet with its own key and
    // tap time, and is sent in order when the server answers; its state shows at the top.
    if (window.TDMQueue && TDMQueue.queueing()) {
      const A = JSON.parse(document.getElementById("floor-app-i18n").textContent);
      const who = e.target.querySelector("[name=entry]");
      const picked = who && who.selectedOptions ? who.selectedOptions[0].textContent : "#" + body.entry;
      await TDMQueue.add({ kind: "penalty", label: A.penalty.replace("{who}", picked), anon: A.penalty.replace("{who}", "…"), url: "/api/v1/tournaments/" + tid + "/floor/penalties/", body });
      return;
    }
    const r = await call("POST", "tournaments/" + tid + "/floor/penalties/", body);
    if (!r.ok) { say(r.d.detail || r.d.code, false); return; }
    say(TDM.colon(r.d.player, r.d.progress.label), true);
    loadPenalties(); loadChips();
  });
  $("#adjustform").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    const r = await call("POST", "tournaments/" + tid + "/floor/adjust/", { kind: f.get("kind"), chips: Number(f.get("chips")), reason: f.get("reason") });
    if (!r.ok) say(r.d.detail, false); else { e.target.reset(); loadChips(); }
  });
  // Chip race (CR-02..04): the chosen table's own seated players, each with the stack and the value
  // of the removed colour counted at the table; the result comes back as stacks before and after.
  let tables = [];
  async function loadTables() {
    const r = await call("GET", "tournaments/" + tid + "/tables/");
    if (!r.ok) return;
    tables = r.d.tables || [];
    const sel = $("#race-table"), keep = sel.value;
    sel.replaceChildren(...tables.map((tb) => { const o = document.createElement("option"); o.value = tb.number; o.textContent = tb.number; return o; }));
    if (keep && tables.some((tb) => String(tb.number) === keep)) sel.value = keep;
    racePlayers();
    const csel = $("#count-table"), ckeep = csel.value;
    csel.replaceChildren(...tables.map((tb) => { const o = document.createElement("option"); o.value = tb.number; o.textContent = tb.number; return o; }));
    if (ckeep && tables.some((tb) => String(tb.number) === ckeep)) csel.value = ckeep;
    countPlayers();
  }
  // A table's chip count: each seated player's stack, counted at the table (at a break, say).
  function countPlayers() {
    const tb = tables.find((x) => String(x.number) === $("#count-table").value);
    const body = $("#count-players tbody"); body.replaceChildren();
    const seated = tb ? tb.seats.filter((s) => s.entry) : [];
    if (!seated.length) { const tr = document.createElement("tr"); const td = cell(tr, T.noPlayers); td.colSpan = 3; body.appendChild(tr); return; }
    const head = document.querySelectorAll("#count-players thead th")[2].textContent;
    seated.forEach((s) => {
      const tr = document.createElement("tr"); tr.dataset.entry = s.entry;
      cell(tr, s.seat); cell(tr, s.name + " (#" + s.entry_number + ")");
      const i = document.createElement("input"); i.type = "number"; i.min = "0"; i.name = "chips"; i.required = true; i.className = "w-8em";
      i.setAttribute("aria-label", TDM.colon(head, s.name + " (#" + s.entry_number + ")"));
      cell(tr, "").appendChild(i);
      body.appendChild(tr);
    });
  }
  $("#count-table").addEventListener("change", countPlayers);
  $("#countform").addEventListener("submit", async (e) => {
    e.preventDefault();
    const rows = Array.from(document.querySelectorAll("#count-players tbody tr[data-entry]")), m = $("#count-msg");
    if (!rows.length) return;
    const table = $("#count-table").value;
    const body = { occasion: "BREAK", counts: rows.map((tr) => ({ entry: Number(tr.dataset.entry), chips: Number(tr.querySelector("[name=chips]").value) })) };
    // Through a Wi-Fi drop (floor-queue.js): the count waits on the tablet with its own key and
    // tap time, as a penalty does; the stacks were counted at the tap, not when the server hears.
    if (window.TDMQueue && TDMQueue.queueing()) {
      const A = JSON.parse(document.getElementById("floor-app-i18n").textContent);
      await TDMQueue.add({ kind: "count", label: A.count.replace("{t}", table), anon: A.count.replace("{t}", table), url: "/api/v1/tournaments/" + tid + "/floor/counts/", body });
      e.target.querySelectorAll("[name=chips]").forEach((i) => { i.value = ""; });
      return;
    }
    const r = await call("POST", "tournaments/" + tid + "/floor/counts/", body);
    m.className = "message " + (r.ok ? "ok" : "error");
    m.textContent = r.ok ? TDM.fill(T.countDone, { table }) : (r.d.detail || r.d.code);
    if (r.ok) { e.target.querySelectorAll("[name=chips]").forEach((i) => { i.value = ""; }); loadChips(); }
  });
  function racePlayers() {
    const tb = tables.find((x) => String(x.number) === $("#race-table").value);
    const body = $("#race-players tbody"); body.replaceChildren();
    const seated = tb ? tb.seats.filter((s) => s.entry) : [];
    if (!seated.length) { const tr = document.createElement("tr"); const td = cell(tr, T.noPlayers); td.colSpan = 5; body.appendChild(tr); return; }
    seated.forEach((s) => {
      const tr = document.createElement("tr"); tr.dataset.seat = s.seat;
      cell(tr, s.seat); cell(tr, s.name + " (#" + s.entry_number + ")");
      // each field named by its column and its player: "Stack: Mario Rossi (#12)"
      const heads = [...document.querySelectorAll("#race-players thead th")].map((th) => th.textContent);
      const who = s.name + " (#" + s.entry_number + ")";
      const input = (name, value, column) => { const i = document.createElement("input"); i.type = "number"; i.min = "0"; i.name = name; i.required = true; i.className = "w-8em"; i.setAttribute("aria-label", TDM.colon(heads[column], who)); if (value !== null && value !== undefined) i.value = value; return i; };
      cell(tr, "").appendChild(input("stack", s.stack, 2));
      cell(tr, "").appendChild(input("removed_value", 0, 3));
      const won = document.createElement("input"); won.type = "checkbox"; won.name = "won"; won.className = "w-auto"; won.setAttribute("aria-label", TDM.colon(heads[4], who));
      cell(tr, "").appendChild(won);
      body.appendChild(tr);
    });
  }
  $("#race-table").addEventListener("change", racePlayers);
  // CR-05: a discretionary colour-up: the text to announce comes back from the server.
  $("#colorupform").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(e.target), m = $("#colorup-msg");
    const body = { from_denomination: Number(f.get("from_denomination")), to_denomination: Number(f.get("to_denomination")), note: f.get("note") || "" };
    if (f.get("entry")) body.entry = Number(f.get("entry")); else if (f.get("table")) body.table = Number(f.get("table"));
    const r = await call("POST", "tournaments/" + tid + "/floor/color-up/", body);
    m.className = "message " + (r.ok ? "ok" : "error");
    m.textContent = r.ok ? r.d.announcement : (r.d.detail || r.d.code);
    if (r.ok) { e.target.reset(); loadChips(); }
  });
  $("#raceform").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.target, rows = Array.from(document.querySelectorAll("#race-players tbody tr[data-seat]"));
    if (!rows.length) return;
    const players = rows.map((tr) => ({ seat: Number(tr.dataset.seat), stack: Number(tr.querySelector("[name=stack]").value), removed_value: Number(tr.querySelector("[name=removed_value]").value) }));
    const winners = rows.filter((tr) => tr.querySelector("[name=won]").checked).map((tr) => Number(tr.dataset.seat));
    const table = Number(f.elements.table.value);
    const body = { table, removed_denomination: Number(f.elements.removed.value), new_denomination: Number(f.elements.new.value), players };
    if (winners.length) body.winners = winners;
    const r = await call("POST", "tournaments/" + tid + "/floor/race/", body);
    if (!r.ok) { say(r.d.detail || r.d.code, false); return; }
    showRace(table, players, r.d.result);
    loadChips();
  });
  function showRace(table, players, res) {
    const box = $("#race-result"), body = box.querySelector("tbody"); body.replaceChildren();
    const tb = tables.find((x) => x.number === table), names = {};
    (tb ? tb.seats : []).forEach((s) => { if (s.entry) names[s.seat] = s.name + " (#" + s.entry_number + ")"; });
    players.forEach((p) => {
      const after = res.final_stacks[p.seat] !== undefined ? res.final_stacks[p.seat] : res.final_stacks[String(p.seat)];
      const diff = after - p.stack;
      const tr = document.createElement("tr"); tr.dataset.seat = p.seat;
      cell(tr, p.seat); cell(tr, names[p.seat] || ""); cell(tr, num(p.stack)); cell(tr, num(after));
      const d = cell(tr, (diff > 0 ? "+" : "") + num(diff)); d.className = diff > 0 ? "won" : diff < 0 ? "lost" : "";
      body.appendChild(tr);
    });
    const extra = [];
    if (res.added_value) extra.push(TDM.fill(T.raceAdded, { chips: num(res.added_value) }));
    if (res.discarded_value) extra.push(TDM.fill(T.raceRemoved, { chips: num(res.discarded_value) }));
    if ((res.raced_out_rescued || []).length) extra.push(TDM.colon(res.raced_out_rescued.join(", "), T.rescued));
    $("#race-summary").textContent = TDM.fill(T.raceDone, { table }) + (extra.length ? " — " + extra.join(" · ") : "");
    box.hidden = false;
  }
  // PAY-12: the floor records a royal flush it verified at the table; the desk pays it.
  const jf = $("#jackpotform");
  if (jf) jf.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(jf), m = $("#jackpot-msg");
    const body = { entries: f.getAll("entries").map(Number), both_hole_cards: f.get("both_hole_cards") === "1", note: f.get("note") || "" };
    const r = await call("POST", "tournaments/" + tid + "/jackpot/claims/", body);
    m.className = "message " + (r.ok ? "ok" : "error");
    m.textContent = r.ok ? TDM.colon(jf.dataset.won, r.d.amount) + " — " + jf.dataset.level + " " + r.d.level + ", " + r.d.percent + "%" : (r.d.detail || r.d.code);
    if (r.ok) jf.reset();
  });
  loadPenalties(); loadChips(); loadTables();
  document.addEventListener("tdm:queue-sent", () => { loadPenalties(); loadChips(); loadTables(); }); // queued actions reached the server
  setInterval(loadPenalties, 10000);
})();
