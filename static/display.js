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
  const parts = $("parts"), DESIGN = R.design || { layouts: {}, sounds: {}, speaker: false };
  // The blocks a switched-off panel leaves out (the screen's panels, as before layouts).
  const PANEL_KINDS = { blinds: ["blinds", "next"], stats: ["players", "stacks", "pool"], payouts: ["payouts", "bounties"], seats: ["seats"],
    announcements: ["announcements"], moves: ["moves"] };
  const omit = new Set(Object.entries(PANEL_KINDS).filter(([p]) => D.panels[p] === false).flatMap(([, kinds]) => kinds));
  // a layout names its images by id; their addresses are their digests (the same bytes for ever)
  const imageUrl = (id) => "/screens/images/" + encodeURIComponent((DESIGN.images || {})[String(id)] || "none") + ".png";
  // The speaker, and a second one saying each announcement again in the screen's second language
  // (its sounds left to the first; speech synthesis queues the two sentences one after the other).
  const speakers = !DESIGN.speaker ? [] : [window.TDMAnnouncer({ sounds: DESIGN.sounds, T: data("display-speech"), lang: LANG, spoken: (R.spoken || {})[LANG], key: el.dataset.token, log: $("announcer-log") })];
  if (speakers.length && R.second_language && $("display-speech-2")) {
    speakers.push(window.TDMAnnouncer({ sounds: DESIGN.sounds, T: data("display-speech-2"), lang: R.second_language, spoken: (R.spoken || {})[R.second_language], key: el.dataset.token + ":" + R.second_language, log: $("announcer-log"), second: true }));
  }
  const announcer = !speakers.length ? null : {
    observe: (s) => speakers.forEach((a) => a.observe(s)), tick: (s, left) => speakers.forEach((a) => a.tick(s, left)), test: (s) => speakers.forEach((a) => a.test(s)),
  };
  if (announcer) {
    const btn = $("sound-test");
    btn.hidden = false;
    btn.addEventListener("click", () => announcer.test(live && live.state.snap));
  }
  // Names come from the players: they are only ever written as text nodes.
  const node = (tag, text) => { const e = document.createElement(tag); e.textContent = text; return e; };
  const set = (id, v) => { const e = $(id); if (e && e.textContent !== String(v)) e.textContent = v; };
  const show = (id, on) => { const e = $(id); if (e && e.hidden === !!on) e.hidden = !on; };
  let lastPayouts = null, lastLeague = null, lastResults = null;
  // PAY-02: the last mystery envelope seen drawn (undefined: none seen yet) and until when it is shown.
  let seenDraw, drawUntil = 0;
  const DRAW_SHOWN_MS = 30000;
  const fill = (s, vals) => s.replace(/\{(\w+)\}/g, (_, k) => vals[k]);

  const blindsText = (n) => TDM.num(n.small_blind) + " / " + TDM.num(n.big_blind) + (n.ante ? " (" + TDM.num(n.ante) + ")" : "");
  const money = (amount, s) => TDM.money(amount, s.tournament.currency); // two decimals, grouped by the page's language

  function statusText(state, c, s) {
    switch (state) {
      case "planned": return T.comingUp;
      case "registering": return T.regOpen;
      case "waiting": return T.notStarted;
      case "paused": return T.paused;
      // CLK-06: the announcement says how many are left and how many are paid; once every
      // player left is paid it is the money, not a bubble, and the hand that reached it is the last.
      case "hand_for_hand": {
        const hand = s && s.h4h_last_hand ? T.h4hLastHand.replace("{n}", c.h4h_hand) : T.hand + " " + c.h4h_hand;
        const count = !(s && s.places_paid) ? "" : " · " + (s.h4h_in_the_money ? T.h4hMoney : T.h4hPaid).replace("{left}", TDM.num(s.players_left || 0)).replace("{paid}", TDM.num(s.places_paid));
        return T.h4h + " — " + hand + count;
      }
      case "finished": return T.finished;
      case "cancelled": return T.cancelled;
      default: return "";
    }
  }

  function renderStart(s, c) {
    // Before the start: when it starts (the countdown itself is in tick) and the first level.
    set("start-note", s.lobby_state === "registering" ? T.regOpenNote : T.regSoonNote);
    set("first-level", c.small_blind !== null && c.small_blind !== undefined
      ? T.firstLevel.replace("{blinds}", blindsText(c)).replace("{minutes}", c.minutes) : ""); // one sentence per language
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

  // The layout of the state shown: the break's during a break, the final table's at the final
  // table, else the live one (a state without a layout of its own shows the live one's).
  let shownLayout = null, lastCentred = null;
  function chooseLayout(s, c) {
    const L = DESIGN.layouts || {};
    const finalTable = s && s.tournament.status === "RUNNING" && s.tables_in_play === 1 && s.players_left > 1;
    const chosen = (c && c.is_break && L.break) || (finalTable && L.final) || L.live;
    if (!chosen || (shownLayout && shownLayout.key === chosen.key)) return;
    shownLayout = chosen;
    el.dataset.layout = chosen.key;
    el.classList.toggle("portrait", !!chosen.portrait);
    TDMLayout.apply(el, parts, chosen.design, { omit, imageUrl });
    // the results take the clock's place when the layout has no block of their own
    if (!el.querySelector('.block[data-kind="results"]')) {
      const clockBlock = el.querySelector('.block[data-kind="clock"]');
      if (clockBlock) clockBlock.append(parts.querySelector('.part[data-part="results"]') || $("end-view").parentElement);
    }
    lastPayouts = lastLeague = lastResults = lastBountyTop = lastChips = null;
  }

  // Which blocks have something to show in this state: the live figures while it plays, the
  // results once it ended, a bounty event's bounties, a league's standings…
  function blockShown(kind, s, state) {
    const before = state === "planned" || state === "registering", after = state === "finished" || state === "cancelled";
    switch (kind) {
      case "blinds": case "next": case "stacks": case "moves": return !before && !after;
      case "bounties": return !before && !after && !!s.bounty;
      case "results": return after;
      case "pool": case "payouts": return state !== "cancelled";
      case "league": return !!s.league;
      case "seats": return !after && !!s.seats_version;
      case "chips": return !!chipsOf(s).length;
      case "lastbust": return !!onAir.bust; // a stream's lower third: only while a bust is on
      case "finaltable": return !after && !!(s.final_table || []).length;
      case "payjumps": return !before && !after && !!s.players_left && !!prizeOf(s.players_left, s);
      case "ticker": return state !== "cancelled" && !!(s.payouts || []).length;
      default: return true;
    }
  }
  // Once the tournament has ended, the results take the place of the blocks they cover (the
  // only block a layout may place over others, tournaments/layouts.py).
  function underResults(b) {
    const over = el.querySelector('.block[data-kind="results"]');
    if (!over || over === b || el.dataset.state !== "finished" && el.dataset.state !== "cancelled") return false;
    const [ax, ay, aw, ah] = over.dataset.cells.split(",").map(Number), [bx, by, bw, bh] = b.dataset.cells.split(",").map(Number);
    return ax < bx + bw && bx < ax + aw && ay < by + bh && by < ay + ah;
  }
  // Blocks placed on the same cells that both have something to show (the payouts and a league's
  // standings on the classic screen) take turns, each shown whole for TURN_MS.
  const TURN_MS = 12000;
  let turnNo = 0;
  function takeTurns() {
    const groups = {};
    el.querySelectorAll(".block").forEach((b) => {
      b.classList.remove("waiting-turn");
      if (!b.hidden) (groups[b.style.gridArea] = groups[b.style.gridArea] || []).push(b);
    });
    Object.values(groups).filter((g) => g.length > 1).forEach((g) => g.forEach((b, i) => b.classList.toggle("waiting-turn", i !== turnNo % g.length)));
  }
  setInterval(() => { turnNo += 1; takeTurns(); TDMLayout.fit(el); }, TURN_MS);
  const chipsOf = (s) => ((shown.find((x) => String(x.id) === String(s.tournament.id)) || {}).chips || []);
  let lastChips = null;
  function renderChips(s) {
    const box = $("chipset"), rows = chipsOf(s), key = JSON.stringify(rows);
    if (!box || key === lastChips) return;
    lastChips = key;
    box.replaceChildren(...rows.map((d) => {
      const li = document.createElement("li"), dot = document.createElement("span");
      dot.className = "chip-dot";
      dot.style.backgroundColor = d.colour || "transparent"; // a colour name or #rrggbb, set through the CSS object model
      li.append(dot, node("span", TDM.num(d.value)), node("b", d.colour || ""));
      return li;
    }));
  }

  function render(s) {
    const c = s.clock || {}, state = s.lobby_state || "running";
    chooseLayout(s, c);
    el.dataset.state = state;
    el.querySelectorAll(".block").forEach((b) => { const on = blockShown(b.dataset.kind, s, state) && !underResults(b); if (b.hidden === on) b.hidden = !on; });
    takeTurns();
    renderChips(s);
    noteBusts(s);
    renderStream(s);
    if (announcer) announcer.observe(s);
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
    const note = c.is_break ? (c.color_up ? TDM.colon(T.colorUp, c.color_up) : F.colourUp(T, c.removes_denominations)) : "";
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
    set("side-pools", (s.side_pools || []).filter((p) => !p.fund).map((p) => TDM.colon(p.name, money(p.left, s))).join(" · "));
    // the director's announcements as he wrote them, the event's changes in this page's language (FMT-02)
    const changes = (s.changes || {})[TDM.lang()] || (s.changes || {}).en || [];
    set("announce", [...(s.announcements || []), ...changes].join(" · "));
    set("languages", s.official_languages ? T.languages.replace("{languages}", s.official_languages) : "");  // ROLE-06 (TDA 6)
    // CLK-06: a balancing move waiting for a table's hand-for-hand hand shows its tables: who moves is chosen once it is over.
    const moves = (s.moves || []).map((m) => TDM.colon(T.move, m.player + " " + m.from_table + "/" + m.from_seat + " → " + m.to_table + "/" + m.to_seat))
      .concat((s.moves_waiting || []).map((m) => fill(T.moveWaiting, { from: m.from_table, to: m.to_table })));
    set("moves", after ? "" : moves.join(" · "));
    if (!seatsShown) seatsPage();
    TDMLayout.fit(el);
    tick(); // the counted parts drawn with the rest, not up to a tick later
  }
  window.addEventListener("resize", () => TDMLayout.fit(el, true));

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

  // A stream's lower third (the "lastbust" block): each bust the page sees, newest last, shown for
  // the overlay's seconds one after the other (two busts together: the second after the first),
  // with the place and what that place wins. A bust older than its seconds when the page first
  // sees it (a reload) is not shown again; a bust undone while waiting is dropped.
  const OVERLAY = R.overlay || null;
  const BUST_MS = ((OVERLAY && OVERLAY.bust_seconds) || 12) * 1000;
  const onAir = { bust: null, until: 0, queue: [], seen: new Set() };
  function prizeOf(place, s) {
    for (const band of s.payouts || []) {
      const [from, to] = String(band.places).split(/[–-]/).map(Number);
      if (place >= from && place <= (to || from)) return band.prize || money(band.amount, s);
    }
    return "";
  }
  // A stream's blocks: the final table (seat, public name, chips as counted on the floor tools and
  // in big blinds, the chip leader marked), what the next places out win, a ticker of the payouts.
  let lastFinal = null, lastJumps = null;
  function renderStream(s) {
    const c = s.clock || {}, bb = c.big_blind || 0;
    const ft = $("final-table");
    if (ft) {
      const seats = s.final_table || [];
      const top = Math.max(0, ...seats.map((x) => x.chips || 0));
      const key = JSON.stringify([seats, bb]);
      if (key !== lastFinal) {
        lastFinal = key;
        ft.replaceChildren(...seats.map((x) => {
          const li = node("li", ""), leader = !!top && x.chips === top;
          li.classList.toggle("leader", leader);
          li.append(node("span", String(x.seat)), node("span", x.player));
          const chips = node("b", x.chips === null ? "—" : TDM.num(x.chips));
          if (x.chips !== null && bb) chips.append(node("small", " " + fill(T.bigBlinds, { n: TDM.num(Math.round(x.chips / bb * 10) / 10, 1, 0) })));
          li.append(chips);
          if (leader) li.setAttribute("aria-label", x.player + ", " + T.chipLeader);
          return li;
        }));
      }
    }
    const pj = $("pay-jumps");
    if (pj) {
      const jumps = [];
      for (let place = s.players_left || 0; place >= 1 && jumps.length < 3; place--) {
        const prize = prizeOf(place, s);
        if (prize) jumps.push(fill(T.placePays, { place, prize }));
      }
      const key = JSON.stringify(jumps);
      if (key !== lastJumps) { lastJumps = key; pj.replaceChildren(...jumps.map((j) => node("li", j))); }
    }
    set("ticker-text", (s.payouts || []).map((p) => p.places + ": " + (p.prize || money(p.amount, s))).join("   ·   "));
  }
  function noteBusts(s) {
    const now = live.serverNow();
    const busts = (s.last_busts || []).slice().reverse(); // oldest first
    const ids = new Set(busts.map((b) => b.id));
    onAir.queue = onAir.queue.filter((b) => ids.has(b.id));
    if (onAir.bust && !ids.has(onAir.bust.id) && busts.length && busts[busts.length - 1].id > onAir.bust.id) onAir.until = 0;
    for (const b of busts) {
      if (onAir.seen.has(b.id)) continue;
      onAir.seen.add(b.id);
      if (Date.parse(b.at) + BUST_MS > now) onAir.queue.push(Object.assign({ prize: prizeOf(b.place, s) }, b));
    }
    drawBust();
  }
  function drawBust() {
    if (!$("lower-third")) return;
    const now = Date.now();
    if (onAir.bust && now < onAir.until) return;
    onAir.bust = onAir.queue.shift() || null;
    onAir.until = onAir.bust ? now + BUST_MS : 0;
    const b = onAir.bust;
    set("lt-name", b ? b.player : "");
    set("lt-place", b && b.place ? fill(T.bustPlace, { place: b.place }) : "");
    set("lt-prize", b && b.prize ? fill(T.bustPrize, { prize: b.prize }) : "");
    $("lower-third").hidden = !b;
    const block = $("lower-third").closest(".block");
    if (block) block.hidden = !b;
    if (b) TDMLayout.fit(el, true);
  }

  let live = null, turn = 0, seatsShown = false;
  const SEAT_PAGE = 48, SHOWN = 12; // seats a request brings, seats a turn of the lookup shows
  let seatBuf = { tournament: null, version: -1, page: 1, pages: 1, rows: [], index: 0 }, seatsBusy = false;
  const shown = R.tournaments || [];
  function follow(i) {
    if (live) live.close();
    turn = i;
    lastPayouts = lastResults = lastBountyTop = lastChips = lastFinal = lastJumps = null; seatsShown = false;
    seenDraw = undefined; drawUntil = 0;
    seatBuf = { tournament: null, version: -1, page: 1, pages: 1, rows: [], index: 0 };
    const t = shown[i] || { id: el.dataset.tournament };
    el.dataset.tournament = t.id;
    if (t.name) set("t-name", t.name);
    set("rotation", shown.length > 1 ? (i + 1) + " / " + shown.length : "");
    onAir.bust = null; onAir.until = 0; onAir.queue = []; onAir.seen = new Set();
    // an overlay runs its stream's delay behind the room: each state, and the clock, that late
    live = window.TDMLive({ tournament: t.id, token: el.dataset.token, onState: render, delay: OVERLAY ? OVERLAY.delay : 0 });
  }
  if (OVERLAY) { // OBS draws the page at the overlay's size: the layout takes exactly that
    el.style.width = OVERLAY.width + "px";
    el.style.height = OVERLAY.height + "px";
    // the director's preview: the overlay over a checkerboard, where the video will be
    document.documentElement.classList.toggle("checkerboard", location.hash === "#checkerboard");
  }
  chooseLayout(null, null);
  follow(0);
  // The layout editor's preview: the editor sends the design being made (same origin only) and
  // the screen draws it at once on the chosen tournament's live data.
  if (el.dataset.preview) {
    window.addEventListener("message", (e) => {
      if (e.origin !== location.origin || !e.data || !e.data.tdmLayout) return;
      const d = e.data.tdmLayout;
      DESIGN.layouts = { live: { key: "preview:" + Date.now(), design: d.design, portrait: !!d.portrait } };
      const snap = live && live.state.snap;
      chooseLayout(snap, snap && snap.clock);
      if (snap) render(snap);
    });
  }
  if (shown.length > 1) setInterval(() => follow((turn + 1) % shown.length), Math.max(5, R.seconds || 20) * 1000);
  // The director may change what the screen shows (displays page): look every 30 s, reload on a change.
  if (!el.dataset.preview) setInterval(async () => {
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
    if (announcer && s) announcer.tick(s, left);
    TDMLayout.fit(el); // a text the tick changed (the next break's countdown) that no longer fits its block
    // a discreet mark: green while the server's state streams in, red while the screen counts alone
    const onAir = live.state.connected && !(s && s.local);
    $("conn").className = "conn " + (onAir ? "ok" : "off");
    $("conn").title = onAir ? T.live : T.notLive;
    drawTick();
    drawBust();
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
