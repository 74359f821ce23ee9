// Starts ReDoc on /api/redoc/. Its CSS is injected by script: the nonce lets the CSP accept it.
(function () {
  const el = document.getElementById("redoc-container");
  Redoc.init(el.dataset.specUrl, { nonce: el.dataset.styleNonce }, el);
})();
