/* Site behaviour that needs script: theme toggle, table-of-contents highlight and dismissing a
   translation notice. Everything works without it; nothing here writes HTML strings. */
(function () {
  "use strict";
  var root = document.documentElement;
  var KEY = "atlas-theme";

  function storedTheme() {
    try { return window.localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function applyTheme(theme) {
    if (theme === "dark" || theme === "light") root.setAttribute("data-theme", theme);
    else root.removeAttribute("data-theme");
  }
  applyTheme(storedTheme());

  function currentTheme() {
    var set = root.getAttribute("data-theme");
    if (set) return set;
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }

  function setupThemeToggle() {
    var button = document.querySelector("[data-theme-toggle]");
    if (!button) return;
    button.hidden = false;
    button.setAttribute("aria-pressed", String(currentTheme() === "dark"));
    button.addEventListener("click", function () {
      var next = currentTheme() === "dark" ? "light" : "dark";
      applyTheme(next);
      try { window.localStorage.setItem(KEY, next); } catch (e) { /* private mode: not persisted */ }
      button.setAttribute("aria-pressed", String(next === "dark"));
    });
  }

  function setupTocHighlight() {
    var links = Array.prototype.slice.call(document.querySelectorAll(".toc a[href^='#']"));
    if (!links.length || !("IntersectionObserver" in window)) return;
    var byId = {};
    links.forEach(function (a) { byId[a.getAttribute("href").slice(1)] = a; });
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        links.forEach(function (a) { a.removeAttribute("aria-current"); });
        var link = byId[entry.target.id];
        if (link) link.setAttribute("aria-current", "true");
      });
    }, { rootMargin: "0px 0px -70% 0px" });
    Object.keys(byId).forEach(function (id) {
      var heading = document.getElementById(id);
      if (heading) observer.observe(heading);
    });
  }

  function setupLanguageSwitch() {
    /* keep the reader's place: carry the current section to the twin page */
    var link = document.querySelector("[data-lang-switch]");
    if (!link) return;
    var base = link.getAttribute("href").split("#")[0];
    function update() {
      var current = document.querySelector(".toc a[aria-current='true']");
      var hash = window.location.hash || (current ? current.getAttribute("href") : "");
      link.setAttribute("href", base + hash);
    }
    window.addEventListener("hashchange", update);
    link.addEventListener("focus", update);
    link.addEventListener("mouseenter", update);
    link.addEventListener("touchstart", update, { passive: true });
  }

  function setupTranslationNotices() {
    /* a dismissed notice stays hidden until the other language changes again: the key carries
       the fingerprint of its text */
    var notices = document.querySelectorAll(".translation-notice[data-notice]");
    Array.prototype.forEach.call(notices, function (notice) {
      var key = "atlas-notice:" + notice.getAttribute("data-notice");
      try { if (window.localStorage.getItem(key)) { notice.hidden = true; return; } } catch (e) { /* storage off: show it */ }
      var button = document.createElement("button");
      button.type = "button";
      button.className = "notice-dismiss";
      button.textContent = notice.getAttribute("data-dismiss");
      button.addEventListener("click", function () {
        notice.hidden = true;
        try { window.localStorage.setItem(key, "1"); } catch (e) { /* private mode: hidden for this visit only */ }
      });
      notice.appendChild(button);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    setupTranslationNotices();
    setupThemeToggle();
    setupTocHighlight();
    setupLanguageSwitch();
  });
})();
