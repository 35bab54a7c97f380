/* Side-by-side reading: each paragraph of the prose ([data-para="SECTION.N"], numbered by the build)
   beside (wide windows) or under (phones) its twin in the other language; figures and labs stay
   once. The twin's text is fetched when the reader asks for it, from the other language's page,
   parsed with DOMParser and rebuilt here element by element from an allow-list (never HTML strings);
   the parsed page loads nothing (no images, scripts or styles). The choice is kept in localStorage.
   Opened from a file, the browser refuses the fetch: the reader is told to serve the site. */
(function () {
  "use strict";
  /* where the choice is kept: named once, on the switch (page.html.j2), which site.js reads too */
  var KEY = "";
  var MATHML = "http://www.w3.org/1998/Math/MathML";
  var TAGS = { P: 1, UL: 1, OL: 1, LI: 1, A: 1, EM: 1, STRONG: 1, CODE: 1, SUB: 1, SUP: 1, SPAN: 1, B: 1, I: 1,
    BR: 1, ABBR: 1, DFN: 1, KBD: 1, SMALL: 1, TIME: 1, Q: 1 };
  var MATH_TAGS = { math: 1, mrow: 1, mi: 1, mo: 1, mn: 1, ms: 1, mtext: 1, msub: 1, msup: 1, msubsup: 1, mfrac: 1,
    msqrt: 1, mroot: 1, munder: 1, mover: 1, munderover: 1, mspace: 1, mtable: 1, mtr: 1, mtd: 1, mstyle: 1 };
  /* a claim's setting, a heading's anchor and the "⋯" that opens a card are the reader's own text's
     (a card opens from one paragraph only); an evidence label stays, on both sides of the pair */
  var DROPPED = ".claim-setting, .claim-more, .anchor, button, [hidden]";
  var KEPT_CLASS = /^badge(-[a-z-]+)?$/; /* the classes that style an evidence label */

  function stored() { try { return !!KEY && window.localStorage.getItem(KEY) === "1"; } catch (e) { return false; } }
  function store(on) { try { if (KEY) window.localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* private mode */ } }

  /* the links that open a card, by the key of its data: kept on a twin's link, whose card then opens
     in the reader's language (review 31-n #2: a twin's [N27] left the chapter for the other
     language's bibliography) */
  var CARD_LINKS = ["cite", "term", "figref"];

  /* a copy of `node` in this document holding only allowed elements and attributes; a link into
     the twin's language is pointed at the same place in the reader's (`relink`) */
  function clean(node, base, relink) {
    if (node.nodeType === 3) return document.createTextNode(node.nodeValue);
    if (node.nodeType !== 1 || (node.matches && node.matches(DROPPED))) return null;
    var copy, name = node.localName;
    if (node.namespaceURI === MATHML) {
      if (!MATH_TAGS[name]) return document.createTextNode(node.textContent);
      copy = document.createElementNS(MATHML, name);
      ["display", "mathvariant", "stretchy", "fence", "separator"].forEach(function (attr) {
        if (node.hasAttribute(attr)) copy.setAttribute(attr, node.getAttribute(attr));
      });
    } else if (TAGS[node.tagName]) {
      /* a defined term is marked, not defined again (one <dfn> per term): bold, as the term's
         definition is, never italic (slanted Chinese is no emphasis) */
      copy = document.createElement(name === "dfn" ? "b" : name);
      if (node.classList && node.classList.contains("badge")) {
        copy.className = Array.prototype.filter.call(node.classList, function (c) { return KEPT_CLASS.test(c); }).join(" ");
      }
      if (name === "a" && node.hasAttribute("href")) {
        var url = new URL(node.getAttribute("href"), base);
        if (/^(https?|file):$/.test(url.protocol)) copy.setAttribute("href", relink(url.href));
        CARD_LINKS.forEach(function (kind) {
          var key = node.getAttribute("data-" + kind);
          if (node.classList.contains(kind) && key && /^[A-Za-z0-9_.:-]+$/.test(key)) {
            copy.classList.add(kind);
            copy.setAttribute("data-" + kind, key);
          }
        });
      }
      if (name === "time" && node.hasAttribute("datetime")) copy.setAttribute("datetime", node.getAttribute("datetime"));
    } else {
      copy = document.createDocumentFragment(); /* an unknown element: its content only */
    }
    Array.prototype.forEach.call(node.childNodes, function (child) {
      var kept = clean(child, base, relink);
      if (kept) copy.appendChild(kept);
    });
    return copy;
  }

  function sectionOf(key) { return key.slice(0, key.lastIndexOf(".")); }

  /* section -> its blocks, in order */
  function bySection(blocks) {
    var map = {};
    blocks.forEach(function (block) {
      var section = sectionOf(block.getAttribute("data-para"));
      (map[section] = map[section] || []).push(block);
    });
    return map;
  }

  function setup() {
    var button = document.querySelector("[data-parallel-toggle]");
    var article = document.querySelector("article.prose");
    var twinLink = document.querySelector("[data-lang-switch]");
    if (!button || !article || !twinLink) return;
    KEY = button.getAttribute("data-parallel-store") || "";
    var status = document.querySelector("[data-parallel-status]");
    var page = article.closest(".page");
    var twinUrl = new URL(twinLink.getAttribute("href").split("#")[0].split("?")[0], window.location.href);
    var twinLang = twinLink.getAttribute("lang") || twinLink.getAttribute("hreflang") || "";
    /* the twin's pages are the reader's in the other language, under the same names and ids */
    var twinFolder = new URL(".", twinUrl).href, ownFolder = new URL(".", window.location.href).href;
    function relink(href) {
      return href.indexOf(twinFolder) === 0 && href.indexOf("/", twinFolder.length) < 0 ? ownFolder + href.slice(twinFolder.length) : href;
    }
    var added = null; /* the twins placed, once fetched */
    var loading = false;

    function say(text) { if (status) status.textContent = text; }

    /* while the twins show, the status line says where: beside each paragraph on a wide screen
       (site.css, 1024 px), under it on a phone */
    var wide = window.matchMedia("(min-width: 1024px)");
    function sayWhere() {
      if (added && button.getAttribute("aria-pressed") === "true") say(button.getAttribute(wide.matches ? "data-on-beside" : "data-on-under"));
    }
    if (wide.addEventListener) wide.addEventListener("change", sayWhere);

    /* the contents repeat the switch (page.html.j2), so it is within reach mid-chapter */
    var switches = [button].concat(Array.prototype.slice.call(document.querySelectorAll("[data-parallel-also]")));
    function press(on) { switches.forEach(function (each) { each.setAttribute("aria-pressed", String(on)); }); }

    function show(on) {
      press(on);
      if (on) sayWhere(); else say("");
      article.classList.toggle("is-parallel", on && !!added);
      if (page) page.classList.toggle("is-parallel", on && !!added);
      if (added) added.forEach(function (twin) { twin.hidden = !on; });
      /* the blocks' heights changed: site.js lays the skipped ones out again while idle */
      document.dispatchEvent(new Event("atlas-relayout"));
    }

    function twinBlock(source, key) {
      var box = document.createElement("div");
      box.className = "twin";
      box.setAttribute("lang", twinLang);
      box.setAttribute("data-twin", key);
      var kept = clean(source, twinUrl.href, relink);
      if (kept) box.appendChild(kept);
      return box;
    }

    /* place each twin paragraph after its own; where the sections' counts differ, by proportion */
    function place(doc) {
      var ours = bySection(Array.prototype.slice.call(article.querySelectorAll("[data-para]")));
      var theirs = bySection(Array.prototype.slice.call(doc.querySelectorAll("article [data-para]")));
      added = [];
      Object.keys(ours).forEach(function (section) {
        var mine = ours[section], other = theirs[section] || [];
        var after = mine.map(function (block) { return block; });
        other.forEach(function (source, j) {
          var i = mine.length === other.length ? j : Math.min(mine.length - 1, Math.floor(j * mine.length / other.length));
          var twin = twinBlock(source, source.getAttribute("data-para"));
          after[i].parentNode.insertBefore(twin, after[i].nextSibling);
          after[i] = twin;
          added.push(twin);
        });
      });
    }

    /* The paragraph being read stays where it is while the page settles: the blocks above it that
       the browser skips take their new heights only as the idle pass lays them out again, after the
       switch (review 31-m #3: on a phone the paragraph went from 535 to 933 px, off the screen).
       Held each frame for a few seconds, until the reader scrolls. */
    function holdInPlace(anchor, before) {
      if (!anchor) return;
      var until = Date.now() + 3000;
      var expected = -1;
      function step() {
        if (expected >= 0 && Math.abs(window.scrollY - expected) > 1) return; /* the reader scrolled */
        var drift = anchor.getBoundingClientRect().top - before;
        if (Math.abs(drift) >= 1) window.scrollBy(0, drift);
        expected = window.scrollY;
        if (Date.now() < until) window.requestAnimationFrame(step);
      }
      step();
    }

    function turnOn() {
      if (added) {
        var kept = firstInView(), top = kept ? kept.getBoundingClientRect().top : 0;
        show(true);
        holdInPlace(kept, top);
        return;
      }
      if (loading) return;
      loading = true;
      press(true);
      say(button.getAttribute("data-loading"));
      /* keep the paragraph being read where it is while the page grows */
      window.fetch(twinUrl.href).then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      }).then(function (text) {
        var anchor = firstInView(), before = anchor ? anchor.getBoundingClientRect().top : 0;
        place(new DOMParser().parseFromString(text, "text/html"));
        show(button.getAttribute("aria-pressed") === "true");
        holdInPlace(anchor, before);
      }).catch(function () {
        press(false);
        if (window.location.protocol !== "file:") return say(button.getAttribute("data-failed"));
        /* a page opened from a folder cannot fetch its twin: the choice is not kept, so the next
           page does not try again (review 31-w #6: a failed request on every page after) */
        store(false);
        /* the folder to serve, found from this script's address (the site's root + assets/) */
        var root = button.getAttribute("data-parallel-script").replace(/assets\/parallel\.js$/, "");
        say(button.getAttribute("data-file").replace("{folder}", window.atlasOpenedFolder(root)));
      }).then(function () { loading = false; });
    }

    /* the paragraph being read: the first whose text reaches below the header (one that ends
       under the header is read already, and its twin must not push the next one down) */
    function firstInView() {
      var header = document.querySelector(".site-header");
      var line = (header ? header.getBoundingClientRect().bottom : 0) + 8;
      var blocks = article.querySelectorAll("[data-para]");
      for (var i = 0; i < blocks.length; i++) if (blocks[i].getBoundingClientRect().bottom > line) return blocks[i];
      return null;
    }

    function toggle() {
      var on = button.getAttribute("aria-pressed") !== "true";
      store(on);
      if (on) turnOn();
      else { var anchor = firstInView(), before = anchor ? anchor.getBoundingClientRect().top : 0;
        show(false);
        holdInPlace(anchor, before); }
    }
    switches.forEach(function (each) { each.addEventListener("click", toggle); });
    if (stored()) turnOn();
  }

  /* loaded by site.js, after the page was parsed (at once where the choice is kept, else at the
     reader's first press of the switch) */
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
