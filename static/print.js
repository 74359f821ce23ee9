// Included only when the page was opened with ?print: the print dialog opens once the page has loaded.
window.addEventListener("load", () => window.print());
