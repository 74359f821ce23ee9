// People: search as you type; every value is written as text.
(function(){
  const q = document.getElementById("q"), body = document.querySelector("#people tbody");
  let timer;
  async function load(){
    const term = q.value.trim();
    const url = term.length >= 2 ? "/api/v1/people/?q=" + encodeURIComponent(term) + "&limit=50" : "/api/v1/people/?limit=50";
    const r = await TDM.api(url); if (!r.ok) return;
    const data = r.data; const rows = Array.isArray(data) ? data : data.results;
    body.replaceChildren();
    rows.forEach(p => { const tr = document.createElement("tr");
      const name = document.createElement("td"), a = document.createElement("a");
      a.href = "/people/" + p.id + "/"; a.textContent = p.first_name + " " + p.last_name; name.appendChild(a); tr.appendChild(name);
      [p.nickname, p.document_id, p.phone, p.email, p.banned ? "⛔ " + p.banned_reason : ""].forEach(v => { const td = document.createElement("td"); td.textContent = v || ""; tr.appendChild(td); });
      if (p.banned) tr.className = "banned"; body.appendChild(tr); });
  }
  q.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(load, 150); });
  load();
})();
