// The floor's table map refreshes itself: on every change of the tournament (pushed over
// the live stream, or polled when the stream is down: TDMLive) it reloads the map fragment. While
// the floor is typing or has players ticked, it shows a banner instead of pulling the page
// from under their fingers; a click on the banner refreshes.
(function () {
  const root = document.getElementById("seating-live");
  if (!root) return;
  const id = root.dataset.tournament, url = root.dataset.fragment;
  let lastSeq = null, loading = false, lastState = null;
  const FOCUSABLE = "a[href], button, input:not([type=hidden]), select, textarea";

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
        // The keyboard keeps its place: the element focused (by its id, or by its player's row
        // and its place in that row: a floor person tabbing along a row to Out stays there),
        // or else its table, in the new map.
        const a = document.activeElement, inMap = a && root.contains(a);
        const place = inMap && (a.id || (a.closest("section[data-table]") || {}).id);
        const tr = inMap && !a.id && a.closest("tr[data-entry]");
        const row = tr && 'tr[data-entry="' + CSS.escape(tr.dataset.entry) + '"]';
        const nth = tr ? Array.from(tr.querySelectorAll(FOCUSABLE)).indexOf(a) : -1;
        if (map) root.replaceChildren(document.importNode(map, true));
        const again = nth >= 0 && root.querySelector(row);
        const same = again && again.querySelectorAll(FOCUSABLE)[nth];
        if (same) same.focus();
        else if (place && document.getElementById(place)) document.getElementById(place).focus();
        if (lastState) showClock(lastState);  // the new map's hand-for-hand parts as the state says
        const banner = document.getElementById("seating-stale");
        if (banner) banner.remove();
        document.dispatchEvent(new CustomEvent("tdm:map-refreshed"));
      }
    } catch (e) { /* no server and nothing kept: the map stays as it is */
    } finally { loading = false; }
  }
  // The floor's queue (floor-queue.js) sent what waited: the map takes the server's state, busts
  // refused included. Opened without network, the map is the last one this tablet kept.
  document.addEventListener("tdm:queue-sent", () => { loading = false; refresh(); });
  if (!navigator.onLine) refresh();

  function changed(seq) {
    if (lastSeq === null) { lastSeq = seq; return; }
    if (seq === lastSeq) return;
    lastSeq = seq;
    if (!busy()) return refresh();
    if (!document.getElementById("seating-stale")) {
      const b = document.createElement("div");
      b.id = "seating-stale";
      b.textContent = JSON.parse(document.getElementById("seating-i18n").textContent).mapChanged;
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
    if (c.hand_for_hand) banner.textContent = (state.h4h_last_hand ? T.h4hLast : T.h4h).replace("{n}", c.h4h_hand);
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
// In a bounty event (PAY-02) the dialog also asks who knocked each player out: one or more of
// the players still seated at that table, listed from the button's left; when the house shares
// a split pot's bounty by the pot, the chips each won of it. Only the director is offered the
// players of the other tables too, and picking one asks for his reason (logged with the bust).
// "Yes, out" refuses to close until each player out has an eliminator; the choices go with the form.
(function () {
  const dialog = document.getElementById("bust-confirm");
  if (!dialog || !dialog.showModal) return;
  const T = JSON.parse(document.getElementById("seating-i18n").textContent);
  const bounty = dialog.dataset.bounty === "1", byPot = dialog.dataset.splitByPot === "1", director = dialog.dataset.director === "1";
  const box = document.getElementById("bust-confirm-eliminators");
  const MAX_ELIMINATORS = 9;
  let pending = null;

  function nameOf(row, id) {
    const cell = row ? row.querySelector("td.player") : null;
    return cell ? Array.from(cell.querySelectorAll("a, span.muted")).slice(0, 2).map((n) => n.textContent.trim()).join(" ") : "#" + id;
  }

  function who(form, submitter) {
    const only = submitter && submitter.name === "only" ? submitter.value : null;
    const ids = only ? [only] : Array.from(form.querySelectorAll("input[name=entries]:checked")).map((i) => i.value);
    const table = form.querySelector("input[name=table]").value;
    return ids.map((id) => {
      const row = form.querySelector("tr[data-entry='" + id + "']");
      return { id, table, name: nameOf(row, id), seat: row ? row.dataset.seat : "?" };
    });
  }

  // Every player seated on the map but those going out now.
  function stillSeated(out) {
    return Array.from(document.querySelectorAll("#tables section[data-table] tr[data-entry]"))
      .filter((row) => !out.includes(row.dataset.entry))
      .map((row) => ({ id: row.dataset.entry, table: row.closest("section[data-table]").dataset.table, seat: row.dataset.seat, name: nameOf(row, row.dataset.entry) }));
  }

  function picker(players, table) {
    const select = document.createElement("select");
    select.className = "eliminator";
    select.append(new Option(T.pickEliminator, ""));
    const here = document.createElement("optgroup"), there = document.createElement("optgroup");
    here.label = T.atTable.replace("{t}", table);
    there.label = T.otherTables;
    there.dataset.elsewhere = "1";
    players.forEach((p) => {
      if (p.table === table) here.append(new Option(p.name + " — " + T.seatOnly.replace("{s}", p.seat), p.id));
      else if (director) there.append(new Option(p.name + " — " + T.where.replace("{t}", p.table).replace("{s}", p.seat), p.id));
    });
    [here, there].forEach((g) => { if (g.children.length) select.append(g); });
    return select;
  }

  function askEliminators(out, players) {
    const set = document.createElement("fieldset");
    set.className = "eliminators";
    set.dataset.entry = out.id;
    const legend = document.createElement("legend");
    legend.textContent = T.knockedOutBy.replace("{name}", out.name);
    const rows = document.createElement("div");
    const add = document.createElement("button");
    add.type = "button";
    add.className = "add-eliminator";
    add.textContent = T.addEliminator;
    function sync() {
      const split = rows.children.length > 1;
      rows.querySelectorAll("input.pot-share").forEach((i) => { i.hidden = !split; if (!split) i.value = ""; });
      add.hidden = rows.children.length >= MAX_ELIMINATORS;
    }
    function addRow(first) {
      const row = document.createElement("div");
      row.className = "row eliminator-row";
      const select = picker(players, out.table);
      select.required = first; // a plain bust in a bounty event names who won the pot
      select.setAttribute("aria-label", legend.textContent);
      row.append(select);
      if (byPot) {
        const share = document.createElement("input");
        share.className = "pot-share";
        share.inputMode = "numeric";
        share.placeholder = T.potShare;
        share.setAttribute("aria-label", T.potShare);
        row.append(share);
      }
      if (!first) {
        const remove = document.createElement("button");
        remove.type = "button";
        remove.className = "link remove-eliminator";
        remove.textContent = T.removeEliminator;
        remove.addEventListener("click", () => { row.remove(); sync(); });
        row.append(remove);
      }
      rows.append(row);
      sync();
      return select;
    }
    add.addEventListener("click", () => addRow(false).focus());
    addRow(true);
    set.append(legend, rows, add);
    return set;
  }

  function hidden(form, name, value) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    input.className = "eliminator-input";
    form.append(input);
  }

  // The director's reason, asked once an eliminator from another table is picked.
  function overrideReason() {
    const label = document.createElement("label");
    label.className = "override-reason";
    label.textContent = T.overrideReason + " ";
    const input = document.createElement("input");
    input.name = "override_reason";
    input.maxLength = 200;
    label.append(input);
    label.hidden = true;
    return label;
  }

  function syncOverride() {
    const label = box && box.querySelector("label.override-reason");
    if (!label) return;
    const elsewhere = Array.from(box.querySelectorAll("select.eliminator")).some((s) => s.value && s.selectedOptions[0].parentElement.dataset.elsewhere === "1");
    label.hidden = !elsewhere;
    label.querySelector("input").required = elsewhere;
  }

  // The eliminators chosen, into the bust form: eliminators_<out> (in order) and
  // pot_share_<out>_<eliminator>, as the page's form handling reads them; the director's
  // reason for an eliminator from another table as override_reason.
  function putEliminators(form) {
    form.querySelectorAll("input.eliminator-input").forEach((i) => i.remove());
    if (!box) return;
    const label = box.querySelector("label.override-reason");
    if (label && !label.hidden && label.querySelector("input").value.trim()) hidden(form, "override_reason", label.querySelector("input").value.trim());
    box.querySelectorAll("fieldset.eliminators").forEach((set) => {
      set.querySelectorAll(".eliminator-row").forEach((row) => {
        const chosen = row.querySelector("select").value;
        if (!chosen) return;
        hidden(form, "eliminators_" + set.dataset.entry, chosen);
        const share = row.querySelector("input.pot-share");
        if (share && !share.hidden && share.value.trim()) hidden(form, "pot_share_" + set.dataset.entry + "_" + chosen, share.value.trim());
      });
    });
  }

  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (!form.matches || !form.matches("form.bust-form")) return;
    if (form.dataset.confirmed === "1") { delete form.dataset.confirmed; return; }
    e.preventDefault();
    const out = who(form, e.submitter);
    const names = out.map((p) => p.name + " — " + T.where.replace("{t}", p.table).replace("{s}", p.seat));
    const list = document.getElementById("bust-confirm-list");
    list.replaceChildren(...(names.length ? names : [T.noneTicked]).map((text) => {
      const li = document.createElement("li"); li.textContent = text; return li;
    }));
    const same = form.querySelector("input[name=same_hand]");
    if (names.length > 1 && same && same.checked && !(e.submitter && e.submitter.name === "only")) {
      const li = document.createElement("li"); li.className = "muted"; li.textContent = "(" + T.sameHand + ")"; list.append(li);
    }
    if (box) {
      const players = bounty ? stillSeated(out.map((p) => p.id)) : [];
      box.replaceChildren(...(bounty ? out.map((p) => askEliminators(p, players)) : []), ...(bounty && director ? [overrideReason()] : []));
    }
    document.getElementById("bust-confirm-ok").hidden = !names.length;
    pending = { form, submitter: e.submitter };
    dialog.returnValue = "";
    dialog.showModal(); // focus on Cancel (autofocus), never on the irreversible "Yes, out"...
    const pick = box && box.querySelector("select");
    if (pick) pick.focus(); // ...or on the first question to answer: who won the pot
  });

  if (box) {
    box.addEventListener("change", syncOverride);
    box.addEventListener("click", syncOverride); // a winner removed from a split pot
  }

  dialog.addEventListener("close", () => {
    const p = pending; pending = null;
    if (!p || dialog.returnValue !== "ok") return;
    putEliminators(p.form);
    p.form.dataset.confirmed = "1";
    if (p.submitter && p.form.contains(p.submitter)) p.form.requestSubmit(p.submitter); else p.form.requestSubmit();
  });
})();

// After a post the page comes back at the table (or the bust just recorded) it was about, and
// so does the keyboard, not at the top of a long map; the table jumps move it the same way.
(function () {
  function focusTarget() {
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target && target.tabIndex === -1) target.focus();
  }
  focusTarget();
  window.addEventListener("hashchange", focusTarget);
})();
