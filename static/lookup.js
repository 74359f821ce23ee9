// The public seat lookup searches as you type: each keystroke (debounced) asks
// /seats/<id>/find/?q= and the list is rebuilt from text nodes. The clock of the tournament is
// counted locally from the last answer, which is refreshed every 15 seconds.
(function () {
  const $ = (id) => document.getElementById(id);
  const main = $("lookup");
  if (!main) return;
  const T = JSON.parse($("lookup-i18n").textContent), F = window.TDMFormat;
  const input = $("q");
  let data = JSON.parse($("lookup-data").textContent), offset = 0, asked = 0, timer = null;
  const node = (tag, text, cls) => { const e = document.createElement(tag); e.textContent = text; if (cls) e.className = cls; return e; };
  const set = (id, v) => { const e = $(id); if (e && e.textContent !== String(v)) e.textContent = v; };
  const fmt = (s, vals) => s.replace(/\{(\w+)\}/g, (_, k) => vals[k]);

  function where(label, value) { const b = node("b", String(value)); const span = node("span", label + " ", "where"); span.append(b); return span; }

  function renderResults() {
    const q = (input.value || "").trim();
    const items = (data.results || []).map((r) => {
      const li = document.createElement("li");
      li.append(node("span", r.name, "name"));
      if (r.place) li.append(where(T.place, r.place));
      else {
        const span = node("span", T.table + " ", "where");
        span.append(node("b", String(r.table)), document.createTextNode(" · " + T.seat + " "), node("b", String(r.seat)));
        li.append(span);
        if (r.move_to) li.append(node("span", fmt(T.moving, { table: r.move_to.table, seat: r.move_to.seat }), "move-note"));
      }
      return li;
    });
    $("found").replaceChildren(...items);
    // only a name of data.min_letters letters is answered, and only when few names begin so
    const letters = (q.match(/\p{L}/gu) || []).length, asked = letters >= (data.min_letters || 3);
    const empty = data.more ? T.more : q && !asked ? T.short : asked && !items.length ? (data.state === "finished" ? T.nobodyPlaced : T.nobody) : "";
    if (data.state === "running") set("lookup-note", items.length ? "" : empty);
    else if (data.state === "finished" && !items.length && empty) set("lookup-note", empty);
  }

  async function ask() {
    const q = (input.value || "").trim(), n = ++asked;
    try {
      const r = await TDM.request(main.dataset.find + "?q=" + encodeURIComponent(q), { cache: "no-store" });
      if (n !== asked) return; // an older answer arriving late is dropped
      if (r.status === 429) { $("found").replaceChildren(); set("lookup-note", T.slow); return; }
      if (!r.ok) return;
      data = await r.json();
      if (data.clock && data.clock.server_time) offset = Date.parse(data.clock.server_time) - Date.now();
      renderResults();
    } catch (e) { /* offline: keep the last answer */ }
  }

  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(ask, 180); });
  input.form.addEventListener("submit", (e) => { e.preventDefault(); clearTimeout(timer); ask(); });
  $("find-button").hidden = true; // typing is enough

  function tick() {
    const c = data.clock, box = $("lookup-clock");
    box.hidden = !c || c.status === "NO_STRUCTURE";
    if (box.hidden) return;
    const left = c.status === "RUNNING" && c.ends_at ? Math.max(0, (Date.parse(c.ends_at) - (Date.now() + offset)) / 1000) : c.seconds_left;
    set("lc-level", c.is_break ? T.brk : T.level + " " + c.level_number);
    set("lc-time", F.clock(left));
    set("lc-blinds", c.small_blind === null || c.small_blind === undefined ? "" : TDM.num(c.small_blind) + " / " + TDM.num(c.big_blind) + (c.ante ? " (" + TDM.num(c.ante) + ")" : ""));
    set("lc-status", c.status === "PAUSED" ? T.paused : c.status === "HAND_FOR_HAND" ? T.h4h : c.status === "NOT_STARTED" ? T.notStarted : "");
    if (left !== null && left <= 0 && c.status === "RUNNING") { data.clock = Object.assign({}, c, { status: "WAITING" }); ask(); }
  }
  if (data.clock && data.clock.server_time) offset = Date.parse(data.clock.server_time) - Date.now();
  tick();
  setInterval(tick, 250);
  setInterval(ask, 15000);
})();
