/* Injected by `atlas-site serve` only (never written into _site). Follows the server's event stream
   (/__atlas/events): after a rebuild it patches the changed sections of this page in place, or
   reloads (keeping the scroll position) when more than the article changed; it overlays the
   diagnostics while an edit breaks the build. Without EventSource it polls /__atlas/status. */
(function () {
  "use strict";
  var KEY = "atlas-live-scroll";
  // Elements our page scripts wire up when the page loads: a patch that replaces one of them
  // would leave it without its behaviour, so such an edit reloads instead. (Citations, terms and
  // other previewable links are not among them: cards.js listens on the document.)
  var WIRED = "[data-lab], [data-lab-scripts], [data-notice], [data-devmap], [data-theme-toggle], [data-lang-switch], [data-search], script";
  // the event cards.js refetches its card data on (changed preview texts, once written)
  var DATA_CHANGED = "atlas:previews-changed";
  // the build this page's HTML comes from (serve writes it into the script's URL)
  var script = document.currentScript && /[?&]v=(\d+)/.exec(document.currentScript.src);
  var known = script ? Number(script[1]) : null;
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

  function reload() {
    try { sessionStorage.setItem(KEY, String(window.scrollY)); } catch (e) { /* ignore */ }
    window.location.reload();
  }

  /** This page's path as the server names it: "en/ch14.html", "index.html". */
  function pagePath() {
    var path = decodeURIComponent(window.location.pathname).replace(/^\/+/, "");
    return path === "" || path.charAt(path.length - 1) === "/" ? path + "index.html" : path;
  }

  /** The elements of a section's markup. Safe to parse: the markup is what our own renderer wrote
      (escaped content, no raw HTML from a page's author), it comes from this same origin's
      server, DOMParser runs no script, and the page's CSP still governs the imported nodes. */
  function parseSection(markup) {
    var body = new DOMParser().parseFromString("<!DOCTYPE html><body>" + markup, "text/html").body;
    return Array.prototype.slice.call(body.children);
  }

  /** The live elements of section `id`: its heading and its siblings up to the next section
      heading ("" is what precedes the first heading). */
  function liveSection(article, id) {
    var nodes = [], inside = id === "";
    for (var el = article.firstElementChild; el; el = el.nextElementSibling) {
      var heading = el.tagName === "H2" && el.id;
      if (heading) {
        if (inside) break;
        inside = el.id === id;
      }
      if (inside) nodes.push(el);
    }
    return nodes;
  }

  /** Replace the changed elements of each changed section (the run between the first and last
      element that differ from the old markup). False when the page must reload instead. */
  function patch(sections) {
    var article = document.querySelector("article");
    if (!article) return false;
    var plans = [];
    for (var i = 0; i < sections.length; i++) {
      var live = liveSection(article, sections[i].id);
      var before = parseSection(sections[i].old), after = parseSection(sections[i].new);
      if (live.length !== before.length) return false;  // not the page we were sent the old markup of
      var head = 0, tail = 0;
      while (head < before.length && head < after.length && before[head].isEqualNode(after[head])) head++;
      while (tail < before.length - head && tail < after.length - head &&
             before[before.length - 1 - tail].isEqualNode(after[after.length - 1 - tail])) tail++;
      var removed = live.slice(head, live.length - tail), added = after.slice(head, after.length - tail);
      var touched = removed.concat(added);
      for (var t = 0; t < touched.length; t++) {
        if (touched[t].matches(WIRED) || touched[t].querySelector(WIRED)) return false;
      }
      plans.push({ anchor: live[live.length - tail] || null, last: live[live.length - 1], removed: removed, added: added });
    }
    for (var p = 0; p < plans.length; p++) {
      var plan = plans[p];
      var parent = article;
      var next = plan.anchor || (plan.last ? plan.last.nextElementSibling : article.querySelector(":scope > h2[id]"));
      plan.removed.forEach(function (el) { el.remove(); });
      plan.added.forEach(function (el) { parent.insertBefore(document.importNode(el, true), next); });
    }
    return true;
  }

  var reloadWhenWritten = null;  // a version this page must reload for, once its files are written
  var refreshWhenWritten = false;  // the card data changed: tell cards.js once the files are written

  function refreshData(event) {
    if (!event.written) { refreshWhenWritten = true; return; }
    refreshWhenWritten = false;
    document.dispatchEvent(new CustomEvent(DATA_CHANGED, { detail: event.version }));
  }

  function reloadFor(event) {
    if (event.written) reload();
    else reloadWhenWritten = event.version;  // reloading now would fetch the files of the build before
  }

  function onEvent(event) {
    if (event.problems.length) showProblems(event.problems);
    else clearProblems();
    if (known === null) { known = event.version; return; }
    if (event.version === known) {
      if (event.written && reloadWhenWritten === known) reload();
      else if (refreshWhenWritten) refreshData(event);
      return;
    }
    // the changes of every version since the one this page shows, in order (a stream that woke
    // late sends several: the hot path's and the full build's)
    var steps = event.steps, follows = event.after === known, owed = reloadWhenWritten !== null;
    known = event.version;
    reloadWhenWritten = null;
    // a build we did not see, an asset, or a reload still owed (its build was superseded before it was written)
    if (!steps || !follows || owed || steps.some(function (s) { return s.reload; })) return reloadFor(event);
    if (refreshWhenWritten || steps.some(function (s) { return (s.refresh || []).length; })) refreshData(event);
    for (var i = 0; i < steps.length; i++) {
      var mine = steps[i].pages[pagePath()];
      if (mine === undefined) continue;  // another page changed
      if (mine === "reload" || !patch(mine)) return reloadFor(event);
    }
  }

  function poll() {
    fetch("/__atlas/status", { cache: "no-store" }).then(function (r) { return r.json(); }).then(function (status) {
      if (status.problems.length) showProblems(status.problems);
      else clearProblems();
      if (known === null) known = status.version;
      if (status.version !== known) reload();
    }).catch(function () { /* server restarting: try again */ }).then(function () { setTimeout(poll, 250); });
  }

  if (typeof EventSource === "function") {
    var stream = new EventSource("/__atlas/events");
    stream.onmessage = function (message) { onEvent(JSON.parse(message.data)); };
    // connected: a build from here on reaches this page (one before it is a build it missed: it reloads)
    stream.onopen = function () { document.documentElement.setAttribute("data-live", "connected"); };
  } else {
    poll();
  }
})();
