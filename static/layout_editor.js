// The layout editor: the screen scaled down, its blocks dragged and resized with the
// mouse or moved and resized with the keyboard, their colours, type size, texts and images set in
// the panel, every change undoable, the design saved through the API. The live preview is the
// lobby screen itself in a window of its own, on a tournament's data, sent each change as it is made.
(function () {
  const D = JSON.parse(document.getElementById("layout-editor-data").textContent);
  const T = JSON.parse(document.getElementById("layout-editor-i18n").textContent);
  const $ = (id) => document.getElementById(id);
  const GRID = D.grid, stage = $("stage");
  let design = JSON.parse(JSON.stringify(D.design)), portrait = !!D.portrait, selected = null;
  const history = [];
  const fill = (s, vals) => s.replace(/\{(\w+)\}/g, (_, k) => vals[k]);
  const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

  function remember() {
    history.push(JSON.stringify({ design, portrait }));
    if (history.length > 100) history.shift();
  }
  function undo() {
    const last = history.pop();
    if (!last) { message(T.nothing, true); return; }
    ({ design, portrait } = JSON.parse(last));
    if (selected !== null && selected >= design.blocks.length) selected = null;
    draw();
  }

  // Columns and rows are counted from 1 here as everywhere a person reads them (the design
  // stores them from 0).
  function describe(b) {
    return fill(T.cell, { name: D.kinds[b.kind] || b.kind, x: b.x + 1, y: b.y + 1, w: b.w, h: b.h });
  }
  const sameCells = (a, b) => a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
  const meet = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  // Blocks on exactly the same cells take turns on the screen; the block that takes over at the
  // end (the results) may cover others; any other overlap is refused on saving
  // (tournaments/layouts.py, the one rule: this only shows it as the blocks move).
  function turnsOf(i) {
    const b = design.blocks[i];
    return design.blocks.map((o, j) => j).filter((j) => j !== i && sameCells(b, design.blocks[j]));
  }
  function overlaps() {
    const out = [];
    design.blocks.forEach((a, i) => design.blocks.forEach((b, j) => {
      if (j > i && meet(a, b) && !sameCells(a, b) && a.kind !== D.takesOver && b.kind !== D.takesOver) out.push([i, j]);
    }));
    return out;
  }
  const label = (b) => (b.kind === "text" || b.kind === "rules" ? (b.text || D.kinds[b.kind]).slice(0, 60) : D.kinds[b.kind]);

  // --- the stage ------------------------------------------------------------------------------
  function draw() {
    stage.classList.toggle("portrait", portrait);
    stage.style.setProperty("--bg", design.theme.background);
    stage.style.setProperty("--fg", design.theme.text);
    stage.style.setProperty("--accent", design.theme.accent);
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.index : null;
    const clashes = overlaps(), clashing = new Set(clashes.flat());
    stage.replaceChildren(...design.blocks.map((b, i) => {
      const e = document.createElement("div");
      const others = turnsOf(i), place = others.filter((j) => j < i).length;
      e.className = "eblock" + (i === selected ? " selected" : "") + (others.length ? " turn" : "") + (b.kind === D.takesOver ? " at-end" : "") + (clashing.has(i) ? " clash" : "");
      e.tabIndex = 0;
      e.setAttribute("role", "button");
      e.setAttribute("aria-pressed", String(i === selected));
      e.setAttribute("aria-label", describe(b) + (others.length ? " — " + fill(T.turns, { names: others.map((j) => label(design.blocks[j])).join(", ") }) : "") + (b.kind === D.takesOver ? " — " + T.atEnd : ""));
      e.dataset.index = String(i);
      e.style.left = (100 * b.x / GRID) + "%";
      e.style.top = (100 * b.y / GRID) + "%";
      e.style.width = (100 * b.w / GRID) + "%";
      e.style.height = (100 * b.h / GRID) + "%";
      if (b.bg) e.style.backgroundColor = b.bg;
      if (b.fg) e.style.color = b.fg;
      const name = document.createElement("span");
      name.className = "name";
      // blocks that take turns: one name a line, marked as turns, never printed over each other
      name.textContent = (others.length ? "⇄ " : "") + label(b) + (b.kind === D.takesOver ? " · " + T.atEnd : "");
      if (place) name.style.marginTop = (1.4 * place) + "em";
      const handle = document.createElement("span");
      handle.className = "handle";
      handle.setAttribute("aria-hidden", "true");
      e.append(name, handle);
      return e;
    }));
    if (focused !== null) { const again = stage.querySelector('[data-index="' + focused + '"]'); if (again) again.focus(); }
    const warn = $("f-overlaps");
    warn.replaceChildren(...clashes.map(([i, j]) => {
      const li = document.createElement("li"), a = design.blocks[i], b = design.blocks[j];
      li.textContent = fill(T.overlap, { a: describe(b), b: describe(a) });
      return li;
    }));
    $("f-overlaps-box").hidden = !clashes.length;
    panel();
    send();
  }

  function select(i) { selected = i; draw(); }

  // Dragging: the block follows the pointer cell by cell; its corner handle resizes it.
  let drag = null;
  stage.addEventListener("pointerdown", (e) => {
    const el = e.target.closest(".eblock");
    if (!el) return;
    const i = Number(el.dataset.index), b = design.blocks[i];
    if (selected !== i) select(i);
    const rect = stage.getBoundingClientRect();
    drag = { i, resize: e.target.classList.contains("handle"), x0: e.clientX, y0: e.clientY, start: { ...b }, cw: rect.width / GRID, ch: rect.height / GRID, moved: false };
    stage.setPointerCapture(e.pointerId);
    e.preventDefault();
  });
  stage.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const dx = Math.round((e.clientX - drag.x0) / drag.cw), dy = Math.round((e.clientY - drag.y0) / drag.ch), s = drag.start;
    const b = design.blocks[drag.i];
    const next = drag.resize
      ? { w: clamp(s.w + dx, 1, GRID - s.x), h: clamp(s.h + dy, 1, GRID - s.y) }
      : { x: clamp(s.x + dx, 0, GRID - s.w), y: clamp(s.y + dy, 0, GRID - s.h) };
    if (Object.keys(next).some((k) => next[k] !== b[k])) {
      if (!drag.moved) { remember(); drag.moved = true; }
      Object.assign(b, next);
      draw();
    }
  });
  const drop = () => { drag = null; };
  stage.addEventListener("pointerup", drop);
  stage.addEventListener("pointercancel", drop);

  // The keyboard: arrows move, Shift+arrows resize, Delete removes, Enter or Space selects.
  stage.addEventListener("keydown", (e) => {
    const el = e.target.closest(".eblock");
    if (!el) return;
    const i = Number(el.dataset.index), b = design.blocks[i];
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (step) {
      e.preventDefault();
      remember();
      if (e.shiftKey) { b.w = clamp(b.w + step[0], 1, GRID - b.x); b.h = clamp(b.h + step[1], 1, GRID - b.y); }
      else { b.x = clamp(b.x + step[0], 0, GRID - b.w); b.y = clamp(b.y + step[1], 0, GRID - b.h); }
      selected = i;
      draw();
    } else if (e.key === "Delete" || e.key === "Backspace") {
      e.preventDefault();
      removeBlock(i);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      select(i);
    }
  });
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z" && !e.target.closest("input, textarea")) { e.preventDefault(); undo(); }
  });

  function removeBlock(i) {
    remember();
    design.blocks.splice(i, 1);
    selected = null;
    draw();
    const first = stage.querySelector(".eblock");
    if (first) first.focus();
  }

  // --- the panel ---------------------------------------------------------------------------
  const kindSelect = $("f-add-kind");
  function kindsLeft() {
    const placed = new Set(design.blocks.map((b) => b.kind));
    return Object.keys(D.kinds).filter((k) => D.repeatable.includes(k) || !placed.has(k));
  }
  D.images.forEach((img) => { const o = document.createElement("option"); o.value = String(img.id); o.textContent = img.name; $("f-image").append(o); });
  const font = $("f-font");
  font.min = String(D.font[0]); font.max = String(D.font[1]);

  function panel() {
    $("f-name").value = $("f-name").value || D.name;
    $("f-portrait").checked = portrait;
    ["background", "text", "accent"].forEach((k) => { $("f-theme-" + k).value = design.theme[k]; });
    const left = kindsLeft();
    kindSelect.replaceChildren(...left.map((k) => { const o = document.createElement("option"); o.value = k; o.textContent = D.kinds[k]; return o; }));
    $("f-add").disabled = !left.length;
    const b = selected !== null ? design.blocks[selected] : null;
    $("f-block").disabled = !b;
    $("f-block-name").textContent = b ? D.kinds[b.kind] : "—";
    if (!b) return;
    $("f-x").max = String(GRID); $("f-y").max = String(GRID); $("f-w").max = String(GRID); $("f-h").max = String(GRID);
    $("f-x").value = b.x + 1; $("f-y").value = b.y + 1; $("f-w").value = b.w; $("f-h").value = b.h;
    const others = turnsOf(selected);
    $("f-turns").hidden = !others.length;
    $("f-turns").textContent = others.length ? fill(T.turns, { names: others.map((j) => label(design.blocks[j])).join(", ") }) : "";
    font.value = b.font; $("f-font-out").textContent = "× " + Number(b.font).toFixed(2);
    $("f-fg-theme").checked = !b.fg; $("f-fg").value = b.fg || design.theme.text;
    $("f-bg-theme").checked = !b.bg; $("f-bg-none").checked = b.bg === "transparent";
    $("f-bg").value = b.bg && b.bg !== "transparent" ? b.bg : design.theme.background;
    const text = b.kind === "text" || b.kind === "rules", image = b.kind === "logo" || b.kind === "sponsor";
    $("f-text-box").hidden = !text; $("f-image-box").hidden = !image;
    if (text) $("f-text").value = b.text || "";
    if (image) $("f-image").value = b.image ? String(b.image) : "";
  }

  // A field changed: the block (or the theme) takes it; one undo step per change.
  function change(fn) { remember(); fn(); draw(); }
  const block = () => design.blocks[selected];
  const num = (id) => parseInt($(id).value, 10);
  [["f-x", (b, v) => { b.x = clamp(v - 1, 0, GRID - b.w); }], ["f-y", (b, v) => { b.y = clamp(v - 1, 0, GRID - b.h); }],
   ["f-w", (b, v) => { b.w = clamp(v, 1, GRID - b.x); }], ["f-h", (b, v) => { b.h = clamp(v, 1, GRID - b.y); }]].forEach(([id, set]) => {
    $(id).addEventListener("change", () => { const v = num(id); if (!Number.isNaN(v)) change(() => set(block(), v)); });
  });
  font.addEventListener("change", () => change(() => { block().font = Number(font.value); }));
  font.addEventListener("input", () => { $("f-font-out").textContent = "× " + Number(font.value).toFixed(2); });
  ["fg", "bg"].forEach((k) => {
    $("f-" + k).addEventListener("change", () => change(() => { block()[k] = $("f-" + k).value; }));
    $("f-" + k + "-theme").addEventListener("change", () => change(() => { block()[k] = $("f-" + k + "-theme").checked ? "" : $("f-" + k).value; }));
  });
  $("f-bg-none").addEventListener("change", () => change(() => { block().bg = $("f-bg-none").checked ? "transparent" : ($("f-bg-theme").checked ? "" : $("f-bg").value); }));
  $("f-text").addEventListener("change", () => change(() => { block().text = $("f-text").value; }));
  $("f-image").addEventListener("change", () => change(() => { block().image = Number($("f-image").value) || undefined; }));
  ["background", "text", "accent"].forEach((k) => $("f-theme-" + k).addEventListener("change", () => change(() => { design.theme[k] = $("f-theme-" + k).value; })));
  $("f-portrait").addEventListener("change", () => change(() => { portrait = $("f-portrait").checked; }));
  $("f-remove").addEventListener("click", () => { if (selected !== null) removeBlock(selected); });
  $("f-undo").addEventListener("click", undo);
  $("f-add").addEventListener("click", () => {
    const kind = kindSelect.value;
    if (!kind) return;
    change(() => {
      const b = { kind, x: 0, y: 0, w: 6, h: 4, font: 1, fg: "", bg: "" };
      if (kind === "text" || kind === "rules") b.text = D.kinds[kind];
      if ((kind === "logo" || kind === "sponsor") && D.images.length) b.image = D.images[0].id;
      design.blocks.push(b);
      selected = design.blocks.length - 1;
    });
    const added = stage.querySelector('[data-index="' + selected + '"]');
    if (added) added.focus();
  });

  function message(text, error) {
    const m = $("f-msg");
    m.textContent = text;
    m.className = "message " + (error ? "error" : "ok");
  }
  $("editor-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const blocks = design.blocks.map((b) => { const out = { ...b }; if (out.image === undefined) delete out.image; return out; });
    const r = await TDM.api("screen-layouts/" + D.id + "/", { method: "PUT", body: { name: $("f-name").value, portrait, design: { theme: design.theme, blocks } } });
    const d = r.data || {};
    if (r.ok) { $("layout-title").textContent = d.name; message(T.saved, false); } else message(d.detail || d.code, true);
  });

  // --- the live preview ---------------------------------------------------------------------
  let preview = null;
  function send() {
    if (preview && !preview.closed) preview.postMessage({ tdmLayout: { design, portrait } }, location.origin);
  }
  $("preview-open").addEventListener("click", () => {
    const t = $("preview-tournament").value;
    preview = window.open("/screens/layouts/preview/?tournament=" + encodeURIComponent(t) + "&key=" + encodeURIComponent("layout:" + D.id), "tdm-layout-preview");
    // the preview draws the saved layout first; the design being made follows once it has loaded
    let tries = 0;
    const timer = setInterval(() => { send(); if (++tries >= 10) clearInterval(timer); }, 500);
  });

  draw();
})();
