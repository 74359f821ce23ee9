// The room map on a screen of its own reads itself again every 20 seconds: the page's own
// autoescaped output, parsed into an inert document (nothing in it runs), its map and counts moved
// in, never assigned as HTML. No page reload: the screen never blinks or loses its place.
(function () {
  const root = document.getElementById("roomscreen");
  if (!root) return;
  async function refresh() {
    try {
      const r = await TDM.request(window.location.href, { cache: "no-store" });
      if (!r.ok) return;
      const doc = new DOMParser().parseFromString(await r.text(), "text/html");
      const fresh = doc.getElementById("roomscreen");
      if (fresh) root.replaceChildren(...Array.from(fresh.childNodes).map((n) => document.importNode(n, true)));
    } catch (e) {
      // the network is down: the map stays as it was until the next try
    }
  }
  setInterval(refresh, 20000);
})();
