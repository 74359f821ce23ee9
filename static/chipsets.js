// Chip sets: a new set from one line per denomination (value colour quantity).
(function () {
  const form = document.getElementById("chipsetform");
  if (!form) return;
  // A whole number as the reader writes it: "2.000" (Italian) and "2,000" (English) are 2000; else
  // null, which the API refuses naming the row and the column.
  const whole = (text) => (/^\d{1,3}([.,'\u00a0\u202f ]?\d{3})*$/.test(text) ? Number(text.replace(/\D/g, "")) : null);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    const denominations = f.get("rows").split("\n").map((l) => l.trim()).filter(Boolean).map((l) => { const p = l.split(/\s+/); return { value: whole(p[0]), colour: p.slice(1, -1).join(" "), quantity: whole(p[p.length - 1]) }; });
    const r = await TDM.api("chipsets/", { method: "POST", body: { name: f.get("name"), denominations } });
    const d = r.data || {};
    if (r.ok) location.reload(); else { const m = document.getElementById("cs-msg"); m.textContent = d.detail || d.code;  /* the API names each field in words */ m.className = "message error"; }
  });
})();
