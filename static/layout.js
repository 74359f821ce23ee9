// A lobby screen's layout: the blocks of a design placed on a grid of GRID × GRID
// cells, each holding one part of the screen (the parts are in the page, #parts) or a text or an
// image of the layout's own. A layout is data: it is placed with the CSS object model and its
// texts are text nodes, so nothing of it reaches the page as markup or as a style sheet.
// Each block's type is as large as its block allows (TDMLayout.fit): never cut, never spilling.
window.TDMLayout = (function () {
  const GRID = 24;
  // The type size of a block at font 1, in hundredths of the screen's height: the size today's
  // screen gave each part; a block too small for it is set smaller (fit).
  const NOMINAL = {
    name: 4, clock: 6, blinds: 9, next: 3.6, players: 4.6, stacks: 4.6, pool: 4.6, payouts: 3, chips: 3,
    seats: 3, moves: 3, announcements: 3, league: 3.2, bounties: 3.2, results: 3.4, rules: 3, text: 4, lastbust: 5, finaltable: 3, payjumps: 3.6, ticker: 3,
  };
  const MIN_PX = 6;

  function node(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  // Place ``design`` in ``root``: a block per entry, its part moved in from ``parts`` (a part not
  // placed waits there, hidden). ``opts.imageUrl(id)`` gives an image's address; ``opts.omit``
  // the kinds the screen leaves out (its panels switched off).
  function apply(root, parts, design, opts) {
    opts = opts || {};
    const theme = design.theme || {};
    root.querySelectorAll(".block").forEach((b) => { const p = b.querySelector(":scope > .part[data-part]"); if (p) parts.append(p); b.remove(); });
    root.classList.add("layout");
    root.style.setProperty("--bg", theme.background || "#0f172a");
    root.style.setProperty("--fg", theme.text || "#e2e8f0");
    root.style.setProperty("--accent", theme.accent || "#93c5fd");
    root.style.gridTemplateColumns = "repeat(" + GRID + ", minmax(0, 1fr))";
    root.style.gridTemplateRows = "repeat(" + GRID + ", minmax(0, 1fr))";
    const blocks = [];
    (design.blocks || []).forEach((b, i) => {
      if (opts.omit && opts.omit.has(b.kind)) return;
      const block = node("section", undefined, "block");
      block.dataset.kind = b.kind;
      block.dataset.index = String(i);
      block.dataset.font = String(b.font || 1);
      block.style.gridArea = (b.y + 1) + " / " + (b.x + 1) + " / span " + b.h + " / span " + b.w;
      block.dataset.cells = [b.x, b.y, b.w, b.h].join(",");
      if (b.fg) block.style.color = b.fg;
      if (b.bg) block.style.backgroundColor = b.bg;
      const part = parts.querySelector(':scope > .part[data-part="' + b.kind + '"]');
      if (part) block.append(part);
      else if (b.kind === "text" || b.kind === "rules") {
        const box = node("div", undefined, "part " + b.kind);
        (b.text || "").split("\n").forEach((line) => box.append(node(b.kind === "rules" ? "p" : "div", line)));
        block.append(box);
      } else if (b.kind === "logo" || b.kind === "sponsor") {
        const img = node("img", undefined, "part picture");
        img.alt = "";
        if (b.image && opts.imageUrl) img.src = opts.imageUrl(b.image);
        block.append(img);
      }
      root.append(block);
      blocks.push(block);
    });
    return blocks;
  }

  // The block, or its part inside (whose overflow may hide in the block's padding), is too small
  // for its content.
  const spills = (e) => !!e && (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1);
  function overflows(block) {
    return spills(block) || [...block.children].some((part) => part.clientWidth > 0 && spills(part));
  }

  // The largest type (up to the block's font × its nominal size) at which the block's content
  // fits it, by halving the interval; a block whose content, size and state are as at the last
  // fit keeps its type (the clock's seconds change every second, their width does not).
  function fit(root, force) {
    const vh = root.clientHeight / 100;
    root.querySelectorAll(".block").forEach((block) => {
      if (block.hidden || block.classList.contains("waiting-turn")) return;
      const kind = block.dataset.kind;
      if (kind === "logo" || kind === "sponsor") return;
      const key = [block.textContent.length, block.clientWidth, block.clientHeight, root.dataset.state, root.className].join("|");
      if (!force && block.dataset.fitted === key) return;
      const top = Math.max(MIN_PX, (NOMINAL[kind] || 3) * vh * Number(block.dataset.font || 1));
      block.style.fontSize = top + "px";
      // a ticker runs its line through the block: wider than the block is what it is for
      if (kind !== "ticker" && overflows(block)) {
        let lo = MIN_PX, hi = top;
        for (let i = 0; i < 9; i++) {
          const mid = (lo + hi) / 2;
          block.style.fontSize = mid + "px";
          if (overflows(block)) hi = mid; else lo = mid;
        }
        block.style.fontSize = lo + "px";
      }
      block.dataset.fitted = key;
    });
  }

  return { GRID, apply, fit, overflows };
})();
