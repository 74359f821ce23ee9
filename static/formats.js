// Lobby pages of the formats: poll the JSON of this page and reload when it changes
// (a TV has no keyboard; a network blip just means the next poll tries again).
(function () {
  var url = document.body.getAttribute("data-refresh");
  if (!url) return;
  var last = null;
  function poll() {
    window.TDM.request(url, { cache: "no-store" }).then(function (r) { return r.ok ? r.text() : null; }).then(function (text) {
      if (text === null) return;
      if (last !== null && text !== last) { window.location.reload(); return; }
      last = text;
    }).catch(function () {}).finally(function () { setTimeout(poll, 10000); });
  }
  poll();
})();
