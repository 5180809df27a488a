// Served only by `catalog serve`: reloads the page after a rebuild and shows build errors
// over the page while the last good site stays served.
(function () {
  "use strict";
  var source = new EventSource("/__catalog/events");
  var overlay = null;
  source.addEventListener("reload", function () { location.reload(); });
  source.addEventListener("build-error", function (event) {
    if (!overlay) {
      overlay = document.createElement("div");
      overlay.setAttribute("role", "alert");
      overlay.style.cssText = "position:fixed;inset:auto 1rem 1rem 1rem;max-height:50vh;overflow:auto;z-index:9999;" +
        "background:#2b0b0e;color:#ffd7d7;border:2px solid #ff6b6b;border-radius:10px;padding:1rem;" +
        "font:14px/1.5 ui-monospace,monospace;white-space:pre-wrap;box-shadow:0 8px 30px rgba(0,0,0,.4)";
      document.body.appendChild(overlay);
    }
    overlay.textContent = "catalog build failed; showing the last good site.\n\n" + event.data;
  });
})();
