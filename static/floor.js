// Floor tools: penalties that follow the player, chips in play, chip race entry.
(function () {
  const root = document.getElementById("floor"), tid = root.dataset.tournament;
  const $ = (s) => document.querySelector(s);
  const csrf = () => (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
  async function call(method, path, body) {
    const r = await fetch("/api/v1/" + path, { method, credentials: "same-origin", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() }, body: body ? JSON.stringify(body) : undefined });
    let d = {}; try { d = await r.json(); } catch (e) {}
    return { ok: r.ok, d };
  }
  function say(t, ok) { const m = $("#f-msg"); m.textContent = t; m.className = "message " + (ok ? "ok" : "error"); }
  const cell = (tr, v) => { const td = document.createElement("td"); td.textContent = v === null || v === undefined ? "" : v; tr.appendChild(td); return td; };

  async function loadPenalties() {
    const r = await call("GET", "tournaments/" + tid + "/floor/penalties/");
    const body = $("#penalties tbody"); body.replaceChildren();
    (r.d || []).forEach((p) => {
      const tr = document.createElement("tr"); tr.dataset.penalty = p.id;
      cell(tr, p.player);
      cell(tr, p.seat ? p.seat.table + " / " + p.seat.seat : "");
      cell(tr, p.kind + (p.rounds ? " ×" + p.rounds : ""));
      cell(tr, p.reason_code);
      cell(tr, p.hands_total ? p.hands_left + " / " + p.hands_total : p.ends_at ? new Date(p.ends_at).toLocaleTimeString() : "");
      const td = cell(tr, "");
      if (p.hands_total) {
        const b = document.createElement("button"); b.textContent = "−1"; b.className = "serve";
        b.addEventListener("click", async () => { await call("POST", "penalties/" + p.id + "/serve/", { hands: 1 }); loadPenalties(); });
        td.appendChild(b);
      }
      body.appendChild(tr);
    });
  }
  async function loadChips() {
    const r = await call("GET", "tournaments/" + tid + "/floor/chips/");
    if (!r.ok) return;
    $("#chips-in-play").textContent = Number(r.d.chips_in_play).toLocaleString();
    const c = r.d.counts;
    $("#count-summary").textContent = c.counted_players + " / " + c.players + " counted, total " + Number(c.counted_total).toLocaleString() + (c.difference !== null ? ", difference " + c.difference : "");
    const sc = r.d.stack_check;
    $("#stack-check").textContent = sc.chip_set ? Object.entries(sc.stacks).map(([k, v]) => k + " " + v.stack + ": " + (v.possible ? JSON.stringify(v.breakdown) + (v.enough ? " ✓" : " short " + JSON.stringify(v.short)) + ", racks/table " + v.racks_per_table : "cannot be made up")).join(" · ") + (r.d.color_up_suggestions.length ? " · color-ups: " + r.d.color_up_suggestions.map((s) => "T" + s.denominations.join("/T") + " after level " + s.level).join(", ") : "") : "";
    const body = $("#adjustments tbody"); body.replaceChildren();
    r.d.adjustments.forEach((a) => { const tr = document.createElement("tr"); cell(tr, a.kind); cell(tr, a.chips); cell(tr, a.reason); body.appendChild(tr); });
  }

  $("#penaltyform").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(e.target), kind = f.get("kind"), amount = f.get("amount") ? Number(f.get("amount")) : null;
    const body = { entry: Number(f.get("entry")), kind, reason_code: f.get("reason_code"), note: f.get("note") };
    const field = { MISSED_ROUNDS: "rounds", MISSED_HANDS: "hands", TIME_SUSPENSION: "minutes", CHIP_FORFEIT: "chips" }[kind];
    if (field) body[field] = amount;
    if (f.get("players_at_table") && kind === "MISSED_ROUNDS") body.players_at_table = Number(f.get("players_at_table"));
    const r = await call("POST", "tournaments/" + tid + "/floor/penalties/", body);
    if (!r.ok) { say(r.d.detail || r.d.code, false); return; }
    say(r.d.player + ": " + r.d.kind + (r.d.hands_total ? " — " + r.d.hands_total + " hands" : ""), true);
    loadPenalties(); loadChips();
  });
  $("#adjustform").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    const r = await call("POST", "tournaments/" + tid + "/floor/adjust/", { kind: f.get("kind"), chips: Number(f.get("chips")), reason: f.get("reason") });
    if (!r.ok) say(r.d.detail, false); else { e.target.reset(); loadChips(); }
  });
  $("#raceform").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    const players = f.get("players").split("\n").map((l) => l.trim()).filter(Boolean).map((l) => { const [seat, odd, rest] = l.split(":").map(Number); return { seat, odd_value: odd, stack_after_exchange: rest }; });
    const w = f.get("winners").trim();
    const body = { table: Number(f.get("table")), removed_denomination: Number(f.get("removed")), new_denomination: Number(f.get("new")), players };
    if (w) body.winners = w.split(/[ ,]+/).map(Number);
    const r = await call("POST", "tournaments/" + tid + "/floor/race/", body);
    $("#race-result").textContent = r.ok ? JSON.stringify(r.d.result, null, 1) : (r.d.detail || r.d.code);
    loadChips();
  });
  // PAY-12: the floor records a royal flush it verified at the table; the desk pays it.
  const jf = $("#jackpotform");
  if (jf) jf.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(jf), m = $("#jackpot-msg");
    const body = { entries: f.getAll("entries").map(Number), both_hole_cards: f.get("both_hole_cards") === "1", note: f.get("note") || "" };
    const r = await call("POST", "tournaments/" + tid + "/jackpot/claims/", body);
    m.className = "message " + (r.ok ? "ok" : "error");
    m.textContent = r.ok ? jf.dataset.won + ": " + r.d.amount + " — " + jf.dataset.level + " " + r.d.level + ", " + r.d.percent + "%" : (r.d.detail || r.d.code);
    if (r.ok) jf.reset();
  });
  loadPenalties(); loadChips();
  setInterval(loadPenalties, 10000);
})();
