// Behaviour every page shares, bound here rather than in inline handlers (the CSP forbids them):
//   <select data-autosubmit>                    submits its form on change (the language picker)
//   <form data-confirm="question?">             asks before submitting
//   <button data-confirm="question?">           asks before its click does anything
//   <button data-print>                         prints the page
//   <button data-set-field="entry" data-set-value="12">  sets that field of its form, then submits
// Listeners sit on the document, so content swapped in later (the table map) behaves the same.
(function () {
  document.addEventListener("change", (e) => {
    const el = e.target;
    if (el.matches && el.matches("select[data-autosubmit]") && el.form) el.form.submit();
  });
  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (form.matches && form.matches("form[data-confirm]") && !window.confirm(form.dataset.confirm)) e.preventDefault();
  });
  document.addEventListener("click", (e) => {
    const el = e.target.closest ? e.target.closest("[data-confirm], [data-print], [data-set-field]") : null;
    if (!el || el.tagName === "FORM") return;
    if (el.hasAttribute("data-confirm") && !window.confirm(el.dataset.confirm)) { e.preventDefault(); return; }
    if (el.hasAttribute("data-print")) { e.preventDefault(); window.print(); return; }
    if (el.hasAttribute("data-set-field") && el.form) el.form.elements.namedItem(el.dataset.setField).value = el.dataset.setValue;
  });
})();
