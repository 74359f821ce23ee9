// People: search as you type. The page is read again with ?q= and its list put in place of this
// one (the server wrote every value as text); without script the form does the same.
(function(){
  const q = document.getElementById("q"), form = document.getElementById("people-search");
  let timer, asked = 0;
  async function load(){
    const term = q.value.trim(), mine = ++asked;
    const url = location.pathname + (term.length >= 2 ? "?q=" + encodeURIComponent(term) : "");
    const r = await TDM.request(url); if (!r.ok || mine !== asked) return;
    const page = new DOMParser().parseFromString(await r.text(), "text/html");
    const list = page.getElementById("people-list"), here = document.getElementById("people-list");
    if (list && here) here.replaceWith(document.adoptNode(list));
    history.replaceState(null, "", url);
  }
  q.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(load, 150); });
  form.addEventListener("submit", e => { e.preventDefault(); clearTimeout(timer); load(); });
})();
