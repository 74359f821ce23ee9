// Starts ReDoc on /api/redoc/ with our schema (the stock template does it inline).
(function () {
  const el = document.getElementById("redoc-container");
  Redoc.init(el.dataset.specUrl, {}, el);
})();
