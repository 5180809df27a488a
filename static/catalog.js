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

// The install tab chosen once is chosen again on every skill page: kept in localStorage by the
// agent's id. Without script (or storage) the first tab is simply the one shown.
(function () {
  "use strict";
  var KEY = "catalog.agent";
  var radios = document.querySelectorAll("#install input.tab-radio[name=agent]");
  if (!radios.length) return;
  var saved = null;
  try { saved = localStorage.getItem(KEY); } catch (e) { return; }
  if (saved) {
    radios.forEach(function (radio) { if (radio.id === "tab-" + saved) radio.checked = true; });
  }
  radios.forEach(function (radio) {
    radio.addEventListener("change", function () {
      if (!radio.checked) return;
      try { localStorage.setItem(KEY, radio.id.replace(/^tab-/, "")); } catch (e) { /* storage refused: nothing kept */ }
    });
  });
})();

// Opened from a file (file://) rather than served: a link to a folder would show the folder's
// listing, so links and the search form are pointed at the folders' index.html, and one line
// says that search needs the site served (`catalog serve --open`).
(function () {
  "use strict";
  if (location.protocol !== "file:") return;
  function toIndex(url) {
    // Only the site's own relative links: not an address with a scheme, not a fragment alone.
    if (!url || /^([a-z][a-z0-9+.-]*:|\/\/|#|\?)/i.test(url)) return url;
    var cut = url.search(/[?#]/);
    var path = cut < 0 ? url : url.slice(0, cut), rest = cut < 0 ? "" : url.slice(cut);
    if (/(^|\/)\.{0,2}$/.test(path) && path !== "") return path.replace(/\/?$/, "/") + "index.html" + rest;
    return url;
  }
  document.querySelectorAll("a[href]").forEach(function (a) {
    a.setAttribute("href", toIndex(a.getAttribute("href")));
  });
  document.querySelectorAll("form[action]").forEach(function (form) {
    form.setAttribute("action", toIndex(form.getAttribute("action")));
  });
  var main = document.getElementById("main");
  if (!main) return;
  var note = document.createElement("p");
  note.className = "file-note";
  note.textContent = "Opened as a file: pages work, search does not. Run “catalog serve --open” to browse the site served.";
  main.insertBefore(note, main.firstChild);
})();
