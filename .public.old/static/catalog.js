// Progressive enhancement only: every page works without this file.
// Copy buttons: shown only when the Clipboard API is there to back them.
(function () {
  "use strict";
  if (!navigator.clipboard) return;
  document.querySelectorAll("button.copy[data-copy]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(button.getAttribute("data-copy")).then(
        function () { flash(button, "Copied"); },
        function () { flash(button, "Press Ctrl+C"); }
      );
    });
  });
  function flash(button, text) {
    var old = button.textContent;
    button.textContent = text;
    setTimeout(function () { button.textContent = old; }, 1500);
  }
})();
