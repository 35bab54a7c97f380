/* Injected by `atlas-site serve` only (never written into _site): reloads the page when a rebuild
   succeeds, keeping the scroll position, and overlays the diagnostics when an edit breaks the build. */
(function () {
  "use strict";
  var KEY = "atlas-live-scroll";
  var known = null;
  var overlay = null;

  try {
    var saved = sessionStorage.getItem(KEY);
    if (saved !== null) {
      sessionStorage.removeItem(KEY);
      window.addEventListener("load", function () { window.scrollTo(0, Number(saved)); });
    }
  } catch (e) { /* storage unavailable: reload without restoring */ }

  function showProblems(lines) {
    if (!overlay) {
      overlay = document.createElement("div");
      overlay.className = "atlas-live-overlay";
      overlay.setAttribute("role", "alert");
      document.body.appendChild(overlay);
    }
    while (overlay.firstChild) overlay.removeChild(overlay.firstChild);
    var title = document.createElement("p");
    title.textContent = "Build failed — still showing the last good site:";
    overlay.appendChild(title);
    var list = document.createElement("pre");
    list.textContent = lines.join("\n");
    overlay.appendChild(list);
  }

  function clearProblems() {
    if (overlay) { overlay.remove(); overlay = null; }
  }

  function poll() {
    fetch("/__atlas/status", { cache: "no-store" }).then(function (r) { return r.json(); }).then(function (status) {
      if (known === null) known = status.version;
      if (status.problems.length) showProblems(status.problems);
      else clearProblems();
      if (status.version !== known) {
        try { sessionStorage.setItem(KEY, String(window.scrollY)); } catch (e) { /* ignore */ }
        window.location.reload();
      }
    }).catch(function () { /* server restarting: try again */ }).then(function () { setTimeout(poll, 250); });
  }
  poll();
})();
