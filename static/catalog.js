// Progressive enhancement only: every page works without this file.
// Copy buttons: shown only when the Clipboard API is there to back them. A button copies the
// text of the code block beside it, less what is hidden from assistive technology (the "$ "
// prompt), so a page carries each command once.
(function () {
  "use strict";
  if (!navigator.clipboard) return;
  function shownText(code) {
    var copy = code.cloneNode(true);
    copy.querySelectorAll("[aria-hidden=true]").forEach(function (node) { node.remove(); });
    return copy.textContent;
  }
  document.querySelectorAll(".cmd button.copy").forEach(function (button) {
    var code = button.parentNode.querySelector("code");
    if (!code) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(shownText(code)).then(
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
