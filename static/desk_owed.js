// The desk's amounts owed (REG-09): what the picked player still owes (a 004 no-show's entry,
// a RECEIVABLE row of the ledger), each with its Pay button: the money is taken with the
// payment method chosen above, as a SETTLEMENT row pointing at it. desk.js tells this script
// which player is picked; nothing from data becomes markup (textContent only).
(function () {
  const T = JSON.parse(document.getElementById("desk-owed-i18n").textContent);
  const $ = (s) => document.querySelector(s);
  let person = null;

  async function load() {
    const box = $("#owed");
    if (!person) { box.hidden = true; return; }
    const res = await TDM.api("cashier/owed/?person=" + encodeURIComponent(person.id));
    if (!res.ok) { box.hidden = true; return; }
    const list = res.data.owed || [];
    box.hidden = !list.length;
    $("#owed-list").replaceChildren(...list.map((x) => {
      const li = document.createElement("li");
      li.className = "owed-line";
      li.textContent = x.tournament_name + " — " + T.entry + " #" + x.entry_number + " — " + TDM.fill(T.owes, { amount: TDM.money(x.owed, x.currency) })
        + " (" + T.receipt + " #" + x.receipt_number + ") ";
      const b = document.createElement("button");
      b.className = "primary settle";
      b.textContent = T.settle;
      b.addEventListener("click", async () => {
        if (!(await TDM.confirm(TDM.fill(T.settleAsk, { amount: TDM.money(x.owed, x.currency) })))) return;
        b.disabled = true;
        try {
          const body = { receipt_number: x.receipt_number, method: $("#method").value };
          const r = await window.TDMDesk.api("cashier/settle/", { method: "POST", body: JSON.stringify(body), form: "settle " + JSON.stringify(body) });
          window.TDMDesk.say(r.ok ? T.settled + " #" + r.data.receipt_number : (r.data.detail || r.data.code), r.ok);
          if (r.ok) { window.open(r.data.receipt_url + "?print=1", "receipt-" + r.data.receipt_number); await window.TDMDesk.sales(); }
          await load();
        } catch (err) { window.TDMDesk.say(T.noAnswer, false); } finally { b.disabled = false; }
      });
      li.append(b);
      return li;
    }));
  }

  document.addEventListener("tdm:desk-player", (ev) => { person = ev.detail.person || null; load(); });
})();
