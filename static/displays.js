// Lobby displays page: each screen's own tournament, the tournaments it rotates between and the
// seconds per tournament, saved through the screens API (the director's).
(function () {
  const T = JSON.parse(document.getElementById("displays-i18n").textContent);
  const csrf = () => (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
  document.querySelectorAll("form.screen-edit").forEach((form) => form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(form), msg = form.querySelector("[data-msg]");
    const body = {
      name: f.get("name"), announcement: f.get("announcement") || "",
      tournament: f.get("tournament") ? Number(f.get("tournament")) : null,
      rotate: f.getAll("rotate").map(Number), rotate_seconds: Number(f.get("rotate_seconds")),
    };
    const r = await fetch("/api/v1/screens/" + form.dataset.screen + "/", { method: "PATCH", credentials: "same-origin", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() }, body: JSON.stringify(body) });
    let d = {}; try { d = await r.json(); } catch (err) { /* no body */ }
    msg.textContent = r.ok ? T.saved : (d.detail || d.code);  /* the API names each field in words */
    msg.className = "message " + (r.ok ? "ok" : "error");
  }));
})();
