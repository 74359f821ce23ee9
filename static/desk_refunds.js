// The refunds of a cancelled tournament (FMT-02): the tournament stays at the desk while any is
// due; picking it lists every entry still to refund, each with its Pay button. The cashier pays
// with the method chosen above (cash within the cash limit, REG-06; a cheque or a transfer asks
// for its reference): a REFUND row on this cashier's shift, its receipt opened to print. The
// server refuses a second payment. Nothing from data becomes markup (textContent only).
(function () {
  const T = JSON.parse(document.getElementById("desk-refunds-i18n").textContent);
  const $ = (s) => document.querySelector(s);
  const money = (v, currency) => TDM.money(v, currency);
  function say(text, ok) { const m = $("#refunds-msg"); m.textContent = text; m.className = "message " + (ok ? "ok" : "error"); }

  async function load() {
    const box = $("#refunds-due"), opt = $("#tournament").selectedOptions[0];
    if (!opt || opt.dataset.status !== "CANCELLED") { box.hidden = true; return; }
    const r = await window.TDMDesk.api("tournaments/" + encodeURIComponent(opt.value) + "/refunds-due/");
    if (!r.ok) { box.hidden = true; return; }
    box.hidden = false;
    $("#refunds-none").hidden = r.data.refunds.length > 0;
    $("#refunds-list").replaceChildren(...r.data.refunds.map((x) => {
      const li = document.createElement("li");
      li.className = "refund-line";
      li.dataset.entry = x.entry;
      li.textContent = x.name + " — " + T.entry + " #" + x.number + " — " + money(x.amount, x.currency) + " ";
      const b = document.createElement("button");
      b.className = "primary";
      b.textContent = T.pay;
      b.addEventListener("click", async () => {
        const body = { entry: x.entry, method: $("#method").value, reference: "" };
        if (body.method === "TRANSFER" || body.method === "CHEQUE") {
          const ref = await TDM.ask({ title: T.pay, label: T.reference, input: "text", required: true }); if (!ref) return;
          body.reference = ref;
        } else if (!(await TDM.confirm(TDM.fill(T.payAsk, { name: x.name, amount: money(x.amount, x.currency) })))) return;
        b.disabled = true;
        try {
          const p = await window.TDMDesk.api("cashier/refunds-due/pay/", { method: "POST", body: JSON.stringify(body), form: "refund-due " + x.entry });
          if (!p.ok) { say(p.data.detail || p.data.code, false); return; }
          say(T.paid + " #" + p.data.receipt_number + " — " + money(-Number(p.data.total), p.data.currency), true);
          window.open(p.data.receipt_url + "?print=1", "receipt-" + p.data.receipt_number);
          await load();
          await window.TDMDesk.sales();
        } catch (err) { say(T.noAnswer, false); } finally { b.disabled = false; }
      });
      li.append(b);
      return li;
    }));
  }

  $("#tournament").addEventListener("change", () => { say("", true); load(); });
  load();
})();
