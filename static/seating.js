// The floor's table map refreshes itself: on every change of the tournament (pushed over
// the live stream, or polled when the stream is down: TDMLive) it reloads the map fragment. While
// the floor is typing or has players ticked, it shows a banner instead of pulling the page
// from under their fingers; a click on the banner refreshes.
(function () {
  const root = document.getElementById("seating-live");
  if (!root) return;
  const id = root.dataset.tournament, url = root.dataset.fragment;
  let lastSeq = null, loading = false, lastState = null;

  function busy() {
    if (document.querySelector("dialog[open]")) return true; // a bust being confirmed: keep its form
    const a = document.activeElement;
    if (a && root.contains(a) && (a.tagName === "INPUT" || a.tagName === "SELECT" || a.tagName === "TEXTAREA")) return true;
    return Array.from(root.querySelectorAll("input")).some((i) => (i.type === "checkbox" ? i.checked : i.value && i.name.startsWith("stack_")));
  }

  async function refresh() {
    if (loading) return;
    loading = true;
    try {
      const r = await TDM.request(url, { cache: "no-store" });
      if (r.ok) {
        // The fragment is our own autoescaped template output; it is parsed into an inert
        // document (nothing in it runs) and its map element is moved in, never assigned as HTML.
        const doc = new DOMParser().parseFromString(await r.text(), "text/html");
        const map = doc.getElementById("seating-map");
        if (map) root.replaceChildren(document.importNode(map, true));
        if (lastState) showClock(lastState);  // the new map's hand-for-hand parts as the state says
        const banner = document.getElementById("seating-stale");
        if (banner) banner.remove();
      }
    } finally { loading = false; }
  }

  function changed(seq) {
    if (lastSeq === null) { lastSeq = seq; return; }
    if (seq === lastSeq) return;
    lastSeq = seq;
    if (!busy()) return refresh();
    if (!document.getElementById("seating-stale")) {
      const b = document.createElement("div");
      b.id = "seating-stale";
      b.textContent = document.documentElement.lang === "it" ? "La mappa è cambiata: tocca per aggiornare" : "The map has changed: tap to refresh";
      b.onclick = refresh;
      root.prepend(b);
    }
  }

  // Hand-for-hand is on: every table must know (CLK-06), so the map says it above the tables.
  const T = JSON.parse(document.getElementById("seating-i18n").textContent);
  function showClock(state) {
    const c = (state && state.clock) || {}, banner = document.getElementById("h4h-banner");
    if (!banner) return;
    banner.hidden = !c.hand_for_hand;
    if (c.hand_for_hand) banner.textContent = T.h4h.replace("{n}", c.h4h_hand);
    // CLK-06: each table's state in the hand (playing, all-in held, done), set from the tablet.
    document.querySelectorAll(".h4h-only").forEach((f) => { f.hidden = !c.hand_for_hand; });
    document.querySelectorAll(".h4h-state").forEach((tag) => {
      const n = Number(tag.dataset.table);
      const done = (state.h4h_done || []).includes(n), hold = (state.h4h_hold || []).includes(n);
      tag.textContent = done ? T.h4hDone : hold ? T.h4hHold : T.h4hPlaying;
      tag.className = "tag h4h-state" + (hold ? " warn" : "");
    });
  }
  function heard(state) { lastState = state; showClock(state); changed(state.seq); }

  // The live stream (polled while it is down) through the pages' one live object.
  window.TDMLive({ tournament: id, onState: heard });
})();

// A bust asks first, in the page (never window.confirm): the players named with their table
// and seat; "Yes, out" sends the form the floor used, Cancel sends nothing. The table map is
// swapped in by the refresh above, so the listener sits on the document.
(function () {
  const dialog = document.getElementById("bust-confirm");
  if (!dialog || !dialog.showModal) return;
  const T = JSON.parse(document.getElementById("seating-i18n").textContent);
  let pending = null;

  function who(form, submitter) {
    const only = submitter && submitter.name === "only" ? submitter.value : null;
    const ids = only ? [only] : Array.from(form.querySelectorAll("input[name=entries]:checked")).map((i) => i.value);
    const table = form.querySelector("input[name=table]").value;
    return ids.map((id) => {
      const row = form.querySelector("tr[data-entry='" + id + "']");
      const cell = row ? row.querySelector("td.player") : null;
      const name = cell ? Array.from(cell.querySelectorAll("a, span.muted")).slice(0, 2).map((n) => n.textContent.trim()).join(" ") : "#" + id;
      return name + " — " + T.where.replace("{t}", table).replace("{s}", row ? row.dataset.seat : "?");
    });
  }

  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (!form.matches || !form.matches("form.bust-form")) return;
    if (form.dataset.confirmed === "1") { delete form.dataset.confirmed; return; }
    e.preventDefault();
    const names = who(form, e.submitter);
    const list = document.getElementById("bust-confirm-list");
    list.replaceChildren(...(names.length ? names : [T.noneTicked]).map((text) => {
      const li = document.createElement("li"); li.textContent = text; return li;
    }));
    const same = form.querySelector("input[name=same_hand]");
    if (names.length > 1 && same && same.checked && !(e.submitter && e.submitter.name === "only")) {
      const li = document.createElement("li"); li.className = "muted"; li.textContent = "(" + T.sameHand + ")"; list.append(li);
    }
    document.getElementById("bust-confirm-ok").hidden = !names.length;
    pending = { form, submitter: e.submitter };
    dialog.returnValue = "";
    dialog.showModal();
  });

  dialog.addEventListener("close", () => {
    const p = pending; pending = null;
    if (!p || dialog.returnValue !== "ok") return;
    p.form.dataset.confirmed = "1";
    if (p.submitter && p.form.contains(p.submitter)) p.form.requestSubmit(p.submitter); else p.form.requestSubmit();
  });
})();
