// The cashier desk: two letters, pick the player, one click to sell, the receipt opens.
(function () {
  const T = JSON.parse(document.getElementById("desk-i18n").textContent);
  const $ = (s) => document.querySelector(s);
  let person = null, entries = [], searchTimer = null, seq = 0;

  // One idempotency key per form (this sale for this player in this tournament, this
  // receipt's reversal…), held until the form succeeds: a click after a lost answer or a
  // refusal sends the same key, so a sale the server made is replayed, never charged twice,
  // even if the cashier changed the payment method meanwhile (the server then answers that
  // the key was used for another request: the desk forgets it and shows what was sold).
  const api = (path, opts = {}) => TDM.api(path, { ...opts, once: true });
  const KEY_DONE = TDM.KEY_DONE;
  // The page's data attributes and the API's answers are machine numbers ("110.00"); what the
  // cashier reads is written in the page's language ("110,00"), a rate with the decimals it has.
  const rateText = (value) => TDM.num(value, 6, 2);
  const money = (value, currency) => TDM.money(value, currency);
  const tid = () => Number($("#tournament").value); // an id is a JSON number (a string is refused, 400)
  const method = () => $("#method").value;
  const tender = () => $("#tender").value; // REG-06: "" (the tournament's currency), USD or CHF
  function say(text, ok) { const m = $("#message"); m.textContent = text; m.className = "message " + (ok ? "ok" : "error"); }

  // The search is a combobox (WAI-ARIA 1.2): focus stays in the field, ArrowDown/ArrowUp move
  // the line Enter takes (aria-activedescendant), Escape closes the list. The list always
  // answers what is typed now: Enter typed before the answer of the last letters came back
  // waits for it, so it never takes the first line of an older list.
  let shownFor = "", searching = null, found = [], active = -1;
  const box = $("#search"), list = $("#results");
  function show(people) {
    found = people; active = people.length ? 0 : -1;
    list.replaceChildren(...people.map((p, i) => {
      const li = document.createElement("li");
      li.id = "result-" + i; li.setAttribute("role", "option");
      li.textContent = p.display_name + (p.document_id ? " · " + p.document_id : "") + (p.phone ? " · " + p.phone : "");
      if (p.banned) { li.classList.add("banned"); li.textContent += " — " + T.banned; }
      li.addEventListener("click", () => pick(p));
      return li;
    }));
    box.setAttribute("aria-expanded", people.length ? "true" : "false");
    mark();
  }
  function mark() { // the line Enter takes, announced as the combobox's active option
    list.querySelectorAll("li[role=option]").forEach((li, i) => li.setAttribute("aria-selected", i === active ? "true" : "false"));
    if (active >= 0) { box.setAttribute("aria-activedescendant", "result-" + active); $("#result-" + active).scrollIntoView({ block: "nearest" }); }
    else box.removeAttribute("aria-activedescendant");
  }
  function clear() { ++seq; shownFor = ""; show([]); $("#nobody-found").hidden = true; }
  function search(q) {
    const mine = ++seq;
    searching = (async () => {
      const r = await api("people/?q=" + encodeURIComponent(q) + "&limit=12");
      if (mine !== seq || !r.ok) return;
      show(r.data);
      nobody(r.data.length ? "" : q);
      shownFor = q;
    })();
    return searching;
  }
  // Nobody matches: say so, and offer the new-player form with what was typed as the name.
  function nobody(q) {
    const p = $("#nobody-found");
    p.hidden = !q;
    if (!q) { p.replaceChildren(); return; }
    const b = document.createElement("button");
    b.type = "button"; b.id = "add-new-person"; b.textContent = T.addNew;
    b.addEventListener("click", () => {
      const words = q.split(/\s+/), form = $("#personform");
      form.elements.first_name.value = words[0] || "";
      form.elements.last_name.value = words.slice(1).join(" ");
      $("#newperson").open = true;
      (words.length > 1 ? form.elements.nickname : form.elements.last_name).focus();
    });
    p.replaceChildren(T.nobody.replace("{q}", q) + " ", b);
  }
  box.addEventListener("input", () => {
    clearTimeout(searchTimer);
    const q = box.value.trim();
    if (q.length < 2) { clear(); return; }
    searchTimer = setTimeout(() => search(q), 120);
  });
  box.addEventListener("keydown", async (e) => {
    if ((e.key === "ArrowDown" || e.key === "ArrowUp") && found.length) {
      e.preventDefault();
      active = (active + (e.key === "ArrowDown" ? 1 : found.length - 1)) % found.length;
      mark();
      return;
    }
    if (e.key === "Escape") { clear(); return; }
    if (e.key !== "Enter") return;
    e.preventDefault();
    const q = box.value.trim();
    if (q.length < 2) return;
    if (shownFor !== q) { clearTimeout(searchTimer); await search(q); }
    if (box.value.trim() !== q) return; // typed on meanwhile
    if (active >= 0) pick(found[active]);
  });

  async function pick(p) {
    person = p;
    clear();
    box.focus(); // the next player, or Tab on to the sale: the cashier's hands stay on the keys
    $("#player").hidden = false;
    $("#player-name").textContent = p.display_name + (p.banned ? " — " + TDM.colon(T.banned, p.banned_reason) : "");
    $("#player-name").className = p.banned ? "banned" : "";
    say("", true);
    await refreshPlayer();
  }

  // Each sale button as the server's rules answer it for this player now (cashier/offers/: the
  // sale's own checks): hidden where the event's format never sells it, disabled with the
  // refusal's reason beside it where it is refused now. No answer: every button stays, and the
  // sale's refusal says why.
  let offers = null;
  const buttonTitles = new Map();
  async function loadOffers() {
    const r = await api("cashier/offers/?tournament=" + tid() + "&person=" + person.id);
    offers = r.ok ? r.data.offers : null;
  }
  function showOffers() {
    const notes = [];
    document.querySelectorAll("#player button[data-op]").forEach((b) => {
      const o = offers && offers[b.dataset.op];
      if (!buttonTitles.has(b)) buttonTitles.set(b, b.title);
      b.hidden = !!o && !o.sold;
      b.disabled = !!o && o.sold && !o.allowed;
      b.title = b.disabled ? o.reason : buttonTitles.get(b);
      if (!b.disabled) { b.removeAttribute("aria-describedby"); return; }
      const li = document.createElement("li");
      li.id = "not-now-" + b.dataset.op;
      li.textContent = TDM.colon(b.textContent, o.reason);
      b.setAttribute("aria-describedby", li.id);
      notes.push(li);
    });
    $("#not-now").replaceChildren(...notes);
    if (!navigator.onLine) document.querySelectorAll("#player button[data-op]").forEach((b) => { b.disabled = true; }); // no server: no sale
  }

  async function refreshPlayer() {
    if (!person) return;
    const [r] = await Promise.all([api("tournaments/" + tid() + "/entries/?person=" + person.id), loadOffers()]);
    showOffers();
    entries = r.ok ? r.data : [];
    const live = entries.filter((e) => e.status === "ACTIVE" || e.status === "RESERVED");
    const parts = entries.filter((e) => e.status !== "CANCELLED").map((e) => {
      const label = e.status === "ACTIVE" ? T.playing : e.status === "BUSTED" ? T.busted : e.status === "RESERVED" ? T.reserved : e.status;
      return label + " #" + e.number + (e.seat ? " — " + T.seatShort.replace("{t}", e.seat.table).replace("{s}", e.seat.seat) : "") + (e.rebuys ? " R" + e.rebuys : "") + (e.addons ? " A" + e.addons : "") + (e.rebuy_declared_at ? " — " + T.rebuyOwed : "");
    });
    $("#player-status").textContent = parts.length ? parts.join(" · ") : T.none;
    document.dispatchEvent(new CustomEvent("tdm:desk-player", { detail: { person, entries } })); // desk_checkin.js (REG-02)
    return live;
  }
  window.TDMDesk = { refresh: () => refreshPlayer(), sales: () => refreshDesk(), say, tournament: () => tid(), api }; // sales: the last sales and the shift; api: one idempotency key per form

  function currentEntry() {
    return entries.find((e) => e.status === "ACTIVE") || entries.filter((e) => e.status === "BUSTED").slice(-1)[0];
  }

  // The desk through a Wi-Fi drop: money is never taken without the server. While it has none,
  // the desk says so and takes no sale. A sale whose answer was lost (the network dropped
  // mid-way) is sent again with its same key when the network returns: the server answers what
  // it did (the first answer) or does it now, once; the cashier sees "done" or "not done" only
  // then, never before.
  let lost = null;
  const offline = () => !navigator.onLine;
  function showOffline() {
    $("#desk-offline").hidden = !offline();
    showOffers();
  }
  function showLost(text, ok) {
    const m = $("#desk-lost");
    m.hidden = !text;
    m.textContent = text || "";
    m.className = "card message" + (ok === true ? " ok" : ok === false ? " error" : "");
  }
  async function settle() {
    if (!lost || offline()) return;
    const s = lost;
    let r;
    try { r = await api(s.path, { method: "POST", body: JSON.stringify(s.body), form: s.form }); } catch (e) { return; } // still no answer: later
    lost = null;
    if (r.ok) showLost(T.lostDone + (r.data.receipt ? " — " + T.receipt + " #" + r.data.receipt.receipt_number + " — " + money(r.data.receipt.total, r.data.receipt.currency) : ""), true);
    else showLost(TDM.colon(T.lostNotDone, r.data.detail || r.data.code), false);
    await refreshPlayer();
    await refreshDesk();
  }
  window.addEventListener("offline", showOffline);
  window.addEventListener("online", () => { showOffline(); settle(); });
  if (offline()) showOffline();

  async function sell(op, btn) {
    if (!person) return;
    if (offline()) { say(T.offlineNoSale, false); showOffline(); return; }
    btn.disabled = true; // no double charge from a double click: the key below also guards retries
    try {
      let path, body;
      const entry = currentEntry();
      if (op === "register") { path = "cashier/register/"; body = { tournament: tid(), person: person.id, method: method(), jackpot: jackpot(), tender_currency: tender() }; }
      else if (op === "preregister") { path = "cashier/preregister/"; body = { tournament: tid(), person: person.id, channel: $("#channel") ? $("#channel").value : "desk" }; }
      else if (op === "reenter") { path = "cashier/reenter/"; body = { tournament: tid(), person: person.id, method: method(), jackpot: jackpot(), tender_currency: tender() }; }
      else if (op === "alternate") { path = "cashier/alternates/"; body = { tournament: tid(), person: person.id }; }
      else if (op === "declare-rebuy") { path = "cashier/rebuy/declare/"; body = { entry: entry ? entry.id : null, person: person.id }; }
      else if (op === "rebuy") {
        // FMT-04 / TDA 27: a rebuy declared before the hand is owed whatever the stack is now.
        // An event without rebuys is refused by the server first: no stack asked for nothing.
        const opt = $("#tournament").selectedOptions[0];
        const asks = opt && opt.dataset.rebuys && entry && entry.status === "ACTIVE" && !entry.rebuy_declared_at;
        const stack = asks ? await TDM.ask({ label: T.stack, input: "number", value: "0" }) : null;
        if (asks && stack === null) return; // cancelled in the dialog
        path = "cashier/rebuy/"; body = { entry: entry ? entry.id : null, person: person.id, method: method(), tender_currency: tender() };
        if (stack !== null) body.stack = parseInt(stack, 10);
      } else if (op === "addon") { path = "cashier/addon/"; body = { entry: entry ? entry.id : null, person: person.id, method: method(), tender_currency: tender() }; }
      const form = [op, tid(), person.id, entry ? entry.id : ""].join(" ");
      let r;
      try { r = await api(path, { method: "POST", body: JSON.stringify(body), form }); } catch (e) {
        lost = { path, body, form }; // settled by its key when the network returns (settle above)
        showLost(T.lostWaiting);
        throw e;
      }
      if (lost && lost.form === form) { lost = null; showLost(""); } // clicked again: this answer settles it
      // REG-04 / BAL-09: the final table is formed and this entry would open a table: the house
      // asks (ASK) — the warning stays on the desk, and the sale goes through only once confirmed.
      if (!r.ok && r.data.code === "final_table_formed" && r.data.confirmable) {
        say(r.data.detail, false);
        if (!(await TDM.confirm(r.data.detail, T.sellAnyway))) return;
        body.confirm_final_table = true;
        r = await api(path, { method: "POST", body: JSON.stringify(body), form });
      }
      if (!r.ok) { say(r.data.detail || r.data.code, false); if (KEY_DONE.includes(r.data.code)) await refreshDesk(); return; }
      if (op === "alternate") say(T.added, true);
      else if (op === "declare-rebuy") say(T.declared, true);
      else if (op === "preregister") say(T.reservedOk, true);
      else {
        const rec = r.data.receipt;
        say(T.sold + " — " + T.receipt + " #" + rec.receipt_number + " — " + money(rec.total, rec.currency), true);
        window.open(rec.receipt_url + "?print=1", "receipt-" + rec.receipt_number);
      }
      await refreshPlayer();
      await refreshDesk();
      box.focus(); box.select(); // the next sale starts with the next name
    } catch (e) {
      say(T.noAnswer, false); // the key is kept: clicking again replays the first answer
    } finally { btn.disabled = false; showOffers(); }
  }

  // REG-12: the director gives the picked player's entry its money back, one click from the
  // player, with a reason. What may be refunded is the server's to decide (not after busting,
  // leaving or holding a place): its refusal is shown as it words it. The refund's receipt
  // opens like a sale's.
  async function refund(btn) {
    const entry = currentEntry();
    if (!person) return;
    if (!entry) { say(T.none, false); return; }
    const title = T.refundOf.replace("{n}", entry.number).replace("{name}", person.display_name);
    const reason = await TDM.ask({ title, label: T.refundReason, input: "textarea", required: true });
    if (!reason) return; // cancelled in the dialog
    const body = { entry: entry.id, reason, expenses: "0", method: method(), reference: "" };
    if (body.method === "TRANSFER" || body.method === "CHEQUE") {
      const ref = await TDM.ask({ title, label: T.reference, input: "text", required: true });
      if (!ref) return;
      body.reference = ref;
    }
    btn.disabled = true;
    try {
      const r = await api("cashier/refund/", { method: "POST", body: JSON.stringify(body), form: "refund " + entry.id });
      if (!r.ok) { say(r.data.detail || r.data.code, false); if (KEY_DONE.includes(r.data.code)) await refreshDesk(); return; }
      say(T.refunded + " #" + r.data.receipt_number + " — " + money(-Number(r.data.total), r.data.currency), true);
      window.open(r.data.receipt_url + "?print=1", "receipt-" + r.data.receipt_number);
      await refreshPlayer();
      await refreshDesk();
    } catch (e) {
      say(T.noAnswer, false); // the key is kept: clicking again replays the first answer
    } finally { btn.disabled = false; }
  }
  const refundButton = $("#player button[data-refund]"); // the director's only (the API's rule)
  if (refundButton) refundButton.addEventListener("click", () => refund(refundButton));

  // "Last sales" and "My shift" are the server's: loaded with the page, after every
  // operation and when the tournament changes, so a reload loses nothing and every earlier
  // sale can still be reversed from here.
  // A long shift's earlier sales, fifteen at a time (``offset``); one more row than shown is
  // asked for, to know whether there are earlier ones still.
  const SALES = 15;
  let salesFrom = 0;
  async function loadSales(from) {
    from = Math.max(0, from || 0);
    const r = await api("cashier/sales/?" + (tid() ? "tournament=" + tid() + "&" : "") + "limit=" + (SALES + 1) + "&offset=" + from); // none chosen: every tournament
    if (!r.ok) return;
    salesFrom = from;
    $("#sales").replaceChildren(...r.data.slice(0, SALES).map(saleItem));
    $("#no-sales").hidden = r.data.length > 0 || from > 0;
    $("#sales-earlier").hidden = r.data.length <= SALES;
    $("#sales-later").hidden = from === 0;
  }
  $("#sales-earlier").addEventListener("click", () => loadSales(salesFrom + SALES));
  $("#sales-later").addEventListener("click", () => loadSales(salesFrom - SALES));

  function saleItem(rec) {
    const li = document.createElement("li");
    li.dataset.receipt = rec.receipt_number;
    const a = document.createElement("a");
    a.href = rec.receipt_url; a.target = "_blank";
    a.textContent = "#" + rec.receipt_number + " " + rec.kind_display + " " + money(rec.total, rec.currency) + " (" + rec.method_display
      + (rec.tender_currency ? ", " + money(rec.tender_amount, rec.tender_currency) : "") + ")"; // REG-06: the notes taken
    li.append(a);
    if (rec.person_name) li.append(" — " + rec.person_name);
    if (rec.reversed_by_receipt) {
      li.classList.add("reversed");
      li.append(" — " + T.reversedBy + " #" + rec.reversed_by_receipt);
    } else if (rec.kind !== "REVERSAL") {
      const b = document.createElement("button");
      b.className = "link reverse"; b.textContent = T.reverse;
      b.addEventListener("click", async () => {
        const reason = await TDM.ask({ title: T.reverse, label: T.reason, input: "textarea", required: true }); if (!reason) return;
        b.disabled = true;
        try {
          const r = await api("cashier/reverse/", { method: "POST", body: JSON.stringify({ receipt_number: rec.receipt_number, reason }), form: "reverse " + rec.receipt_number });
          if (!r.ok) { say(r.data.detail || r.data.code, false); return; }
          say(T.receipt + " #" + r.data.receipt_number + " " + money(r.data.total, r.data.currency), true);
          await refreshPlayer();
          await refreshDesk();
        } catch (e) { say(T.noAnswer, false); } finally { b.disabled = false; }
      });
      li.append(" ", b);
    }
    return li;
  }

  function row(cells, cls) {
    const tr = document.createElement("tr");
    if (cls) tr.className = cls;
    cells.forEach((text, i) => {
      const td = document.createElement("td");
      td.textContent = text;
      if (i === cells.length - 1) td.className = "num";
      tr.append(td);
    });
    return tr;
  }

  async function loadShift() {
    const r = await api("cashier/shift/");
    if (!r.ok) return;
    const tbody = $("#shift tbody");
    tbody.replaceChildren(
      ...r.data.by_method.map((m) => row([m.label, String(m.rows), money(m.total)])),
      // REG-06: foreign notes on their own lines (the amount in their currency), valued apart.
      ...r.data.foreign.map((f) => row([T.tenderedIn.replace("{cur}", f.currency).replace("{amount}", money(f.amount, f.currency)),
                                        String(f.rows), money(f.value)], "foreign")),
      row([T.total, String(r.data.rows), money(r.data.total)], "total"),
      // PAY-02: the bounty money in the lines above, told apart (it is not the prize pool's).
      ...(Number(r.data.bounty.in) || Number(r.data.bounty.out)
        ? [row([T.bountyIn, "", money(r.data.bounty.in)], "bounty"), row([T.bountyOut, "", money(r.data.bounty.out)], "bounty")]
        : []),
    );
  }

  async function refreshDesk() { await Promise.all([loadSales(), loadShift(), loadDeclared()]); }

  // FMT-04 / TDA 27: rebuys declared before a hand, owed until the desk sells them.
  async function loadDeclared() {
    const r = tid() ? await api("tournaments/" + tid() + "/declared-rebuys/") : { ok: false };
    const rows = r.ok ? r.data.declared : [];
    $("#declared-rebuys").hidden = !rows.length;
    $("#declared-list").replaceChildren(...rows.map((d) => {
      const li = document.createElement("li");
      li.textContent = d.name + " #" + d.number + " — " + money(d.amount);
      return li;
    }));
  }

  // REG-11: the jackpot's fee is a line of its own, offered where the tournament plays for it.
  function jackpot() { return !$("#jackpot-line").hidden && $("#jackpot").checked; }
  function showJackpot() {
    const opt = $("#tournament").selectedOptions[0], fee = opt ? opt.dataset.jackpot : "";
    $("#jackpot-line").hidden = !fee;
    $("#jackpot-fee").textContent = fee ? money(parseFloat(fee), fee.split(" ")[1]) : "";
    if (!fee) $("#jackpot").checked = false;
  }
  // PAY-12: royal flushes the floor verified, still to be paid here (a slip opens once paid).
  function sayJ(text, ok) { const m = $("#jackpot-msg"); m.textContent = text; m.className = "message " + (ok ? "ok" : "error"); }
  async function loadJackpotClaims() {
    const r = await api("jackpot/");
    if (!r.ok) return;
    const due = (r.data.claims || []).filter((c) => !c.paid);
    $("#jackpot-due").hidden = !due.length && !$("#jackpot-msg").textContent;
    $("#jackpot-claims").replaceChildren(...due.map((c) => {
      const li = document.createElement("li");
      li.textContent = c.name + " #" + c.entry_number + " — " + c.tournament_name + " — " + T.level + " " + c.level + ", " + c.percent + "% — " + money(c.amount) + " ";
      const b = document.createElement("button");
      b.textContent = T.pay;
      b.addEventListener("click", async () => {
        const body = { method: method() };
        if (body.method !== "CASH") { const ref = await TDM.ask({ title: T.pay, label: T.reference, input: "text", required: true }); if (!ref) return; body.reference = ref; }
        b.disabled = true;
        try {
          const p = await api("jackpot/claims/" + c.id + "/pay/", { method: "POST", body: JSON.stringify(body), form: "jackpot " + c.id });
          if (!p.ok) { sayJ(p.data.detail || p.data.code, false); return; }
          sayJ(T.paid + " — " + T.receipt + " #" + p.data.receipt_number + " — " + money(p.data.amount), true);
          window.open(p.data.slip_url + "?print=1", "slip-" + p.data.receipt_number);
          await loadJackpotClaims();
          await refreshDesk();
        } catch (e) { sayJ(T.noAnswer, false); } finally { b.disabled = false; }
      });
      li.append(b);
      return li;
    }));
  }

  // REG-06: a sale tendered in USD or CHF at the rate of the day: what the player pays for an entry.
  let rates = {};
  async function loadRates() {
    const r = await api("cashier/exchange-rates/");
    rates = {};
    if (r.ok) r.data.forEach((x) => { rates[x.currency + ">" + x.base_currency] = x.rate; });
    showTender();
  }
  function showTender() {
    const opt = $("#tournament").selectedOptions[0], cur = tender(), out = $("#tender-converted");
    if (!opt || !cur) { out.textContent = ""; return; }
    const base = opt.dataset.currency, rate = Number(rates[cur + ">" + base]);
    if (!rate) { out.textContent = T.noRate; return; }
    const cents = Math.round(Number(opt.dataset.price) * 100) + (jackpot() ? Math.round(parseFloat(opt.dataset.jackpot) * 100) : 0);
    const due = Math.ceil(cents / rate - 1e-6) / 100; // the server's rule: rounded up to the cent
    out.textContent = TDM.colon(T.toPay, money(due, cur)) + " (1 " + cur + " = " + rateText(rates[cur + ">" + base]) + " " + base + ")";
  }
  $("#tender").addEventListener("change", showTender);
  $("#jackpot").addEventListener("change", showTender);
  const rateForm = $("#rateform");
  if (rateForm) rateForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const opt = $("#tournament").selectedOptions[0];
    const body = { ...Object.fromEntries(new FormData(rateForm).entries()), base_currency: opt ? opt.dataset.currency : "EUR" };
    const r = await api("cashier/exchange-rates/", { method: "POST", body: JSON.stringify(body) });
    if (r.ok) { rateForm.reset(); await loadRates(); }
    $("#tender-converted").textContent = r.ok ? T.rateSet + ": 1 " + r.data.currency + " = " + rateText(r.data.rate) + " " + r.data.base_currency
      : (r.data.detail || r.data.code);
  });

  document.querySelectorAll("#player button[data-op]").forEach((b) => b.addEventListener("click", () => sell(b.dataset.op, b)));
  $("#tournament").addEventListener("change", () => {
    history.replaceState(null, "", "?t=" + tid()); // a reload stays on the tournament being sold
    showJackpot(); showTender(); refreshPlayer(); loadSales(); loadDeclared();
  });
  showJackpot();
  refreshDesk();
  loadRates();
  loadJackpotClaims();

  $("#personform").addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = Object.fromEntries(new FormData(e.target).entries());
    let r = await api("people/", { method: "POST", body: JSON.stringify(body) });
    if (!r.ok && r.data.code === "possible_duplicate") {
      const names = r.data.duplicates.map((d) => d.name + (d.document_id ? " " + d.document_id : "")).join(", ");
      if (!(await TDM.confirm(TDM.fill(T.duplicate, { names })))) return;
      body.confirm_duplicate = true;
      r = await api("people/", { method: "POST", body: JSON.stringify(body) });
    }
    if (!r.ok) { say(r.data.detail, false); $("#player").hidden = false; return; }
    e.target.reset(); $("#newperson").open = false; pick(r.data);
  });
})();
