/* Loads the lab code when the reader comes near the labs or touches them, or the loaded page is
   idle (site.js atlasWhenNear): the chapter's first screen does not pay for the labs' models.
   Classic scripts, inserted one after another in the order the page lists (from file:// too).
   Until they arrive each lab shows its static worked example, exactly as without script. */
(function () {
  "use strict";
  var started = false;

  function load(host) {
    if (started) return;
    started = true;
    var urls = host.getAttribute("data-lab-scripts").split(" ");
    (function next(index) {
      if (index >= urls.length) return;
      var script = document.createElement("script");
      script.src = urls[index];
      script.onload = function () { next(index + 1); };
      document.head.appendChild(script);
    })(0);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var host = document.querySelector("[data-lab-scripts]");
    if (!host) return;
    var start = function () { load(host); };
    host.addEventListener("focusin", start);
    host.addEventListener("pointerdown", start);
    if (window.location.hash === "#labs") start(); /* the labs' heading, just above them */
    window.atlasWhenNear(host, "1200px 0px", start);
  });
})();
