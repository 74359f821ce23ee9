// Structures: import a JSON or CSV file through the API.
(function(){ const f = document.getElementById("import"); if (!f) return;
f.addEventListener("submit", async (e) => { e.preventDefault();
  const r = await TDM.api("structures/import/", {method: "POST", body: new FormData(f)});
  const d = r.data || {}; const m = document.getElementById("import-msg");
  if (r.ok) { location.reload(); } else { m.textContent = d.detail; m.className = "message error"; } });
})();

// FMT-16: a level's game (a mixed event changes game by level), saved through the structures API.
// A structure a published event plays says why it changes (FMT-02): the director is asked.
(function(){ const el = document.getElementById("structures-i18n"); if (!el) return;
const T = JSON.parse(el.textContent), m = document.getElementById("game-msg");
const say = (text, ok) => { m.textContent = text; m.className = "message " + (ok ? "ok" : "error"); };
document.querySelectorAll("select.level-game").forEach((sel) => sel.addEventListener("change", async () => {
  const path = "structures/" + sel.dataset.structure + "/", got = await TDM.api(path);
  if (!got.ok) { say(got.data.detail, false); return; }
  const s = got.data; s.items[Number(sel.dataset.index)].game = sel.value;
  const body = { name: s.name, description: s.description, is_template: s.is_template, items: s.items };
  let r = await TDM.api(path, { method: "PUT", body });
  if (!r.ok && r.data.code === "change_reason_required") {
    const reason = await TDM.ask({ title: T.reason, label: T.reason, input: "text", required: true });
    if (reason) r = await TDM.api(path, { method: "PUT", body: Object.assign(body, { reason }) });
  }
  say(r.ok ? T.done : r.data.detail, r.ok);
}));
})();
