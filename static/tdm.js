// Behaviour every page shares, bound here rather than in inline handlers (the CSP forbids them):
//   <select data-autosubmit>                    submits its form on change (the language picker)
//   <form data-confirm="question?">             asks before submitting (an in-page dialog)
//   <button data-confirm="question?">           asks before its click does anything
//   <button data-print>                         prints the page
//   <button data-set-field="entry" data-set-value="12">  sets that field of its form, then submits
// Listeners sit on the document, so content swapped in later (the table map) behaves the same.
//
// window.TDM, for the pages' scripts (loaded before them):
//   TDM.ask({title, label, value, input: "text" | "number" | "textarea" | "select", options: [[value, label]],
//            required})                     → Promise of the answer (a string), or null when cancelled
//   TDM.confirm(question)                    → Promise of true / false
//   TDM.num(n[, maxDecimals, minDecimals]), TDM.money(amount, currency)
//                                            → numbers and money in the page's language (Intl.NumberFormat):
//                                              the only number formatter of the pages ("12.500", "1.234,00 EUR" in Italian)
//   TDM.csrf()                               → the CSRF token from its cookie
//   TDM.forgetLogin()                        → what this tablet kept of the login (the floor's copy, its queue) unreadable
//   TDM.request(url, opts)                   → the one fetch() of the pages: the session's cookie, and on a write the
//                                              CSRF token and the page's language; opts.body: an object (sent as JSON),
//                                              a JSON string or FormData; opts.key: the Idempotency-Key; → the Response
//   TDM.api(path, opts)                      → {ok, status, data}: path under /api/v1/ (or from "/"), data its JSON answer
//                                              (or {detail: the status text}); a refusal's data.detail names each field.
//                                              opts.once: every POST carries an idempotency key, one per opts.form
//                                              (default: path and body), kept until the server answered it, so a
//                                              retry after a lost answer or a refusal replays rather than acts twice
// The dialogs are one <dialog class="tdm-dialog"> with a labelled field and OK / Cancel, never the
// browser's prompt() or confirm(): they are styled, translated and reachable by keyboard (Esc cancels).
(function () {
  const lang = () => document.documentElement.lang || "en";
  function strings() {
    const el = document.getElementById("tdm-i18n");
    try { return el ? JSON.parse(el.textContent) : {}; } catch (e) { return {}; }
  }
  const numberFormats = {};
  function fmt(min, max) {
    const key = lang() + ":" + min + ":" + max;
    if (!numberFormats[key]) {
      // useGrouping "always": ICU leaves Italian four-digit numbers ungrouped ("1234,00"); the
      // server's slips and pages write "1.234,00", and so does every page.
      numberFormats[key] = new Intl.NumberFormat(lang(), { minimumFractionDigits: min, maximumFractionDigits: max, useGrouping: "always" });
    }
    return numberFormats[key];
  }
  // maxDecimals (2 unless said: an exchange rate shows up to 6) and minDecimals (0) as written.
  function num(n, maxDecimals, minDecimals) {
    if (n === null || n === undefined || n === "") return "";
    const v = Number(n);
    return Number.isFinite(v) ? fmt(minDecimals || 0, maxDecimals === undefined ? 2 : maxDecimals).format(v) : String(n);
  }
  // The currency's sign (€, £, $) or its code where the page's language puts it ("€1,234.56",
  // "1.234,56 €"): the signs and the patterns come from the server ({% money_config %}, the one
  // table, tdmanager.formatting), so a page writes money as its slips and receipts do.
  let moneyConfig = null;
  function moneyFormat() {
    if (!moneyConfig) {
      const el = document.getElementById("tdm-money");
      try { moneyConfig = el ? JSON.parse(el.textContent) : null; } catch (e) { moneyConfig = null; }
    }
    return moneyConfig || { signs: {}, pattern: "{amount}\u00a0{currency}", codePattern: "{amount}\u00a0{currency}" };
  }
  function money(amount, currency) {
    if (amount === null || amount === undefined || amount === "") return "";
    const v = Number(amount);
    if (!Number.isFinite(v)) return String(amount);
    const text = fmt(2, 2).format(v);
    if (!currency) return text;
    const c = moneyFormat(), sign = c.signs[String(currency).toUpperCase()];
    const minus = text.startsWith("-") ? "-" : ""; // a minus goes before both: "-€5.00"
    return minus + (sign ? c.pattern : c.codePattern).replace("{amount}", () => text.slice(minus.length)).replace("{currency}", () => sign || currency);
  }

  const csrf = () => (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
  function request(url, opts) {
    opts = opts || {};
    const method = (opts.method || "GET").toUpperCase();
    const headers = Object.assign({ "Accept-Language": lang() }, opts.headers || {});
    let body = opts.body;
    if (body !== undefined && body !== null && !(body instanceof FormData)) {
      if (typeof body !== "string") body = JSON.stringify(body);
      headers["Content-Type"] = "application/json";
    }
    if (method !== "GET" && method !== "HEAD") headers["X-CSRFToken"] = csrf();
    if (opts.key) headers["Idempotency-Key"] = opts.key;
    const init = { method, headers, body, credentials: "same-origin" };
    if (opts.cache) init.cache = opts.cache;
    return fetch(url, init);
  }
  const pendingKeys = new Map();
  const newKey = () => (window.crypto && crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random());
  // The server's answers that end a key: it was used for another request, so a new one is due.
  const KEY_DONE = ["idempotency_key_mismatch", "idempotency_key_reused"];
  async function api(path, opts) {
    opts = Object.assign({}, opts || {});
    const url = path.charAt(0) === "/" ? path : "/api/v1/" + path;
    const post = (opts.method || "GET").toUpperCase() === "POST";
    const form = opts.form || path + " " + (typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body || ""));
    if (opts.once && post && !opts.key) {
      if (!pendingKeys.has(form)) pendingKeys.set(form, newKey());
      opts.key = pendingKeys.get(form);
    }
    const res = await request(url, opts);
    let data = null;
    try { data = await res.json(); } catch (e) { data = { detail: res.statusText }; }
    if (opts.once && post && (res.ok || KEY_DONE.includes(data && data.code))) pendingKeys.delete(form);
    return { ok: res.ok, status: res.status, data };
  }

  let open = null; // one dialog at a time
  let dialogs = 0; // numbers each dialog's name, for aria-labelledby
  function ask(opts) {
    opts = opts || {};
    const S = strings();
    if (open) open.close("cancel");
    return new Promise((resolve) => {
      const dlg = document.createElement("dialog");
      dlg.className = "tdm-dialog";
      const form = document.createElement("form");
      form.method = "dialog";
      // the dialog is named by its title, else by its question (a screen reader says it on opening)
      const nameId = "tdm-dialog-name-" + (++dialogs);
      if (opts.title) { const h = document.createElement("h2"); h.id = nameId; h.textContent = opts.title; form.appendChild(h); }
      let field = null;
      if (opts.input) {
        const label = document.createElement("label");
        label.textContent = opts.label || "";
        if (!opts.title) label.id = nameId;
        if (opts.input === "select") {
          field = document.createElement("select");
          (opts.options || []).forEach(([value, text]) => { const o = document.createElement("option"); o.value = value; o.textContent = text; field.appendChild(o); });
        } else if (opts.input === "textarea") {
          field = document.createElement("textarea"); field.rows = 3;
        } else {
          field = document.createElement("input"); field.type = opts.input === "number" ? "number" : "text";
          if (opts.input === "number") field.step = "any";
        }
        field.name = "answer";
        if (opts.value !== undefined && opts.value !== null) field.value = String(opts.value);
        if (opts.required) field.required = true;
        label.appendChild(field);
        form.appendChild(label);
      } else if (opts.label) {
        const p = document.createElement("p"); p.textContent = opts.label; if (!opts.title) p.id = nameId; form.appendChild(p);
      }
      const row = document.createElement("div"); row.className = "buttons";
      const cancel = document.createElement("button"); cancel.type = "button"; cancel.value = "cancel"; cancel.textContent = opts.cancel || S.cancel || "Cancel";
      const ok = document.createElement("button"); ok.type = "submit"; ok.value = "ok"; ok.className = "primary"; ok.textContent = opts.ok || S.ok || "OK";
      row.append(cancel, ok);
      form.appendChild(row);
      dlg.appendChild(form);
      if (opts.title || opts.label) dlg.setAttribute("aria-labelledby", nameId);
      cancel.addEventListener("click", () => dlg.close("cancel"));
      form.addEventListener("submit", (e) => { e.preventDefault(); if (field && !field.checkValidity()) { field.reportValidity(); return; } dlg.close("ok"); });
      dlg.addEventListener("close", () => {
        const answer = dlg.returnValue === "ok" ? (field ? field.value : "ok") : null;
        dlg.remove();
        if (open === dlg) open = null;
        resolve(answer);
      });
      document.body.appendChild(dlg);
      open = dlg;
      dlg.showModal();
      // the answer field first; a plain question starts on Cancel: Enter alone never confirms
      // what cannot be taken back ("Yes, out", Revoke, Finish)
      (field || cancel).focus();
    });
  }
  async function confirmAsk(question, okText) { return (await ask({ label: question, ok: okText })) !== null; }

  // What a tablet keeps of a login: the floor's worker's copy of the pages and API reads
  // (floor-sw.js) and the queue of actions tapped offline (floor-queue.js). When the login has
  // ended, the copy goes; each queued action keeps only what it was, where and when ("Out: …
  // (table 3)", the time of the tap), never a name or what it would have sent, and one that had
  // not reached the server shows as not sent to the next login: the floor checks at the table.
  const FLOOR_DB = "tdm-floor", FLOOR_STORE = "actions";
  async function floorDB() {
    if (!window.indexedDB) return null;
    if (indexedDB.databases && !(await indexedDB.databases()).some((d) => d.name === FLOOR_DB)) return null; // nothing kept
    return new Promise((resolve) => {
      const open = indexedDB.open(FLOOR_DB, 1);
      open.onupgradeneeded = () => open.result.createObjectStore(FLOOR_STORE, { keyPath: "id", autoIncrement: true });
      open.onsuccess = () => resolve(open.result);
      open.onerror = open.onblocked = () => resolve(null);
    });
  }
  function anonymous(a) {
    if (a.anonymous) return a;
    const out = Object.assign({}, a, { label: a.anon || "…", body: null, entries: [], anonymous: true });
    if (out.state === "waiting" || out.state === "sending") { out.state = "refused"; out.ended = true; }
    return out;
  }
  async function forgetLogin() {
    try {
      if (window.caches) for (const name of await caches.keys()) if (name.startsWith("tdm-floor-pages-")) await caches.delete(name);
    } catch (e) { /* no caches here */ }
    const d = await floorDB().catch(() => null);
    if (!d) return;
    await new Promise((resolve) => {
      const t = d.transaction(FLOOR_STORE, "readwrite"), store = t.objectStore(FLOOR_STORE);
      const all = store.getAll();
      all.onsuccess = () => all.result.forEach((a) => { if (!a.anonymous) store.put(anonymous(a)); });
      t.oncomplete = t.onerror = t.onabort = resolve;
    });
    d.close();
  }
  // Logging out (from any page) makes the browser forget all of it (the server says
  // Clear-Site-Data): floor actions still waiting on this tablet go with it, so the floor is asked
  // first, as on the floor's own pages (which ask themselves, floor-queue.js).
  async function floorWaiting() {
    const d = await floorDB().catch(() => null);
    if (!d) return 0;
    const n = await new Promise((resolve) => {
      const r = d.transaction(FLOOR_STORE, "readonly").objectStore(FLOOR_STORE).getAll();
      r.onsuccess = () => resolve(r.result.filter((a) => a.state === "waiting" || a.state === "sending").length);
      r.onerror = () => resolve(0);
    });
    d.close();
    return n;
  }
  // "Status: Paid" as the page's language writes a label and its value (French: "État : Payé"),
  // from the page's own translation (<html data-colon>)
  function colon(label, value) {
    const pattern = document.documentElement.dataset.colon || "{label}: {value}";
    return pattern.replace("{label}", () => label).replace("{value}", () => value);
  }
  // A whole sentence of the page's translation with its values put in ("{amount} still owed"):
  // each language orders the words round the values its own way
  function fill(sentence, vals) {
    return sentence.replace(/\{(\w+)\}/g, (whole, k) => (k in vals ? String(vals[k]) : whole));
  }
  window.TDM = { ask, confirm: confirmAsk, num, money, lang, csrf, request, api, newKey, KEY_DONE, forgetLogin, colon, fill };
  // the login page, where a logout and an ended session land: nothing of the last login stays readable
  document.addEventListener("DOMContentLoaded", () => { if (document.querySelector("[data-forget-login]")) forgetLogin(); });
  document.addEventListener("submit", async (e) => {
    const form = e.target;
    if (!form.matches || !form.matches("form[action$='/logout/']") || form.dataset.cleared === "1" || document.getElementById("floor-app")) return;
    // a browser that never kept a floor queue logs out at once, as a plain form does (floor-queue.js sets the mark)
    let kept = null;
    try { kept = localStorage.getItem("tdm-floor-kept"); } catch (err) { /* storage refused: nothing kept */ }
    if (!kept) return;
    e.preventDefault();
    const n = await floorWaiting().catch(() => 0);
    if (n && form.dataset.waiting && !(await confirmAsk(form.dataset.waiting.replace("{n}", n)))) return;
    form.dataset.cleared = "1";
    form.submit();
  });

  document.addEventListener("change", (e) => {
    const el = e.target;
    if (el.matches && el.matches("select[data-autosubmit]") && el.form) el.form.submit();
  });
  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (!(form.matches && form.matches("form[data-confirm]"))) return;
    if (form.dataset.confirmed === "1") { delete form.dataset.confirmed; return; }
    e.preventDefault();
    const submitter = e.submitter || null;
    confirmAsk(form.dataset.confirm).then((yes) => {
      if (!yes) return;
      form.dataset.confirmed = "1";
      if (form.requestSubmit) form.requestSubmit(submitter); else form.submit();
    });
  });
  document.addEventListener("click", (e) => {
    const el = e.target.closest ? e.target.closest("[data-confirm], [data-print], [data-set-field]") : null;
    if (!el || el.tagName === "FORM") return;
    if (el.hasAttribute("data-confirm")) {
      if (el.dataset.confirmed === "1") { delete el.dataset.confirmed; }
      else {
        e.preventDefault();
        confirmAsk(el.dataset.confirm).then((yes) => { if (yes) { el.dataset.confirmed = "1"; el.click(); } });
        return;
      }
    }
    if (el.hasAttribute("data-print")) { e.preventDefault(); window.print(); return; }
    if (el.hasAttribute("data-set-field") && el.form) el.form.elements.namedItem(el.dataset.setField).value = el.dataset.setValue;
  });
})();
