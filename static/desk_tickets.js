// The desk's tickets (PAY-11): the picked player's tickets, each with the events it is valid for
// (one event, a series of events, or any). Redeeming one asks the cashier to confirm the holder's
// identity document: a ticket is personal. The entry goes through the desk's rules like a sale.
(function () {
  const T = JSON.parse(document.getElementById("desk-tickets-i18n").textContent);
  const $ = (s) => document.querySelector(s);
  let person = null;
  const say = (text, ok) => window.TDMDesk.say(text, ok);

  document.addEventListener("tdm:desk-player", (ev) => { person = ev.detail.person; load(); });
  document.querySelector("#tournament").addEventListener("change", () => load());

  async function load() {
    const box = $("#tickets");
    if (!person) { box.hidden = true; return; }
    const r = await window.TDMDesk.api("payouts/tickets/?person=" + person.id);
    const open = r.ok ? r.data.filter((k) => k.status === "ISSUED") : [];
    box.hidden = !open.length;
    $("#ticket-list").replaceChildren(...open.map(item));
  }

  function item(k) {
    const li = document.createElement("li");
    const where = k.any_event ? T.anyEvent : k.events.map((e) => e.name).join(", ");
    li.textContent = TDM.money(k.value) + (k.description ? " — " + k.description : "") + " — " + TDM.fill(T.validFor, { events: where }) + " ";
    const valid = k.any_event || k.events.some((e) => e.id === window.TDMDesk.tournament());
    const b = document.createElement("button");
    b.textContent = T.redeem;
    b.disabled = !valid;
    if (!valid) b.title = T.notHere;
    b.addEventListener("click", () => redeem(k, b));
    li.append(b);
    return li;
  }

  async function redeem(k, b) {
    if (!(await TDM.confirm(T.idCheck.replace("{name}", k.holder_name)))) return;
    b.disabled = true;
    const body = { tournament: window.TDMDesk.tournament(), id_checked: true };
    try {
      let r = await window.TDMDesk.api("payouts/tickets/" + k.id + "/redeem/", { method: "POST", body: JSON.stringify(body), form: "ticket " + k.id });
      if (!r.ok && r.data.code === "final_table_formed" && r.data.confirmable) {
        if (!(await TDM.confirm(r.data.detail))) return;
        body.confirm_final_table = true;
        r = await window.TDMDesk.api("payouts/tickets/" + k.id + "/redeem/", { method: "POST", body: JSON.stringify(body), form: "ticket " + k.id });
      }
      if (!r.ok) { say(r.data.detail || r.data.code, false); return; }
      say(T.redeemed, true);
      await window.TDMDesk.refresh();
      await load();
    } catch (e) { say(T.noAnswer, false); } finally { b.disabled = false; }
  }
})();
