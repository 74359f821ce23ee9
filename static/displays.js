// Lobby displays page: each screen's own tournament, the tournaments it rotates between and the
// seconds per tournament, saved through the screens API (the director's).
(function () {
  const T = JSON.parse(document.getElementById("displays-i18n").textContent);
  document.querySelectorAll("form.screen-edit").forEach((form) => form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(form), msg = form.querySelector("[data-msg]");
    const body = {
      name: f.get("name"), announcement: f.get("announcement") || "",
      tournament: f.get("tournament") ? Number(f.get("tournament")) : null,
      rotate: f.getAll("rotate").map(Number), rotate_seconds: Number(f.get("rotate_seconds")),
      language: f.get("language") || "", second_language: f.get("second_language") || "",
    };
    // as a stream's overlay: its size, the stream's delay, how long a bust stays on
    for (const k of ["overlay_width", "overlay_height", "overlay_delay", "bust_seconds"]) if (f.has(k)) body[k] = Number(f.get(k));
    // its layout by state, whether it is the speaker, and what it announces
    if (form.querySelector("[name=layout-live]")) {
      body.layouts = {};
      form.querySelectorAll("select[name^=layout-]").forEach((s) => { if (s.value) body.layouts[s.name.slice(7)] = s.value; });
      body.speaker = !!f.get("speaker");
      const events = {};
      form.querySelectorAll("tr[data-event]").forEach((tr) => {
        const e = tr.dataset.event;
        events[e] = { on: !!f.get("on-" + e), sound: f.get("sound-" + e), speak: !!f.get("speak-" + e), text: f.get("text-" + e) || "" };
      });
      body.sounds = { warn_minutes: Number(f.get("warn_minutes")), events };
    }
    const r = await TDM.api("screens/" + form.dataset.screen + "/", { method: "PATCH", body });
    const d = r.data || {};
    msg.textContent = r.ok ? T.saved : (d.detail || d.code);  /* the API names each field in words */
    msg.className = "message " + (r.ok ? "ok" : "error");
  }));
})();
