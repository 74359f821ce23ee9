// The player's phone page: his or her seat, a move to make, the clock counted locally, the
// field and the payout ladder. The state comes from the entry's own live stream (/p/<token>/),
// which carries only what this entry may see. Everything is written as text.
(function () {
  const $ = (id) => document.getElementById(id);
  const el = $("phone");
  const T = JSON.parse($("phone-i18n").textContent), F = window.TDMFormat;
  const set = (id, v) => { const e = $(id); if (e && e.textContent !== String(v)) e.textContent = v; };
  const fmt = (s, vals) => s.replace(/\{(\w+)\}/g, (_, k) => vals[k]);
  const node = (tag, text, cls) => { const e = document.createElement(tag); e.textContent = text; if (cls) e.className = cls; return e; };
  let lastLadder = null;
  const money = (a, cur) => TDM.money(a, cur);

  function inBand(band, place) {
    const parts = String(band).split(/[–-]/).map(Number);
    return place >= parts[0] && place <= (parts[1] || parts[0]);
  }

  function render(s) {
    const e = s.entry || {}, c = s.clock || {}, t = s.tournament || {};
    const out = e.status === "BUSTED" || (e.place && t.status === "FINISHED");
    $("seat-box").hidden = !s.seat || out;
    // SEAT-02: the schedule drawn in advance is shown before the start only: then the seat is
    // the one place the page gives (never two seats side by side).
    const schedule = $("schedule-box");
    if (schedule) schedule.hidden = !s.schedule || !!s.seat;
    if (s.seat) { set("seat-table", s.seat.table); set("seat-seat", s.seat.seat); }
    $("move-box").hidden = !s.move || out;
    document.body.classList.toggle("moving", !!s.move && !out);
    if (s.move) {
      set("move-text", fmt(T.goTo, { table: s.move.to_table, seat: s.move.to_seat }));
      set("move-from", fmt(T.from, { table: s.move.from_table, seat: s.move.from_seat }));
    }
    $("out-box").hidden = !out;
    if (out) {
      set("out-place", e.place === 1 ? T.winner : e.place ? fmt(T.place, { place: e.place }) : "");
      const cash = (s.prizes || []).map((p) => p.kind === "CASH" ? money(p.amount, t.currency) : p.description).filter(Boolean);
      const paid = (s.prizes || []).length && s.prizes.every((p) => p.paid);
      const ready = !paid && (s.prizes || []).every((p) => p.paid || p.ready); // the desk may pay it now (its phones were told so)
      set("out-prize", cash.length ? fmt(paid ? T.prizePaid : ready ? T.prizeReady : T.prize, { amount: cash.join(" + ") }) : e.place ? T.noPrize : "");
    }
    renderBounty(s, e, t);
    const wait = $("wait-box");
    wait.hidden = !!s.seat || out;
    if (!wait.hidden) set("wait-box", t.status === "FINISHED" || t.status === "CANCELLED" ? T.ended : t.status === "RUNNING" ? T.waitSeat : T.waitDraw);

    let status = "";
    if (t.status === "FINISHED") status = T.finished;
    else if (t.status === "CANCELLED") status = T.cancelled;
    else if (c.status === "PAUSED") status = T.paused;
    else if (c.status === "HAND_FOR_HAND") status = s.h4h_in_the_money ? T.h4hMoney : T.h4h;
    else if (c.status === "NOT_STARTED" || t.status !== "RUNNING") status = T.notStarted;
    set("status", status);
    const over = t.status === "FINISHED" || t.status === "CANCELLED"; // no level is played after the end
    const games = F.games(c);  // FMT-16: the game of this level, and the next one's when it changes
    set("level-label", over ? "" : (c.is_break ? T.brk : c.level_number ? T.level + " " + c.level_number : "") + (games.now ? " · " + games.now : ""));
    if (over) { set("blinds", ""); set("ante", ""); }
    else if (c.small_blind !== null && c.small_blind !== undefined) {
      set("blinds", TDM.num(c.small_blind) + " / " + TDM.num(c.big_blind));
      set("ante", c.ante ? (c.ante_type === "BB_ANTE" ? T.bbAnte : T.ante) + " " + TDM.num(c.ante) : "");
    } else { set("blinds", c.is_break ? c.color_up || F.colourUp(T, c.removes_denominations) || T.brk : ""); set("ante", ""); }
    const n = c.next;
    set("next", !n || over ? "—" : n.is_break ? T.brk + " " + n.minutes + "′" : TDM.num(n.small_blind) + " / " + TDM.num(n.big_blind) + (n.ante ? " (" + TDM.num(n.ante) + ")" : "") + (games.next ? " · " + games.next : ""));
    set("players", s.entries ? TDM.num(s.players_left) + " / " + TDM.num(s.entries) : TDM.num(s.players_left));
    set("avg", TDM.num(s.average_stack));
    set("pool", s.prize_pool ? money(s.prize_pool, t.currency) : "—");
    set("latereg", s.late_registration_open ? T.open : T.closed);
    $("league-box").hidden = !s.league; // the player's standing in the league this tournament counts for
    if (s.league) set("league-text", fmt(T.league, { name: s.league.name, rank: s.league.rank, players: s.league.players, points: TDM.num(s.league.points, 2, 2) }));
    // the director's announcements as he wrote them, the event's changes in this page's language (FMT-02)
    const changes = (s.changes || {})[TDM.lang()] || (s.changes || {}).en || [];
    set("announce", [...(s.announcements || []), ...changes].join(" · "));
    // the director's latest announcement to this event's players (typed on the clock page)
    $("told-box").hidden = !s.players_told;
    if (s.players_told) set("told-text", s.players_told.text);
    const rows = (s.payouts || []).map((p) => [String(p.places), p.amount && Number(p.amount) ? money(p.amount, t.currency) : p.prize || ""]);
    const key = JSON.stringify([rows, e.place, out]);
    if (key !== lastLadder) {
      lastLadder = key;
      $("payouts").replaceChildren(...rows.map(([places, amount]) => {
        const li = document.createElement("li");
        const mine = out && e.place && inBand(places, e.place);
        if (mine) li.className = "mine";
        li.append(node("span", places + (mine ? " · " + T.you : "")), node("b", amount));
        return li;
      }));
    }
  }

  // PAY-02: a bounty event: the bounty on the player's head while playing, and what the
  // knockouts won, collected at the desk or still to collect, always in money.
  function renderBounty(s, e, t) {
    const b = s.bounty;
    $("phone-bounty").hidden = !b;
    if (!b) return;
    const head = b.head !== null && b.head !== undefined && e.status === "ACTIVE";
    $("phone-bounty-head-box").hidden = !head;
    if (head) set("phone-bounty-head", money(b.head, t.currency));
    set("phone-bounty-won", money(b.won, t.currency));
    set("phone-bounty-knockouts", b.knockouts ? fmt(T.knockouts, { n: TDM.num(b.knockouts) }) : "");
    const owed = Number(b.to_collect) > 0, collected = Number(b.collected) > 0;
    set("phone-bounty-collect", [owed ? fmt(T.toCollect, { amount: money(b.to_collect, t.currency) }) : "", collected ? fmt(T.collected, { amount: money(b.collected, t.currency) }) : ""].filter(Boolean).join(" · "));
    $("phone-bounty-collect").classList.toggle("owed", owed);
  }

  const initial = JSON.parse($("phone-state").textContent);
  const live = window.TDMLive({ base: "/p/" + encodeURIComponent(el.dataset.token), initial, onState: render });
  function tick() {
    const s = live.state.snap, c = s && s.clock;
    const over = s && (s.tournament.status === "FINISHED" || s.tournament.status === "CANCELLED");
    const left = over || !c ? null : live.secondsLeft(); // before the start: the first level in full
    set("clock", F.clock(left));
    $("clock").classList.toggle("low", left !== null && left <= 60 && c && !c.is_break);
    const toBreak = c && c.seconds_to_next_break;
    // "Next break in" counts down with the clock: the level's remaining time moves it too.
    set("next-break", toBreak === null || toBreak === undefined || over ? "—"
      : F.clock(c.status === "RUNNING" && left !== null ? Math.max(0, toBreak - (c.seconds_left - left)) : toBreak));
    $("conn").className = "conn " + (live.state.connected ? "ok" : "off");
  }
  render(initial);
  tick();
  setInterval(tick, 250);
})();

// The player's language, picked on the page: kept by this browser (the language cookie, a year)
// and, once the page reloads in it, by his notices (phone_push.js says it again to the server).
(function () {
  const pick = document.getElementById("phone-language-pick");
  if (!pick) return;
  pick.addEventListener("change", () => {
    document.cookie = "django_language=" + encodeURIComponent(pick.value) + "; path=/; max-age=31536000; samesite=lax";
    location.reload();
  });
})();
