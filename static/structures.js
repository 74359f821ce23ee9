// Structures: import a JSON or CSV file through the API.
(function(){ const f = document.getElementById("import"); if (!f) return;
f.addEventListener("submit", async (e) => { e.preventDefault();
  const csrf = (document.cookie.match(/csrftoken=([^;]+)/)||[])[1]||"";
  const r = await fetch("/api/v1/structures/import/", {method: "POST", body: new FormData(f), headers: {"X-CSRFToken": csrf}, credentials: "same-origin"});
  const d = await r.json(); const m = document.getElementById("import-msg");
  if (r.ok) { location.reload(); } else { m.textContent = d.detail; m.className = "message error"; } });
})();
