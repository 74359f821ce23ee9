// The trust page's "Check this device": asks the room's secure address (/trust/check, CORS) and
// says whether this device trusts it (the browser accepted its certificate), and whether the
// floor's offline mode (a service worker) and notices (Push) are available on this page.
(function () {
  const box = document.getElementById("trust-check");
  if (!box) return;
  const T = JSON.parse(document.getElementById("trust-i18n").textContent);
  const button = document.getElementById("trust-check-button"), result = document.getElementById("trust-result");
  const check = box.dataset.check;

  function line(ok, text) {
    const li = document.createElement("li");
    li.className = ok ? "yes" : "no";
    li.textContent = text;
    result.append(li);
  }

  // TDM.request (static/tdm.js): a cross-origin GET without the session's cookie. A device that
  // reaches no answer in 8 seconds is told as one whose browser refused the certificate.
  async function reaches() {
    if (!check) return null;
    const late = new Promise((resolve) => setTimeout(() => resolve(false), 8000));
    const asked = TDM.request(check, { cache: "no-store" }).then((r) => r.ok, () => false);
    return Promise.race([asked, late]);
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    result.replaceChildren();
    const wait = document.createElement("li");
    wait.textContent = T.checking;
    result.append(wait);
    const trusted = await reaches();
    result.replaceChildren();
    if (trusted === null) line(false, T.noRoom);
    else line(trusted, trusted ? T.trusted : T.untrusted);
    const secure = window.isSecureContext;
    const worker = "serviceWorker" in navigator && secure;
    line(worker, worker ? T.offlineYes : secure ? T.offlineNoBrowser : T.offlineNo);
    const push = "PushManager" in window && secure;
    line(push, push ? T.pushYes : secure ? T.pushNoBrowser : T.pushNo);
    button.disabled = false;
  });
})();
