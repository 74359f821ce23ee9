// The player's phone page: "Notify me". One tap asks the browser's permission, subscribes this
// phone with the push service (the installation's public key from /p/<token>/push/) and hands
// the subscription to the server with the kinds of notice the player ticks; "Stop notices"
// deletes it. The service worker (/p/sw.js) shows each notice and opens the player's page on a
// tap. Where the browser cannot (an iPhone before the page is on its home screen), the page
// says how; where the page is not on a secure address (plain HTTP), it says that is why, and
// gives the secure address when the room has one phones trust. Everything is written as text.
(function () {
  const $ = (id) => document.getElementById(id);
  const card = $("push-card");
  if (!card) return;
  const T = JSON.parse($("phone-i18n").textContent);
  const url = "/p/" + encodeURIComponent($("phone").dataset.token) + "/push/";
  const button = $("push-button"), status = $("push-status"), kinds = $("push-kinds");
  let registration = null, subscription = null, subscribed = false, offered = [];

  const say = (text) => { status.textContent = text; };
  const chosen = () => Array.from(kinds.querySelectorAll("input:checked")).map((box) => box.value);
  const fromB64 = (text) => {
    const raw = atob((text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  };

  function showKinds(list, ticked) {
    kinds.replaceChildren();
    const legend = document.createElement("legend");
    legend.textContent = T.pushKinds;
    kinds.append(legend);
    list.forEach((k) => {
      const label = document.createElement("label"), box = document.createElement("input");
      box.type = "checkbox"; box.value = k.kind; box.checked = !ticked.length || ticked.includes(k.kind);
      box.addEventListener("change", () => { if (subscribed) send(); });
      label.append(box, document.createTextNode(" " + k.label));
      kinds.append(label);
    });
    kinds.hidden = !list.length;
  }

  function show() {
    button.textContent = subscribed ? T.pushStop : T.pushStart;
    button.setAttribute("aria-pressed", subscribed ? "true" : "false");
    say(subscribed ? T.pushOn : Notification.permission === "denied" ? T.pushDenied : T.pushOff);
  }

  // What the player reads when it fails: the room's own words (the server's refusal is already
  // in his language), never the browser's ("Registration failed - permission denied").
  class Said extends Error {}
  const SUBSCRIBE_WAIT = 15000; // a push service that does not answer: said, not a button greyed for a minute
  const within = (promise, ms) => Promise.race([promise, new Promise((_ok, fail) => setTimeout(() => fail(new Said(T.pushService)), ms))]);

  async function send() {
    const body = Object.assign(subscription.toJSON(), { kinds: chosen() });
    const r = await TDM.api(url, { method: "POST", body });
    if (!r.ok) throw new Said((r.data && r.data.detail) || T.pushFailed);
    subscribed = true;
  }

  async function start() {
    const answer = await Notification.requestPermission();
    if (answer !== "granted") { subscribed = false; return; }
    say(T.pushWorking);
    const info = await TDM.api(url);
    if (!info.ok) throw new Said((info.data && info.data.detail) || T.pushFailed);
    try {
      subscription = await within(registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromB64(info.data.key) }), SUBSCRIBE_WAIT);
    } catch (e) {
      // allowed, yet refused or unanswered: the phone's push service, not the player's choice
      throw e instanceof Said ? e : new Said(T.pushService);
    }
    await send();
  }

  async function stop() {
    const r = await TDM.api(url, { method: "DELETE", body: { endpoint: subscription.endpoint } });
    if (!r.ok && r.status !== 404) throw new Said((r.data && r.data.detail) || T.pushFailed);
    await subscription.unsubscribe();
    subscription = null; subscribed = false;
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    try { await (subscribed ? stop() : start()); show(); }
    catch (e) { say(e instanceof Said ? e.message : T.pushFailed); }
    finally { button.disabled = false; }
  });

  async function init() {
    if (!window.isSecureContext) {
      // Notices need a secure page: the browser is able, this address is not. Say so, and where.
      const secure = $("push-secure");
      card.hidden = false; button.hidden = true;
      say(secure ? T.pushInsecure : T.pushInsecureNone);
      if (secure) secure.hidden = false;
      return;
    }
    const able = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
    if (!able) {
      const apple = /iPhone|iPad|iPod/.test(navigator.userAgent) && !navigator.standalone;
      card.hidden = false; button.hidden = true;
      say(apple ? T.pushApple : T.pushUnable);
      return;
    }
    registration = await navigator.serviceWorker.register("/p/sw.js", { scope: "/p/" });
    subscription = await registration.pushManager.getSubscription();
    const r = await TDM.api(subscription ? url + "?endpoint=" + encodeURIComponent(subscription.endpoint) : url);
    if (!r.ok) return;
    offered = r.data.kinds;
    subscribed = !!r.data.subscribed;
    showKinds(offered, r.data.chosen || []);
    // the page is in another language than his notices (he picked one): his notices follow it
    if (subscribed && r.data.language && r.data.language !== document.documentElement.lang) send().catch(() => {});
    card.hidden = false;
    show();
  }
  init().catch(() => { card.hidden = false; button.hidden = true; say(T.pushUnable); });
})();
