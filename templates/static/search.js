/* Search with Pagefind's index (built by `atlas-site build`, one index per language).
   The index is fetched on demand, so search needs a server; from file:// the box says so.
   Results are built with DOM nodes; Pagefind's <mark> highlights are rebuilt as elements. */
(function () {
  "use strict";
  var pagefind = null;

  function text(tag, cls, value) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (value) node.textContent = value;
    return node;
  }

  /* "a <mark>b</mark> c" -> text, <mark>, text; any other markup is shown as plain text */
  function highlighted(excerpt) {
    var fragment = document.createDocumentFragment();
    excerpt.split(/(<mark>[^<]*<\/mark>)/).forEach(function (piece) {
      var match = /^<mark>([^<]*)<\/mark>$/.exec(piece);
      if (match) fragment.appendChild(text("mark", "", match[1]));
      else if (piece) fragment.appendChild(document.createTextNode(piece.replace(/<[^>]*>/g, "")));
    });
    return fragment;
  }

  function load(base) {
    if (pagefind) return Promise.resolve(pagefind);
    return import(base + "pagefind/pagefind.js").then(function (module) {
      pagefind = module;
      return module;
    });
  }

  function render(list, results, status, messages) {
    while (list.firstChild) list.removeChild(list.firstChild);
    status.textContent = results.length ? messages.count.replace("{n}", String(results.length)) : messages.none;
    results.forEach(function (page) {
      var item = text("li", "search-result");
      /* the sections with the most matches first (Pagefind lists them in page order) */
      var hits = function (sub) { return (sub.weighted_locations || sub.locations || []).length; };
      var subs = (page.sub_results && page.sub_results.length ? page.sub_results.slice() : [page])
        .sort(function (a, b) { return hits(b) - hits(a); }).slice(0, 3);
      subs.forEach(function (sub) {
        var link = text("a", "search-link", (sub.title || page.meta.title || page.url));
        link.href = sub.url || page.url;
        item.appendChild(link);
        var excerpt = text("p", "search-excerpt");
        excerpt.appendChild(highlighted(sub.excerpt || page.excerpt || ""));
        item.appendChild(excerpt);
      });
      list.appendChild(item);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("[data-search]");
    if (!form) return;
    var input = form.querySelector("input[type=search]");
    var status = form.querySelector("[data-search-status]");
    var list = form.querySelector("[data-search-results]");
    var base = form.getAttribute("data-root") || "";
    var messages = {
      none: form.getAttribute("data-msg-none"),
      count: form.getAttribute("data-msg-count"),
      offline: form.getAttribute("data-msg-offline"),
    };
    form.hidden = false;
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    if (window.location.protocol === "file:") {
      input.disabled = true;
      status.textContent = messages.offline;
      return;
    }
    var pending = 0;
    input.addEventListener("input", function () {
      var query = input.value.trim();
      var ticket = ++pending;
      if (!query) { render(list, [], status, messages); status.textContent = ""; return; }
      load(base).then(function (module) {
        return module.debouncedSearch ? module.debouncedSearch(query, {}, 200) : module.search(query);
      }).then(function (search) {
        if (!search || ticket !== pending) return null;
        return Promise.all(search.results.slice(0, 8).map(function (r) { return r.data(); }));
      }).then(function (pages) {
        if (pages && ticket === pending) render(list, pages, status, messages);
      }).catch(function () {
        status.textContent = messages.offline;
      });
    });
  });
})();
