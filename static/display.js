// The lobby display: huge clock counted locally, everything else from the live snapshot.
// Each state of a tournament has its picture (snapshot.lobby_state): before the start the start
// time, while running the clock, after the end the winner and the results, or the cancellation.
// A screen may rotate between several tournaments, each followed live in its turn.
(function () {
  const el = document.getElementById("screen");
  const $ = (id) => document.getElementById(id);
  const data = (id) => JSON.parse($(id).textContent);
  const D = { panels: data("display-panels") }, T = data("display-i18n"), F = window.TDMFormat;
  const R = data("display-rotation");
  const LANG = document.documentElement.lang || undefined;
  const ZONE = el.dataset.zone || undefined; // the room's time zone (TIME_ZONE)
  // Names come from the players: they are only ever written as text nodes.
  const node = (tag, text) => { const e = document.createElement(tag); e.textContent = text; return e; };
  const set = (id, v) => { const e = $(id); if (e && e.textContent !== String(v)) e.textContent = v; };
  const show = (id, on) => { const e = $(id); if (e && e.hidden === !!on) e.hidden = !on; };
  let lastPayouts = null, lastLeague = null, lastResults = null, lastLevelKey = null, lastMinuteBeep = null;
  // PAY-02: the last mystery envelope seen drawn (undefined: none seen yet) and until when it is shown.
  let seenDraw, drawUntil = 0;
  const DRAW_SHOWN_MS = 30000;
  const fill = (s, vals) => s.replace(/\{(\w+)\}/g, (_, k) => vals[k]);

  function beep(freq, ms) {
    if (!D.panels.sounds) return;
    try {
      const ctx = new (window.AudioContext || window.webkitAudioContext)();
      const o = ctx.createOscillator(); o.frequency.value = freq; o.connect(ctx.destination); o.start();
      setTimeout(() => { o.stop(); ctx.close(); }, ms);
    } catch (e) { /* no audio */ }
  }

  const blindsText = (n) => TDM.num(n.small_blind) + " / " + TDM.num(n.big_blind) + (n.ante ? " (" + TDM.num(n.ante) + ")" : "");
  const money = (amount, s) => TDM.money(amount, s.tournament.currency); // two decimals, grouped by the page's language

  function statusText(state, c, s) {
    switch (state) {
      case "planned": return T.comingUp;
      case "registering": return T.regOpen;
      case "waiting": return T.notStarted;
      case "paused": return T.paused;
      // CLK-06: the announcement says how many are left and how many are paid.
      case "hand_for_hand": return T.h4h + " — " + T.hand + " " + c.h4h_hand + (s && s.places_paid ? " · " + T.h4hPaid.replace("{left}", TDM.num(s.players_left || 0)).replace("{paid}", TDM.num(s.places_paid)) : "");
      case "finished": return T.finished;
      case "cancelled": return T.cancelled;
      default: return "";
    }
  }

  function renderStart(s, c) {
    // Before the start: when it starts (the countdown itself is in tick) and the first level.
    set("start-note", s.lobby_state === "registering" ? T.regOpenNote : T.regSoonNote);
    set("first-level", c.small_blind !== null && c.small_blind !== undefined
      ? T.firstLevel + ": " + blindsText(c) + " · " + c.minutes + "′" : "");
  }

  function renderEnd(s) {
    const cancelled = s.lobby_state === "cancelled";
    const results = s.results || [], won = s.won || {};
    const first = results.filter((r) => r.place === 1);
    set("end-label", cancelled ? T.cancelled : first.length > 1 ? T.winners : T.winner);
    set("winner", cancelled ? "" : first.map((r) => r.player).join(" · "));
    const prizeOf = (r) => { const w = won[String(r.entry)]; if (!w) return ""; return [Number(w.amount) ? money(w.amount, s) : "", w.prize].filter(Boolean).join(" + "); };
    set("winner-prize", cancelled ? T.cancelledNote : first.length === 1 ? prizeOf(first[0]) : "");
    const rows = cancelled ? [] : results.filter((r) => r.place !== 1 || first.length > 1).map((r) => [r.place + ".", r.player, prizeOf(r)]);
    const key = JSON.stringify(rows);
    if (key !== lastResults) {
      lastResults = key;
      $("results").replaceChildren(...rows.map(([place, name, prize]) => { const li = document.createElement("li"); li.append(node("span", place), node("span", name), node("b", prize)); return li; }));
    }
  }

  function render(s) {
    const c = s.clock || {}, state = s.lobby_state || "running";
    el.dataset.state = state;
    set("t-name", s.tournament.name);
    document.title = s.tournament.name;
    const before = state === "planned" || state === "registering", after = state === "finished" || state === "cancelled";
    show("live-view", !before && !after); show("start-view", before); show("end-view", after);
    document.body.classList.toggle("on-break", state === "break");
    set("status", statusText(state, c, s));
    const finalTable = s.tournament.status === "RUNNING" && s.tables_in_play === 1 && s.players_left > 1;
    show("badge", finalTable); set("badge", finalTable ? T.finalTable : "");
    if (before) renderStart(s, c);
    if (after) renderEnd(s);
    const games = F.games(c);  // FMT-16: the game of this level, and the next one's when it changes
    set("level-label", (c.is_break ? T.brk : T.level + " " + (c.level_number || 1)) + (games.now ? " · " + games.now : ""));
    if (c.small_blind !== null && c.small_blind !== undefined) {
      set("blinds", TDM.num(c.small_blind) + " / " + TDM.num(c.big_blind));
      set("ante-label", c.ante_type === "BB_ANTE" ? T.bba : T.ante);
      set("ante", c.ante ? TDM.num(c.ante) : "—");
    }
    // A break: the colour-up note (typed by the director, or the chips its structure removes)
    // in its own line, in type that fits; the blinds and the ante have nothing to say then.
    const note = c.is_break ? (c.color_up ? T.colorUp + ": " + c.color_up : F.colourUp(T, c.removes_denominations)) : "";
    if ($("blinds-row")) $("blinds-row").hidden = !!c.is_break;
    if ($("break-note")) { $("break-note").hidden = !note; set("break-note", note || ""); }
    const n = c.next;
    set("next", !n ? "—" : n.kind === "break" ? T.brk + " " + n.minutes + "′" : blindsText(n) + (games.next ? " · " + games.next : ""));
    set("notice", state === "waiting" ? T.waitingNote : c.new_level_notice ? T.newLevel : s.addon_open ? T.addon : "");
    set("players", TDM.num(s.players_left)); set("entries", TDM.num(s.entries));
    set("avg", TDM.num(s.average_stack)); set("chips", TDM.num(s.chips_in_play));
    set("pool", s.prize_pool ? money(s.prize_pool, s) : "—");
    // PAY-02: the figure is labelled gross or net; BOTH shows the gross on a line of its own.
    set("pool-label", s.prize_pool_label === "gross" ? T.gross : T.net);
    const grossBox = $("pool-gross-box");
    if (grossBox) {
      grossBox.hidden = s.prize_pool_show !== "BOTH";
      if (s.prize_pool_show === "BOTH") { set("pool-gross-label", T.gross); set("pool-gross", money(s.prize_pool_gross, s)); }
    }
    const jackpot = $("jackpot-box"); // REG-11: the progressive jackpot's fund, when this tournament plays for it
    if (jackpot) {
      jackpot.hidden = !s.jackpot;
      if (s.jackpot) set("jackpot", s.jackpot.locked ? T.jackpotWon : money(s.jackpot.fund, s));
    }
    set("latereg", s.late_registration_open ? (s.late_registration_level ? T.open + " " + s.late_registration_level : "✓") : T.closed);
    const league = $("league-box"); // the standings of the league this tournament counts for
    if (league) {
      league.hidden = !s.league;
      if (s.league) {
        set("league-name", s.league.name + " · " + T.season + " " + s.league.season);
        const rows = s.league.top.map((l) => [String(l.rank), l.name, TDM.num(l.points, 2, 2)]);
        const key = JSON.stringify(rows);
        if (key !== lastLeague) {
          lastLeague = key;
          $("league").replaceChildren(...rows.map(([rank, name, points]) => {
            const li = document.createElement("li"); li.append(node("span", rank + ". " + name), node("b", points)); return li;
          }));
        }
      }
    }
    const ol = $("payouts");
    // PAY-05: the table locked when registration closed is the final one; before, it follows the entries.
    if (s.payout_table_state) set("payouts-state", s.payout_table_state === "LOCKED" ? T.payoutsLocked : T.payoutsProvisional);
    if (ol && s.payouts) {
      const rows = s.payouts.slice(0, 12).map((p) => [String(p.places), money(p.amount, s)]);
      const key = JSON.stringify(rows);
      if (key !== lastPayouts) {
        lastPayouts = key;
        ol.replaceChildren(...rows.map(([places, amount]) => { const li = document.createElement("li"); li.append(node("span", places), node("b", amount)); return li; }));
      }
    }
    renderBounty(s);
    // REG-10: the side prizes (the Last Longer among them) are announced with the payouts.
    set("side-pools", (s.side_pools || []).filter((p) => !p.fund).map((p) => p.name + ": " + money(p.left, s)).join(" · "));
    // the director's announcements as he wrote them, the event's changes in this page's language (FMT-02)
    const changes = (s.changes || {})[TDM.lang()] || (s.changes || {}).en || [];
    set("announce", [...(s.announcements || []), ...changes].join(" · "));
    set("languages", s.official_languages ? T.languages + ": " + s.official_languages : "");  // ROLE-06 (TDA 6)
    set("moves", after ? "" : (s.moves || []).map((m) => T.move + ": " + m.player + " " + m.from_table + "/" + m.from_seat + " → " + m.to_table + "/" + m.to_seat).join(" · "));
    const key = c.item_index + ":" + c.status;
    if (lastLevelKey !== null && key !== lastLevelKey && c.status === "RUNNING") beep(c.is_break ? 440 : 880, 600);
    lastLevelKey = key;
    if (!seatsShown) seatsPage();
    fitValues();
    sideTurns();
    tick(); // the counted parts drawn with the rest, not up to a tick later
  }

  // A figure too wide for its box (a big field's chips, a long currency) is set in smaller type,
  // never cut: from its stylesheet size down to 60 % of it.
  function fitValues() {
    document.querySelectorAll(".stats .value").forEach((v) => {
      v.style.fontSize = "";
      const full = parseFloat(getComputedStyle(v).fontSize);
      for (let f = full; v.scrollWidth > v.clientWidth + 1 && f > full * 0.6; f -= full * 0.05) v.style.fontSize = f + "px";
    });
  }

  // The right column (stats, payouts, league): when its panels do not all fit on the screen
  // they take turns, one panel at a time, each shown in full (never a league cut after 3 rows).
  let sideTurn = 0;
  const SIDE_TURN_MS = 12000;
  function sideTurns() {
    const side = document.querySelector(".side");
    if (!side) return;
    side.classList.remove("turns");
    side.style.removeProperty("--fit");
    const panels = [...side.children].filter((p) => { p.classList.remove("turn-on"); return !p.hidden && getComputedStyle(p).display !== "none"; });
    if (panels.length < 2 || side.scrollHeight <= side.clientHeight + 1) return;
    side.classList.add("turns");
    panels[sideTurn % panels.length].classList.add("turn-on");
    // a panel of long lines (a league's names wrapping) is set a little smaller to be seen whole
    for (let k = 19; k >= 15 && side.scrollHeight > side.clientHeight + 1; k--) side.style.setProperty("--fit", String(k / 20));
  }
  setInterval(() => { sideTurn += 1; sideTurns(); }, SIDE_TURN_MS);

  // PAY-02: a bounty event's panel, in money: the bounty pool, what the knockouts paid, and the
  // biggest bounties on the heads still playing (fixed, PKO) or the envelopes left (mystery).
  let lastBountyTop = null;
  function renderBounty(s) {
    const box = $("bounty-panel"), b = s.bounty;
    if (!box) return;
    box.hidden = !b;
    showDraw(s);
    if (!b) return;
    set("bounty-kind", T["bounty" + b.kind] || "");
    set("bounty-pool", money(b.pool, s));
    set("bounty-paid", money(b.paid, s));
    const mystery = b.kind === "MYSTERY", counted = mystery && b.envelopes_left !== null && b.envelopes_left !== undefined;
    show("mystery-left-box", counted);
    if (counted) set("mystery-left", TDM.num(b.envelopes_left) + " · " + money(b.envelopes_left_amount, s));
    const d = mystery ? b.last_draw : null;
    set("mystery-last", d ? fill(T.lastEnvelope, { number: d.envelope, amount: money(d.amount, s), names: d.names.join(" · ") }) : "");
    const rows = (b.top || []).map((h) => [h.name, money(h.amount, s)]);
    const key = JSON.stringify(rows);
    if (key !== lastBountyTop) {
      lastBountyTop = key;
      $("bounty-top").replaceChildren(...rows.map(([name, amount]) => { const li = document.createElement("li"); li.className = "bounty"; li.append(node("span", name), node("b", amount)); return li; }));
    }
  }

  // A mystery envelope drawn is shown large over the clock for a while: when the snapshot brings
  // a draw this screen has not seen (on the first snapshot, only a draw of the last moments).
  function showDraw(s) {
    const box = $("mystery-draw");
    if (!box) return;
    const d = s.bounty && s.bounty.kind === "MYSTERY" ? s.bounty.last_draw : null;
    if (d && d.id !== seenDraw) {
      const fresh = seenDraw !== undefined || live.serverNow() - Date.parse(d.at) < DRAW_SHOWN_MS;
      seenDraw = d.id;
      if (fresh) {
        drawUntil = Date.now() + DRAW_SHOWN_MS;
        set("mystery-draw-envelope", fill(T.envelope, { number: d.envelope }));
        set("mystery-draw-amount", money(d.amount, s));
        set("mystery-draw-names", d.names.join(" · "));
      }
    } else if (!d) seenDraw = null;
    drawTick();
  }
  function drawTick() {
    const box = $("mystery-draw");
    if (!box) return;
    const on = Date.now() < drawUntil;
    if (box.hidden === on) box.hidden = !on;
    el.classList.toggle("drawing", on);
  }

  function startTick(s) {
    // Counts down to the scheduled start while it is ahead (under a day); past it, the time.
    const at = s.tournament.start_at ? new Date(s.tournament.start_at) : null;
    if (!at) { set("start-label", ""); set("start-time", "--:--"); set("start-date", ""); return; }
    // In the room's time zone, whatever the TV's own clock is set to.
    const hhmm = at.toLocaleTimeString(LANG, { hour: "2-digit", minute: "2-digit", timeZone: ZONE });
    const day = at.toLocaleDateString(LANG, { weekday: "long", day: "numeric", month: "long", timeZone: ZONE });
    const ahead = (at.getTime() - live.serverNow()) / 1000;
    if (ahead > 0 && ahead < 86400) { set("start-label", T.startsIn); set("start-time", F.clock(ahead)); set("start-date", day + " · " + hhmm); }
    else { set("start-label", T.startsAt); set("start-time", hhmm); set("start-date", day); }
  }

  let live = null, turn = 0, seatsShown = false;
  const SEAT_PAGE = 48, SHOWN = 12; // seats a request brings, seats a turn of the lookup shows
  let seatBuf = { tournament: null, version: -1, page: 1, pages: 1, rows: [], index: 0 }, seatsBusy = false;
  const shown = R.tournaments || [];
  function follow(i) {
    if (live) live.close();
    turn = i;
    lastPayouts = lastResults = lastLevelKey = lastMinuteBeep = lastBountyTop = null; seatsShown = false;
    seenDraw = undefined; drawUntil = 0;
    seatBuf = { tournament: null, version: -1, page: 1, pages: 1, rows: [], index: 0 };
    const t = shown[i] || { id: el.dataset.tournament };
    el.dataset.tournament = t.id;
    if (t.name) set("t-name", t.name);
    set("rotation", shown.length > 1 ? (i + 1) + " / " + shown.length : "");
    live = window.TDMLive({ tournament: t.id, token: el.dataset.token, onState: render });
  }
  follow(0);
  if (shown.length > 1) setInterval(() => follow((turn + 1) % shown.length), Math.max(5, R.seconds || 20) * 1000);
  // The director may change what the screen shows (displays page): look every 30 s, reload on a change.
  setInterval(async () => {
    try {
      const r = await TDM.request(location.pathname + "?config=1", { cache: "no-store" });
      // the screen's token revoked or replaced: reload, which shows the refusal instead of stale data
      if (r.status === 404 || r.status === 403 || (r.ok && JSON.stringify(await r.json()) !== JSON.stringify(R))) location.reload();
    } catch (e) { /* offline: keep showing what it shows */ }
  }, 30000);

  function tick() {
    if (!live) return;
    const s = live.state.snap;
    const c = s && s.clock;
    if (s && (s.lobby_state === "planned" || s.lobby_state === "registering")) startTick(s);
    const left = live.secondsLeft();
    set("clock", F.clock(left));
    const counting = c && (c.status === "RUNNING" || c.status === "HAND_FOR_HAND");
    $("clock").classList.toggle("low", !!counting && left !== null && left <= 60 && !c.is_break);
    $("clock").classList.toggle("frozen", !!c && (c.status === "PAUSED" || c.status === "NOT_STARTED"));
    if (c && c.next_break_index !== undefined) set("next-break", c.next_break_index === null ? "—" : F.clock(live.secondsToBreak()));
    if (c && c.status === "RUNNING" && left !== null && left <= 60 && left > 59 && lastMinuteBeep !== c.item_index) { lastMinuteBeep = c.item_index; beep(660, 300); }
    $("conn").className = "conn " + (live.state.connected ? "ok" : "off");
    drawTick();
  }
  setInterval(tick, 200);
  // Rotating seat lookup: 12 seats every 8 seconds (the first as soon as the seats are known),
  // alphabetical. The snapshot carries only the seats' version; the seats come a page of
  // SEAT_PAGE at a time from /live/<id>/seats/, fetched when the screen has shown the page it
  // holds or when the snapshot says the seats changed (a newer seats_version), never otherwise.
  async function fetchSeats(tid, page) {
    const qs = "?page=" + page + "&size=" + SEAT_PAGE + (el.dataset.token ? "&token=" + encodeURIComponent(el.dataset.token) : "");
    try {
      const r = await TDM.request("/live/" + tid + "/seats/" + qs, { cache: "no-store" });
      if (!r.ok) return false;
      const d = await r.json();
      if (String(el.dataset.tournament) !== String(tid)) return false; // the screen rotated meanwhile
      seatBuf = { tournament: tid, version: d.seats_version, page: d.page, pages: d.pages, rows: d.seats || [], index: seatBuf.index };
      return true;
    } catch (e) { return false; } // offline: show what it holds
  }
  async function seatsPage() {
    const s = live && live.state.snap, box = $("seats");
    if (!box || seatsBusy) return;
    if (!s || !s.seats_version || s.lobby_state === "finished" || s.lobby_state === "cancelled") { box.replaceChildren(); return; }
    seatsShown = true;
    seatsBusy = true;
    try {
      const tid = el.dataset.tournament;
      if (seatBuf.tournament !== tid) {
        seatBuf.index = 0;
        await fetchSeats(tid, 1);
      } else if (seatBuf.index >= seatBuf.rows.length) { // this page shown: the next one (after the last, the first)
        seatBuf.index = 0;
        await fetchSeats(tid, seatBuf.page >= seatBuf.pages ? 1 : seatBuf.page + 1);
      } else if (s.seats_version > seatBuf.version) { // somebody was seated, moved or out: this page again
        await fetchSeats(tid, seatBuf.page);
      }
      if (seatBuf.tournament !== tid) return;
      if (seatBuf.index >= seatBuf.rows.length && seatBuf.page > 1) { seatBuf.index = 0; await fetchSeats(tid, 1); } // the field shrank
      const rows = seatBuf.rows.slice(seatBuf.index, seatBuf.index + SHOWN);
      box.replaceChildren(...rows.map((x) => { const span = node("span", x.name + " "); span.append(node("b", x.table + "/" + x.seat)); return span; }));
      // as many as the footer has room for, never a name cut at the edge: the next turn goes on from there
      while (box.childElementCount > 1 && (box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1)) box.lastElementChild.remove();
      seatBuf.index += box.childElementCount || SHOWN;
    } finally { seatsBusy = false; }
  }
  setInterval(seatsPage, 8000);
})();
