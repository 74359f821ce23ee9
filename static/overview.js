// The floor overview: every running tournament, refreshed every 5 seconds from
// /api/v1/tournaments/overview/, each clock counted locally between refreshes. Text only.
(function () {
  const $ = (id) => document.getElementById(id);
  const table = $("overview");
  if (!table) return;
  const T = JSON.parse($("overview-i18n").textContent), F = window.TDMFormat;
  let data = JSON.parse($("overview-data").textContent), offset = 0, clocks = [];
  const fmt = (s, vals) => s.replace(/\{(\w+)\}/g, (_, k) => vals[k]);
  const td = (text, cls) => { const e = document.createElement("td"); e.textContent = text; if (cls) e.className = cls; return e; };
  const link = (href, text, cls) => { const a = document.createElement("a"); a.href = href; a.textContent = text; if (cls) a.className = cls; return a; };

  function left(c) {
    if (!c) return null;
    if (c.status === "RUNNING" && c.ends_at) return Math.max(0, (Date.parse(c.ends_at) - (Date.now() + offset)) / 1000);
    return c.seconds_left;
  }
  function timeText(c) {
    if (!c || c.status === "NOT_STARTED") return T.notStarted;
    const t = F.clock(left(c));
    return c.status === "PAUSED" ? t + " (" + T.paused + ")" : t;
  }

  function render() {
    if (data.server_time) offset = Date.parse(data.server_time) - Date.now();
    const rows = data.tournaments || [];
    clocks = [];
    const body = rows.map((r) => {
      const tr = document.createElement("tr");
      tr.dataset.id = r.id;
      const c = r.clock || {};
      const name = document.createElement("td"); name.append(link(r.url, r.name));
      const time = td(timeText(c), "time");
      clocks.push([time, c]);
      const h4h = r.hand_for_hand ? T.yes + (c.h4h_hand ? " (" + T.hand + " " + c.h4h_hand + ")" : "") : "—";
      const late = r.late_registration_open ? (r.late_registration_level ? fmt(T.openUntil, { level: r.late_registration_level }) : T.open) : T.closed;
      const links = document.createElement("td");
      if (r.tables_url) links.append(link(r.tables_url, T.tables, "button small"), " ");
      links.append(link(r.clock_url, T.clock, "button small"));
      tr.append(name, td(c.is_break ? T.brk : c.level_number ? String(c.level_number) : "—"), time,
        td(TDM.num(r.players_left) + " / " + TDM.num(r.entries)), td(r.tables === null ? "—" : String(r.tables)),
        td(String(r.moves_pending), r.moves_pending ? "warn" : ""), td((r.halted_tables || []).join(", ") || "—", (r.halted_tables || []).length ? "bad" : ""),
        td(h4h, r.hand_for_hand ? "warn" : ""), td(late), links);
      return tr;
    });
    if (!body.length) { const tr = document.createElement("tr"); tr.className = "empty"; const cell = td(T.none); cell.colSpan = 10; tr.append(cell); body.push(tr); }
    $("ov-rows").replaceChildren(...body);
    $("ov-totals").textContent = fmt(T.totals, { n: rows.length, players: TDM.num(data.players_left), tables: TDM.num(data.tables), moves: TDM.num(data.moves_pending) });
  }

  async function refresh() {
    try {
      const r = await TDM.request(table.dataset.api, { cache: "no-store", headers: { Accept: "application/json" } });
      if (r.ok) { data = await r.json(); render(); }
    } catch (e) { /* offline: the clocks go on counting */ }
  }
  render();
  setInterval(() => clocks.forEach(([cell, c]) => { const t = timeText(c); if (cell.textContent !== t) cell.textContent = t; }), 250);
  setInterval(refresh, 5000);
})();
