// The lobby display: huge clock counted locally, everything else from the live snapshot.
(function () {
  const el = document.getElementById("screen");
  const $ = (id) => document.getElementById(id);
  const data = (id) => JSON.parse($(id).textContent);
  const D = { panels: data("display-panels") }, T = data("display-i18n"), F = window.TDMFormat;
  // Names come from the players: they are only ever written as text nodes.
  const node = (tag, text) => { const e = document.createElement(tag); e.textContent = text; return e; };
  let lastPayouts = null;
  const set = (id, v) => { const e = $(id); if (e && e.textContent !== String(v)) e.textContent = v; };
  let lastLevelKey = null, lastMinuteBeep = null, seatIndex = 0;

  function beep(freq, ms) {
    if (!D.panels.sounds) return;
    try {
      const ctx = new (window.AudioContext || window.webkitAudioContext)();
      const o = ctx.createOscillator(); o.frequency.value = freq; o.connect(ctx.destination); o.start();
      setTimeout(() => { o.stop(); ctx.close(); }, ms);
    } catch (e) { /* no audio */ }
  }

  function render(s) {
    const c = s.clock || {};
    document.body.classList.toggle("on-break", !!c.is_break);
    let status = "";
    if (c.status === "PAUSED") status = T.paused;
    else if (c.status === "HAND_FOR_HAND") status = T.h4h + " — " + T.hand + " " + c.h4h_hand;
    else if (c.status === "FINISHED") status = T.finished;
    else if (c.status === "NOT_STARTED") status = T.notStarted;
    set("status", status);
    set("level-label", c.is_break ? T.brk : T.level + " " + c.level_number);
    if (c.small_blind !== null && c.small_blind !== undefined) {
      set("blinds", F.num(c.small_blind) + " / " + F.num(c.big_blind));
      set("ante-label", c.ante_type === "BB_ANTE" ? T.bba : T.ante);
      set("ante", c.ante ? F.num(c.ante) : "—");
    } else { set("blinds", c.color_up ? T.colorUp + ": " + c.color_up : T.brk); set("ante", ""); }
    const n = c.next;
    set("next", !n ? "—" : n.is_break ? T.brk + " " + n.minutes + "′" : F.num(n.small_blind) + " / " + F.num(n.big_blind) + (n.ante ? " (" + F.num(n.ante) + ")" : ""));
    set("next-break", c.seconds_to_next_break === null || c.seconds_to_next_break === undefined ? "—" : F.clock(c.seconds_to_next_break));
    set("notice", c.new_level_notice ? T.newLevel : s.addon_open ? T.addon : "");
    set("players", F.num(s.players_left)); set("entries", F.num(s.entries));
    set("avg", F.num(s.average_stack)); set("chips", F.num(s.chips_in_play));
    set("pool", s.prize_pool ? F.num(s.prize_pool) + " " + s.tournament.currency : "—");
    // PAY-02: the figure is labelled gross or net; BOTH shows the gross on a line of its own.
    set("pool-label", s.prize_pool_label === "gross" ? T.gross : T.net);
    const grossBox = $("pool-gross-box");
    if (grossBox) {
      grossBox.hidden = s.prize_pool_show !== "BOTH";
      if (s.prize_pool_show === "BOTH") { set("pool-gross-label", T.gross); set("pool-gross", F.num(s.prize_pool_gross) + " " + s.tournament.currency); }
    }
    const jackpot = $("jackpot-box"); // REG-11: the progressive jackpot's fund, when this tournament plays for it
    if (jackpot) {
      jackpot.hidden = !s.jackpot;
      if (s.jackpot) set("jackpot", s.jackpot.locked ? T.jackpotWon : F.num(s.jackpot.fund) + " " + s.tournament.currency);
    }
    set("latereg", s.late_registration_open ? (s.late_registration_level ? T.open + " " + s.late_registration_level : "✓") : T.closed);
    const ol = $("payouts");
    if (ol && s.payouts) {
      const rows = s.payouts.slice(0, 12).map((p) => [String(p.places), F.num(p.amount)]);
      const key = JSON.stringify(rows);
      if (key !== lastPayouts) {
        lastPayouts = key;
        ol.replaceChildren(...rows.map(([places, amount]) => { const li = document.createElement("li"); li.append(node("span", places), node("b", amount)); return li; }));
      }
    }
    set("announce", (s.announcements || []).join(" · "));
    set("moves", (s.moves || []).map((m) => T.move + ": " + m.player + " " + m.from_table + "/" + m.from_seat + " → " + m.to_table + "/" + m.to_seat).join(" · "));
    const key = c.item_index + ":" + c.status;
    if (lastLevelKey !== null && key !== lastLevelKey && c.status === "RUNNING") beep(c.is_break ? 440 : 880, 600);
    lastLevelKey = key;
  }

  const live = window.TDMLive({ tournament: el.dataset.tournament, token: el.dataset.token, onState: render });
  function tick() {
    const left = live.secondsLeft();
    set("clock", F.clock(left));
    const s = live.state.snap;
    const c = s && s.clock;
    $("clock").classList.toggle("low", left !== null && left <= 60 && c && !c.is_break);
    if (c && c.status === "RUNNING" && left !== null && left <= 60 && left > 59 && lastMinuteBeep !== c.item_index) { lastMinuteBeep = c.item_index; beep(660, 300); }
    $("conn").className = "conn " + (live.state.connected ? "ok" : "off");
  }
  setInterval(tick, 200);
  // Rotating seat lookup: a page of seats every 8 seconds.
  setInterval(() => {
    const s = live.state.snap, box = $("seats");
    if (!box || !s || !s.seats || !s.seats.length) return;
    const page = s.seats.slice(seatIndex, seatIndex + 12);
    seatIndex = seatIndex + 12 >= s.seats.length ? 0 : seatIndex + 12;
    box.replaceChildren(...page.map((x) => { const span = node("span", x.name + " "); span.append(node("b", x.table + "/" + x.seat)); return span; }));
  }, 8000);
})();
