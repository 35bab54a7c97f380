/* Search with Pagefind's index (built by `atlas-site build`, one index per language).
   The index is fetched on demand, so search needs a server; from file:// the box says how to serve
   the folder the reader actually opened. Each result is one section: its title, the page it is on
   and an excerpt, built with DOM nodes (Pagefind's <mark> highlights are rebuilt as elements).
   Ranking: Pagefind finds the pages; the sections of all of them are then ranked together, a
   section whose title holds the words typed first, then by Pagefind's weighted matches. Mixed
   Chinese + English queries are split at the script boundary ("KV缓存" -> "KV 缓存"), as the index
   segments them; a glossary term's other names count as the same query for titles
   (assets/search-terms.js). Escape, a tap outside or the close button closes the results. */
(function () {
  "use strict";
  var SHOWN = 8;
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

  var HAN = "\u3400-\u9fff\uf900-\ufaff";
  /* a space wherever Chinese meets Latin letters or digits, and single spaces */
  function normalise(query) {
    return query
      .replace(new RegExp("([" + HAN + "])([A-Za-z0-9])", "g"), "$1 $2")
      .replace(new RegExp("([A-Za-z0-9])([" + HAN + "])", "g"), "$1 $2")
      .replace(/\s+/g, " ").trim();
  }

  function squash(value) { return value.toLowerCase().replace(/\s+/g, ""); }

  /* the query and, when it is one name of a glossary term, the term's other names */
  function namesOf(query) {
    var flat = squash(query);
    var names = [query];
    (window.AtlasSearchTerms || []).forEach(function (group) {
      if (group.some(function (name) { return squash(name) === flat; })) names = names.concat(group);
    });
    return names;
  }

  /* how much of the query a section title holds: all of it (or another name of the same term),
     all its words, or some of them */
  function titleMatch(title, query, names) {
    var flat = squash(title);
    if (names.some(function (name) { return flat.indexOf(squash(name)) >= 0; })) return 3;
    var words = query.toLowerCase().split(" ");
    var found = words.filter(function (word) { return flat.indexOf(word) >= 0; }).length;
    return found === words.length ? 2 : found / words.length;
  }

  function weight(sub) {
    return (sub.weighted_locations || []).reduce(function (sum, place) { return sum + (place.balanced_score || place.weight || 1); }, 0)
      || (sub.locations || []).length;
  }

  /* every section of every page found, best first */
  function sections(pages, query) {
    var found = [];
    var names = namesOf(query);
    var seen = {};
    pages.forEach(function (page, rank) {
      var subs = page.sub_results && page.sub_results.length ? page.sub_results : [page];
      var pageTitle = (page.meta && page.meta.title) || page.url;
      subs.forEach(function (sub) {
        var title = sub.title || pageTitle;
        if (seen[sub.url || page.url]) return;
        seen[sub.url || page.url] = true;
        found.push({ title: title, page: pageTitle, url: sub.url || page.url, excerpt: sub.excerpt || page.excerpt || "",
                     key: [titleMatch(title, query, names), weight(sub), -rank] });
      });
    });
    found.sort(function (a, b) {
      for (var i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return b.key[i] - a.key[i];
      return 0;
    });
    return found.slice(0, SHOWN);
  }

  /* Pagefind's module, and the glossary's names (a classic script, assets/search-terms.js) */
  function load(base) {
    if (pagefind) return Promise.resolve(pagefind);
    var terms = new Promise(function (resolve) {
      var script = document.createElement("script");
      script.src = base + "assets/search-terms.js";
      script.onload = script.onerror = resolve;
      document.head.appendChild(script);
    });
    return Promise.all([import(base + "pagefind/pagefind.js"), terms]).then(function (loaded) {
      pagefind = loaded[0];
      return pagefind;
    });
  }

  function clear(list) {
    while (list.firstChild) list.removeChild(list.firstChild);
  }

  function render(list, found, status, messages, query, close) {
    clear(list);
    status.textContent = found.length ? messages.count.replace("{n}", String(found.length)) : messages.none;
    close.hidden = !found.length;
    found.forEach(function (hit) {
      var item = text("li", "search-result");
      var link = text("a", "search-link", hit.title);
      link.href = hit.url;
      item.appendChild(link);
      if (hit.page !== hit.title) item.appendChild(text("p", "search-page", hit.page));
      var excerpt = text("p", "search-excerpt");
      excerpt.appendChild(highlighted(hit.excerpt));
      item.appendChild(excerpt);
      list.appendChild(item);
    });
    list.setAttribute("data-query", query);
  }

  /* the folder the reader opened: the site's root, from this page's own address */
  function openedFolder(base) {
    var path = decodeURIComponent(new URL(base || "./", window.location.href).pathname).replace(/\/$/, "");
    if (/^\/[A-Za-z]:/.test(path)) path = path.slice(1); /* file:///C:/… on Windows */
    return /\s/.test(path) ? '"' + path + '"' : path || "/";
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
      close: form.getAttribute("data-msg-close") || "×",
    };
    form.hidden = false;
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    if (window.location.protocol === "file:") {
      /* the notice shows while the reader is at the box, never over the page they came to read */
      input.readOnly = true;
      form.classList.add("is-offline");
      status.id = "search-offline";
      input.setAttribute("aria-describedby", status.id);
      status.textContent = messages.offline.replace("{folder}", openedFolder(base));
      return;
    }
    var close = text("button", "search-close", "×");
    close.type = "button";
    close.hidden = true;
    close.setAttribute("aria-label", messages.close);
    form.insertBefore(close, list);
    function dismiss() {
      clear(list);
      status.textContent = "";
      close.hidden = true;
    }
    close.addEventListener("click", function () { dismiss(); input.focus(); });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && list.firstChild) dismiss();
    });
    document.addEventListener("click", function (event) {
      if (list.firstChild && !form.contains(event.target)) dismiss();
    });
    var pending = 0;
    input.addEventListener("input", function () {
      var query = normalise(input.value);
      var ticket = ++pending;
      if (!query) { dismiss(); return; }
      load(base).then(function () {
        return new Promise(function (resolve) { setTimeout(resolve, 200); }); /* wait for the typing to pause */
      }).then(function () {
        if (ticket !== pending) return null;
        /* a glossary term is searched under each of its names: a section may use only one of them */
        var names = namesOf(query).filter(function (name, i, all) { return all.indexOf(name) === i; }).slice(0, 5);
        return Promise.all(names.map(function (name) { return pagefind.search(name); }));
      }).then(function (searches) {
        if (!searches || ticket !== pending) return null;
        var seen = {};
        var results = [];
        searches.forEach(function (search) {
          (search ? search.results.slice(0, SHOWN) : []).forEach(function (r) {
            if (!seen[r.id]) { seen[r.id] = true; results.push(r); }
          });
        });
        return Promise.all(results.map(function (r) { return r.data(); }));
      }).then(function (pages) {
        if (pages && ticket === pending) render(list, sections(pages, query), status, messages, query, close);
      }).catch(function () {
        status.textContent = messages.offline.replace("{folder}", openedFolder(base));
      });
    });
  });
})();
