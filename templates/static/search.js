/* The search box on every page: shown by script, and the search itself (assets/search-engine.js:
   Pagefind's index, the ranking and the results) loaded when the reader first comes to the box, so
   a page's first load carries only this. The index is fetched on demand, so search needs a server;
   from file:// the box says how to serve the folder the reader actually opened. */
(function () {
  "use strict";

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("[data-search]");
    if (!form) return;
    var input = form.querySelector("input[type=search]");
    var status = form.querySelector("[data-search-status]");
    var base = form.getAttribute("data-root") || "";
    var offline = form.getAttribute("data-msg-offline").replace("{folder}", window.atlasOpenedFolder(base));
    form.hidden = false;
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    /* the one close control (the input's own clear button is hidden on phones, web.css): made here,
       not by the search itself, so the sheet a phone opens can always be closed, offline too. On a
       phone it closes the sheet (blur); on a desk the box keeps focus for the next query. */
    var close = document.createElement("button");
    close.type = "button";
    close.className = "search-close";
    close.textContent = "\u00d7";
    close.hidden = true;
    close.setAttribute("aria-label", form.getAttribute("data-msg-close") || "");
    form.insertBefore(close, form.querySelector("[data-search-results]"));
    close.addEventListener("click", function () {
      form.dispatchEvent(new CustomEvent("atlas-search-dismiss"));
      if (window.matchMedia("(max-width: 600px)").matches) {
        input.blur();
        close.blur();
      } else input.focus();
    });
    if (window.location.protocol === "file:") {
      /* the notice shows while the reader is at the box, never over the page they came to read */
      input.readOnly = true;
      form.classList.add("is-offline");
      status.id = "search-offline";
      input.setAttribute("aria-describedby", status.id);
      status.textContent = offline;
      return;
    }
    var requested = false;
    var ready = false;
    function start() {
      if (requested) return;
      requested = true;
      var script = document.createElement("script");
      script.src = base + "assets/search-engine.js";
      script.onload = function () {
        ready = true;
        window.AtlasSearch(form, offline);
      };
      script.onerror = function () {
        form.classList.remove("is-busy");
        status.textContent = offline;
      };
      document.head.appendChild(script);
    }
    ["focus", "input", "pointerdown"].forEach(function (type) { input.addEventListener(type, start); });
    /* typed before the search has arrived: the box says it is working, and the search takes what
       was typed (the box's value) when it starts; it never says "no results" for an index it has
       not read yet */
    input.addEventListener("input", function () {
      if (ready) return;
      var typed = !!input.value.trim();
      form.classList.toggle("is-busy", typed);
      status.textContent = typed ? form.getAttribute("data-msg-busy") || "" : "";
    });
  });
})();
