// The desk's check-in tools (REG-02, REG-05, REG-09, ELM-05): the registration state of the
// picked player's entry, check-in (with the identity document when the event asks for it), a
// bank transfer confirmed as cleared, a player who left or never arrived, and the refunds to
// offer to people banned after paying. desk.js tells this script which player is picked.
(function () {
  const T = JSON.parse(document.getElementById("desk-checkin-i18n").textContent);
  const $ = (s) => document.querySelector(s);
  let entries = [];

  // The desk's own API call: one idempotency key per form (this action on this entry), held
  // until it succeeds, so a click after a lost answer replays what the server did.
  const post = (path, body) => window.TDMDesk.api(path, { method: "POST", body: JSON.stringify(body), form: path + " " + JSON.stringify(body) });
  const say = (text, ok) => window.TDMDesk.say(text, ok);
  const live = () => entries.find((e) => e.status === "ACTIVE" || e.status === "RESERVED");
  const requiresId = () => { const o = $("#tournament").selectedOptions[0]; return !!(o && o.dataset.requireId); };

  document.addEventListener("tdm:desk-player", (ev) => {
    entries = ev.detail.entries || [];
    const e = live();
    const out = $("#player-state");
    out.textContent = e ? TDM.colon(T.state, T[e.registration_state] || e.registration_state)
      + (e.channel ? " (" + (T["ch_" + e.channel] || e.channel) + ")" : "")
      + (e.presence ? " — " + (T[e.presence] || e.presence) : "") : "";
    $("#player").querySelector('[data-desk="transfer-cleared"]').hidden = !(e && e.awaits_transfer);
    $("#player").querySelector('[data-desk="check-in"]').hidden = !(e && e.status === "ACTIVE" && !e.checked_in_at);
    loadBanned();
  });

  async function act(op, btn) {
    const e = live();
    if (!e) { say(T.noEntry, false); return; }
    let path, body;
    if (op === "check-in") {
      let seen = false;
      if (requiresId()) {
        // The whole document number on file, read for this check-in only (logged): lists show it masked.
        const doc = await window.TDMDesk.api("cashier/check-in/document/?entry=" + e.id);
        const onFile = doc.ok && doc.data.document_id ? " " + TDM.colon(T.idOnFile, doc.data.document_id) : "";
        seen = await TDM.confirm(T.idAsk + onFile, T.idSeen); if (!seen) return;
      }
      path = "cashier/check-in/"; body = { entry: e.id, id_checked: seen };
    } else if (op === "transfer-cleared") {
      const ref = await TDM.ask({ title: T.transferCleared, label: T.transferRef, input: "text", required: true }); if (!ref) return;
      path = "cashier/transfer-cleared/"; body = { entry: e.id, reference: ref };
    } else if (op === "withdrawn") {
      if (!(await TDM.confirm(T.withdrawnAsk))) return;
      path = "cashier/presence/"; body = { entry: e.id, presence: "WITHDRAWN" };
    } else if (op === "no-show") {
      if (!(await TDM.confirm(T.noShowAsk))) return;
      path = "cashier/no-show/"; body = { entry: e.id };
    }
    btn.disabled = true;
    try {
      const r = await post(path, body);
      if (!r.ok) {
        say(r.data.detail || r.data.code, false);
        if (r.data.code === "banned") loadBanned();
        return;
      }
      say(op === "transfer-cleared" ? T.paidReceipt + " #" + r.data.receipt.receipt_number : T.done, true);
      if (op === "transfer-cleared") window.open(r.data.receipt.receipt_url + "?print=1", "receipt-" + r.data.receipt.receipt_number);
      await window.TDMDesk.refresh();
      if (op === "transfer-cleared") await window.TDMDesk.sales();
    } catch (err) { say(T.noAnswer, false); } finally { btn.disabled = false; }
  }
  document.querySelectorAll("#player button[data-desk]").forEach((b) => b.addEventListener("click", () => act(b.dataset.desk, b)));

  // REG-05: people banned after paying are not seated; each is refunded minus the expenses.
  async function loadBanned() {
    const t = window.TDMDesk.tournament();
    if (!t) return;
    const res = await TDM.api("tournaments/" + t + "/banned-paid/");
    if (!res.ok) return;
    const list = res.data.entries || [];
    $("#banned-paid").hidden = !list.length;
    $("#banned-list").replaceChildren(...list.map((x) => {
      const li = document.createElement("li");
      li.textContent = x.name + " #" + x.number + " — " + x.reason + " — " + TDM.fill(T.refundDue, { amount: TDM.money(x.refund_due) }) + " ";
      const b = document.createElement("button");
      b.textContent = T.refund;
      b.addEventListener("click", async () => {
        const expenses = await TDM.ask({ title: T.refund, label: T.expenses, input: "number", value: "0" }); if (expenses === null) return;
        b.disabled = true;
        try {
          const r = await post("cashier/refund/", { entry: x.entry, reason: T.refundReason, expenses: expenses || "0", method: $("#method").value });
          say(r.ok ? T.refunded + " #" + r.data.receipt_number + " " + TDM.money(r.data.total, r.data.currency) : (r.data.detail || r.data.code), r.ok);
          await loadBanned();
          if (r.ok) await window.TDMDesk.sales();
        } catch (err) { say(T.noAnswer, false); } finally { b.disabled = false; }
      });
      li.append(b);
      return li;
    }));
  }
  $("#tournament").addEventListener("change", loadBanned);
  loadBanned();
})();
