// Structures: import a JSON or CSV file through the API.
(function(){ const f = document.getElementById("import"); if (!f) return;
f.addEventListener("submit", async (e) => { e.preventDefault();
  const r = await TDM.api("structures/import/", {method: "POST", body: new FormData(f)});
  const d = r.data || {}; const m = document.getElementById("import-msg");
  if (r.ok) { location.reload(); } else { m.textContent = d.detail; m.className = "message error"; } });
})();
