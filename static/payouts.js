// Payouts pages: paying prizes at the desk and the final-table deal calculator. Talks to /api/v1/.
(function () {
  const $ = (s, root) => (root || document).querySelector(s);
  const $$ = (s, root) => Array.from((root || document).querySelectorAll(s));
  const newKey = TDM.newKey;
  const api = TDM.api;
  function say(el, text, ok) { if (!el) return; el.textContent = text; el.className = "message " + (ok ? "ok" : "error"); }

  // --- payouts due: one click pays one prize, whole, with an idempotency key per row ---
  const payStrings = document.getElementById("pay-i18n");
  const P = payStrings ? JSON.parse(payStrings.textContent) : {};
  $$("form.pay").forEach((form) => {
    // One key per form until it is paid or changed: a double click or a retry after a lost answer
    // replays the first answer (never paid twice); a changed form is a new request.
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const tr = form.closest("tr");
      const button = $("button", form);
      button.disabled = true;
      // A bounty (PAY-02) is paid by its tournament's bounty desk: every bounty the player has won, at once.
      const bounty = form.classList.contains("bounty");
      const body = { entry: Number(tr.dataset.entry), method: form.elements.namedItem("method").value,
        reference: form.elements.reference ? form.elements.reference.value : "", payee: form.elements.payee ? form.elements.payee.value : "" };
      if (!bounty) body.source = tr.dataset.source;
      const path = bounty ? "tournaments/" + tr.dataset.tournament + "/bounties/pay/" : "payouts/pay/";
      const sig = JSON.stringify(body);
      if (form.dataset.sig !== sig) { form.dataset.sig = sig; form.dataset.key = newKey(); }
      const msg = $("#pay-message");
      let r;
      try { r = await api(path, { method: "POST", body, key: form.dataset.key }); }
      catch (e) { say(msg, String(e), false); return; } // no answer: the key is kept, so paying again replays
      finally { button.disabled = false; }
      if (!r.ok) { say(msg, r.data.detail || r.status, false); return; }
      say(msg, TDM.colon(P.paid, tr.dataset.name + " " + TDM.money(r.data.amount)), true);
      const cell = form.parentElement;
      cell.textContent = P.paid + " ";
      if (r.data.slip_url) {
        const a = document.createElement("a");
        a.href = r.data.slip_url; a.target = "_blank"; a.className = "slip-link";
        a.textContent = P.slip + " #" + r.data.receipt_number;
        cell.appendChild(a);
        window.open(r.data.slip_url + "?print=1", "_blank");
      }
    });
  });

  // --- a bounty paid and given back by the player (PAY-02): its bust can then be undone ---
  // The desk takes the money into this cashier's drawer; the bounty is owed again until the
  // director undoes the bust. One key per reason typed, as for paying.
  $$("form.bounty-return").forEach((form) => {
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const tr = form.closest("tr");
      const button = $("button", form);
      const body = { award: Number(tr.dataset.award), reason: form.elements.reason.value };
      const sig = JSON.stringify(body);
      if (form.dataset.sig !== sig) { form.dataset.sig = sig; form.dataset.key = newKey(); }
      const msg = $("#pay-message");
      button.disabled = true;
      let r;
      try { r = await api("tournaments/" + tr.dataset.tournament + "/bounties/returned/", { method: "POST", body, key: form.dataset.key }); }
      catch (e) { say(msg, String(e), false); return; }
      finally { button.disabled = false; }
      if (!r.ok) { say(msg, r.data.detail || r.status, false); return; }
      say(msg, TDM.colon(P.returned, tr.dataset.name + " " + TDM.money(r.data.amount)) + " · " + P.receipt + " #" + r.data.receipt_number, true);
      form.parentElement.textContent = P.returned + " · " + P.receipt + " #" + r.data.receipt_number;
    });
  });

  // --- deal calculator ---
  const deal = $("#deal");
  if (!deal) return;
  const T = JSON.parse(document.getElementById("deal-i18n").textContent);
  const tid = deal.dataset.tournament;
  const msg = $("#deal-message");
  const names = {};
  $$("#stacks tbody tr").forEach((tr) => { names[tr.dataset.entry] = tr.children[1].textContent; });
  const stacks = () => {
    const out = {};
    $$("#stacks tbody tr").forEach((tr) => { out[tr.dataset.entry] = Number($("input.stack", tr).value || 0); });
    return out;
  };
  const cell = (text, cls) => { const td = document.createElement("td"); td.textContent = text; if (cls) td.className = cls; return td; };
  // PAY-09: the stacks must be the chips in play; the total entered is said as it is typed
  // (the calculator refuses otherwise, saying by how much).
  const inPlay = Number($("#stacks").dataset.inPlay || 0);
  function showTotal() {
    const counted = Object.values(stacks()).reduce((a, b) => a + b, 0), diff = counted - inPlay;
    const line = $("#stacks-total");
    line.textContent = T.stacksTotal.replace("{counted}", TDM.num(counted)).replace("{in_play}", TDM.num(inPlay)) + " · "
      + (diff === 0 ? T.stacksMatch : (diff < 0 ? T.stacksMissing : T.stacksOver).replace("{n}", TDM.num(Math.abs(diff))));
    line.className = "small" + (diff === 0 ? "" : " error");
  }
  $$("#stacks input.stack").forEach((i) => i.addEventListener("input", showTotal));
  showTotal();

  async function calculate() {
    const r = await api("tournaments/" + tid + "/payouts/deal/calculate/", { method: "POST", body: { stacks: stacks(), reserve: $("#reserve").value || "0" } });
    if (!r.ok) { say(msg, r.data.detail, false); $("#results").hidden = true; return; }
    say(msg, "", true);
    const d = r.data, m = d.methods;
    const col = (name, i, key) => (m[name] && m[name][key] ? TDM.money(m[name][key][i]) : "—"); // in the page's language
    const body = $("#compare tbody"); body.replaceChildren();
    d.players.forEach((p, i) => {
      const tr = document.createElement("tr"); tr.dataset.entry = p.entry;
      [cell(p.name), cell(TDM.num(p.chip_share) + " %", "num"), cell(col("ICM", i, "by_player"), "num icm"), cell(col("CHIP_CHOP", i, "by_player"), "num chip"), cell(col("EVEN", i, "by_player"), "num even")].forEach((td) => tr.appendChild(td));
      body.appendChild(tr);
    });
    const places = $("#by-place tbody"); places.replaceChildren();
    d.prizes_left.forEach((prize, i) => {
      const tr = document.createElement("tr");
      [cell(String(i + 1)), cell(TDM.money(prize), "num"), cell(col("ICM", i, "by_place"), "num"), cell(col("CHIP_CHOP", i, "by_place"), "num"), cell(col("EVEN", i, "by_place"), "num")].forEach((td) => tr.appendChild(td));
      places.appendChild(tr);
    });
    // A bounty event: what each player takes of the bounty money (apart from the prizes) and, under it, with his prize.
    const bounty = $("#bounty-results");
    if (bounty) {
      bounty.hidden = !d.bounties;
      if (d.bounties) {
        $("#bounty-rule").textContent = "(" + d.bounties.label + ")";
        const rows = $("#bounty-compare tbody"); rows.replaceChildren();
        const both = (name, i) => (m[name] && m[name].bounty_by_player ? TDM.money(m[name].bounty_by_player[i]) + " / " + TDM.money(m[name].total_by_player[i]) : "—");
        d.players.forEach((p, i) => {
          const tr = document.createElement("tr"); tr.dataset.entry = p.entry;
          [cell(p.name), cell(p.bounty === undefined ? "—" : TDM.money(p.bounty), "num"), cell(both("ICM", i), "num"), cell(both("CHIP_CHOP", i), "num"), cell(both("EVEN", i), "num")].forEach((td) => tr.appendChild(td));
          rows.appendChild(tr);
        });
      }
    }
    const problems = ["ICM", "CHIP_CHOP", "EVEN"].filter((k) => m[k] && m[k].policy_problem).map((k) => TDM.colon(T["m_" + k] || k, m[k].policy_problem.detail));
    const policy = $("#policy");
    policy.textContent = d.policy ? TDM.colon(T.refused, d.policy) : (problems.length ? T.refused + " — " + problems.join(" · ") : T.allowed);
    policy.className = "small " + (d.policy ? "error" : "");
    $("#results").hidden = false;
  }
  $("#calculate").addEventListener("click", calculate);

  $$("button.propose").forEach((b) => b.addEventListener("click", async () => {
    const r = await api("tournaments/" + tid + "/payouts/deals/", { method: "POST", key: newKey(),
      body: { stacks: stacks(), reserve: $("#reserve").value || "0", method: b.dataset.method } });
    if (!r.ok) { say(msg, r.data.detail, false); return; }
    say(msg, T.proposed, true);
    window.location.reload();
  }));
  const byPlace = $("#propose-by-place");
  if (byPlace) byPlace.addEventListener("click", async () => {
    const amounts = $$("input.place-amount").map((i) => i.value || "0");
    const r = await api("tournaments/" + tid + "/payouts/deals/", { method: "POST", key: newKey(),
      body: { stacks: stacks(), method: "CUSTOM", by_place: amounts } });
    if (!r.ok) { say(msg, r.data.detail, false); return; }
    say(msg, T.proposed, true);
    window.location.reload();
  });
  const open = $("#open-deal");
  if (open) {
    const id = open.dataset.deal;
    $$("button.accept", open).forEach((b) => b.addEventListener("click", async () => {
      const r = await api("payouts/deals/" + id + "/accept/", { method: "POST", body: { entry: Number(b.dataset.entry) } });
      if (!r.ok) { say(msg, r.data.detail, false); return; }
      window.location.reload();
    }));
    const approve = $("#approve");
    if (approve) approve.addEventListener("click", async () => {
      const r = await api("payouts/deals/" + id + "/approve/", { method: "POST", body: {} });
      if (!r.ok) { say(msg, r.data.detail, false); return; }
      say(msg, T.approved, true);
      setTimeout(() => window.location.reload(), 600);
    });
    const cancel = $("#cancel-deal");
    if (cancel) cancel.addEventListener("click", async () => {
      const reason = await TDM.ask({ title: cancel.textContent, label: T.cancelReason, input: "textarea", value: T.cancelledAtTable });
      if (reason === null) return;
      const r = await api("payouts/deals/" + id + "/cancel/", { method: "POST", body: { reason } });
      if (r.ok) window.location.reload(); else say(msg, r.data.detail, false);
    });
  }
})();
