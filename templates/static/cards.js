/* Preview cards: hovering, focusing or tapping a citation, a link to a section, a figure reference,
   a glossary term, a claim's number or a worked example's number shows a small card (title, year and
   evidence of a source; a section's title and first sentence; a figure's kind and caption; a term's
   definition and its name in the other language; a claim's value, setting, label, sources and
   caution; an example's value, label and what it assumes, from the page itself). On touch the first tap
   opens the card and a second tap follows the link; Escape or a tap elsewhere closes it. On phones the
   card is docked at the bottom (at the top when the link sits low), never over the line being read;
   elsewhere it stays inside the window. The card data (assets/previews-<lang>.js, named by the
   page's <meta name="atlas-previews">) is fetched on the first hover, focus or touch, so no page pays
   for it on first load. Cards are built with DOM nodes and textContent only. Without script every
   one of these is an ordinary link. */
(function () {
  "use strict";
  var NARROW = 600;
  var MARGIN = 8;
  var PREVIEWABLE = "a.cite[data-cite], a.figref[data-figref], a.term[data-term], dfn.term-def[data-term], a.claim-link, a.ex-link, .prose a[href*='#']:not(.anchor)";
  var data = null;
  var loading = false;
  var pending = null;
  var card = null;
  var owner = null;
  /* where a sheet scrolled the page to lift its link clear ({from, to}); closing the card puts the
     page back while the reader has not scrolled since (review 31-k #13) */
  var lifted = null;
  var hideTimer = null;
  var refreshed = 0;  // under atlas-site serve: the build whose card data to fetch next (0: as shipped)

  /* "H_kv", "D_h", "C_v(k)", "t_{\text{first}}", "TPOT_i": a one-letter symbol's or an
     abbreviation's "_" and what follows as a subscript (a card's text is plain: its formulas arrive
     as their source), built as text nodes and <sub> elements; a name in code ("max_num_seqs") is
     left as it is (review 31-t #8: the TPOT card showed "TPOT_i") */
  var SCRIPT = /(^|[^A-Za-z0-9_\\])([A-Za-z\u0370-\u03ff]|[A-Z]{2,6})_(?:\{([^{}]*)\}|([A-Za-z0-9]+))(?![A-Za-z0-9_])/g;
  function withSubscripts(node, text) {
    var at = 0, match;
    text = text.replace(/\\text\{([^{}]*)\}/g, "$1");
    SCRIPT.lastIndex = 0;
    while ((match = SCRIPT.exec(text))) {
      var base = match.index + match[1].length + match[2].length;
      node.appendChild(document.createTextNode(text.slice(at, base)));
      var script = document.createElement("sub");
      script.textContent = match[3] !== undefined ? match[3] : match[4];
      node.appendChild(script);
      at = SCRIPT.lastIndex;
    }
    if (at < text.length) node.appendChild(document.createTextNode(text.slice(at)));
    return node;
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text) withSubscripts(node, text);
    return node;
  }

  /* fetch the card data once (a classic script: it loads from file:// too), then run `done` */
  function withData(done) {
    if (data) { done(); return; }
    pending = done;
    if (loading) return;
    var meta = document.querySelector("meta[name='atlas-previews']");
    if (!meta) return;
    loading = true;
    var script = document.createElement("script");
    script.src = meta.getAttribute("content") + (refreshed ? "?v=" + refreshed : "");
    script.onload = function () {
      data = window.AtlasPreviews || {};
      var next = pending;
      pending = null;
      if (next) next();
    };
    script.onerror = function () { loading = false; };
    document.head.appendChild(script);
  }

  function ensureCard() {
    if (card) return card;
    card = el("div", "cite-card");
    card.id = "cite-card";
    card.setAttribute("role", "tooltip");
    card.hidden = true;
    card.addEventListener("mouseenter", function () { clearTimeout(hideTimer); });
    card.addEventListener("mouseleave", scheduleHide);
    document.body.appendChild(card);
    return card;
  }

  function addLink(box, text, href) {
    var link = el("a", "cite-card-link", text);
    link.href = href;
    box.appendChild(link);
  }

  /* the section a same-site link points at, as "page#id", or null */
  function sectionKey(link) {
    if (link.hash.length < 2 || link.protocol !== window.location.protocol || link.host !== window.location.host) return null;
    var file = link.pathname.split("/").pop() || "index.html";
    return file.replace(/\.html$/, "") + "#" + decodeURIComponent(link.hash.slice(1));
  }

  var fillers = {
    source: function (box, link) {
      var info = data.sources && data.sources[link.getAttribute("data-cite")];
      if (!info) return false;
      box.appendChild(el("p", "cite-card-title", info.title + (info.year ? " (" + info.year + ")" : "")));
      /* the number the page cites it by (its link's text), not every list's number for the work:
         "N27 · 64" on a chapter's page named two schemes for one work */
      box.appendChild(el("p", "cite-card-meta", info.evidence + " · " + link.textContent));
      box.appendChild(el("p", "cite-card-meta", info.verified));
      if (info.scope) box.appendChild(el("p", "cite-card-scope", info.scope));
      var claim = link.closest(".claim");
      var setting = claim && claim.querySelector(".claim-setting");
      /* the setting without its own "verified" date: the card says the source's above it (review
         31-q #10: the same date twice in a sheet that already fills half a phone's screen) */
      if (setting) {
        var words = setting.cloneNode(true);
        Array.prototype.forEach.call(words.querySelectorAll(".claim-verified"), function (x) { x.remove(); });
        box.appendChild(el("p", "cite-card-setting", words.textContent));
      }
      addLink(box, data.ui.open_entry, link.getAttribute("href"));
      return true;
    },
    figure: function (box, link) {
      var info = data.figures && data.figures[link.getAttribute("data-figref")];
      if (!info) return false;
      var title = el("p", "cite-card-title", link.textContent + " ");
      title.appendChild(el("span", "badge badge-fig", info.kind));
      box.appendChild(title);
      box.appendChild(el("p", "", info.caption));
      return true;
    },
    term: function (box, link) {
      var info = data.terms && data.terms[link.getAttribute("data-term")];
      if (!info) return false;
      box.appendChild(el("p", "cite-card-title", info.name + (info.abbr && info.abbr !== info.name ? " (" + info.abbr + ")" : "")));
      info.others.forEach(function (other) {
        var name = el("p", "cite-card-meta", other[1]);
        name.lang = other[0];
        box.appendChild(name);
      });
      box.appendChild(el("p", "", info.definition));
      if (data.glossary) addLink(box, data.ui.open_glossary, "glossary.html#term-" + link.getAttribute("data-term"));
      return true;
    },
    claim: function (box, link) {
      var claim = link.closest(".claim");
      var info = claim && data.claims && data.claims[claim.getAttribute("data-claim")];
      if (!info) return false;
      var title = el("p", "cite-card-title", info.text + " ");
      title.appendChild(el("span", "badge badge-claim", info.label));
      box.appendChild(title);
      box.appendChild(el("p", "cite-card-setting", data.ui.setting_label + info.setting));
      /* the works as this page cites them: the claim's own citation, or its group's after the
         last claim of the group (render/evidence_blocks.py) */
      var group = claim.getAttribute("data-group");
      var members = group ? claim.parentNode.querySelectorAll(".claim[data-group='" + group + "']") : [claim];
      var cites = members[members.length - 1].querySelectorAll("a.cite");
      var shown = Array.prototype.map.call(cites, function (cite) { return cite.textContent; });
      box.appendChild(el("p", "cite-card-meta", shown.length ? "[" + shown.join(", ") + "]" : info.sources.join(" · ")));
      if (info.caution) box.appendChild(el("p", "cite-card-caution", data.ui.caution_label + info.caution));
      if (data.numbers) addLink(box, data.ui.open_numbers, link.getAttribute("href"));
      return true;
    },
    /* a worked example's number (its first use on a page links to its row of the numbers page):
       its value and label, and what it assumes (the note the page carries: data-assumes, moved
       from the title by setupExamples) */
    example: function (box, link) {
      var number = link.closest(".ex");
      if (!number) return false;
      /* its own chip, or, labelled once for its block, the chip of the block's note */
      var note = number.getAttribute("data-note") && document.getElementById(number.getAttribute("data-note"));
      var badge = number.querySelector(".badge") || (note && note.querySelector(".badge"));
      var label = badge ? badge.textContent : "";
      var title = el("p", "cite-card-title", link.textContent + " ");
      if (label) title.appendChild(el("span", "badge badge-ex", label));
      box.appendChild(title);
      var assumes = number.getAttribute("data-assumes");
      if (assumes) box.appendChild(el("p", "", assumes));
      if (data.numbers) addLink(box, data.ui.open_numbers, link.getAttribute("href"));
      return true;
    },
    section: function (box, link) {
      var key = sectionKey(link);
      var info = key && data.sections && data.sections[key];
      if (!info) return false;
      box.appendChild(el("p", "cite-card-title", info.title));
      if (info.first) box.appendChild(el("p", "", info.first));
      return true;
    }
  };

  function kindOf(link) {
    if (link.matches("a.cite[data-cite]")) return "source";
    if (link.matches("a.figref")) return "figure";
    if (link.matches("a.term, dfn.term-def")) return "term";
    if (link.matches("a.claim-link")) return "claim";
    if (link.matches("a.ex-link")) return "example";
    return "section";
  }

  function fill(link) {
    var box = ensureCard();
    while (box.firstChild) box.removeChild(box.firstChild);
    box.className = "cite-card cite-card-" + kindOf(link);
    return fillers[kindOf(link)](box, link);
  }

  /* below the link, or above it when the window has no room below; always inside the window */
  function place(link) {
    var box = ensureCard();
    box.classList.remove("cite-card-sheet", "cite-card-sheet-top");
    var rect = link.getBoundingClientRect();
    if (window.innerWidth < NARROW) {
      /* a sheet at the bottom, never over the header (search, language): a link it would cover is
         scrolled up to sit just above it */
      box.classList.add("cite-card-sheet");
      box.style.left = ""; box.style.top = "";
      /* a sheet says how it closes: a tap outside was the only way, which a first-time reader
         does not guess */
      var close = el("button", "cite-card-close", "✕");
      close.type = "button";
      if (data && data.ui && data.ui.card_close) close.setAttribute("aria-label", data.ui.card_close);
      close.addEventListener("click", function () { var back = owner; hide(); if (back) back.focus({ preventScroll: true }); });
      box.insertBefore(close, box.firstChild);
      var covered = rect.bottom - (window.innerHeight - box.offsetHeight - MARGIN);
      if (covered > 0) {
        var from = lifted ? lifted.from : window.scrollY;
        window.scrollBy(0, covered);
        lifted = { from: from, to: window.scrollY };
      }
      return;
    }
    var width = box.offsetWidth;
    var height = box.offsetHeight;
    var left = Math.max(MARGIN, Math.min(rect.left, window.innerWidth - width - MARGIN));
    var top = rect.bottom + 6;
    if (top + height > window.innerHeight - MARGIN && rect.top - height - 6 >= MARGIN) top = rect.top - height - 6;
    box.style.left = (left + window.scrollX) + "px";
    box.style.top = (top + window.scrollY) + "px";
  }

  function show(link) {
    clearTimeout(hideTimer);
    withData(function () {
      if (!fill(link)) { if (owner === link) hide(); return; }
      if (owner && owner !== link) { owner.removeAttribute("aria-describedby"); expanded(owner, "false"); }
      owner = link;
      link.setAttribute("aria-describedby", "cite-card");
      expanded(link, "true");
      card.hidden = false;
      place(link);
    });
  }

  function hide() {
    if (!card) return;
    if (lifted && !card.hidden && Math.abs(window.scrollY - lifted.to) < 2) window.scrollTo(window.scrollX, lifted.from);
    lifted = null;
    card.hidden = true;
    if (owner) { owner.removeAttribute("aria-describedby"); expanded(owner, "false"); }
    owner = null;
  }

  /* a claim's "⋯" says whether the card it opens is open (review 31-h #10) */
  function expanded(link, value) {
    var more = link.parentNode && link.parentNode.querySelector(":scope > .claim-mark > .claim-more");
    if (more) more.setAttribute("aria-expanded", value);
  }

  function scheduleHide() {
    clearTimeout(hideTimer);
    hideTimer = setTimeout(hide, 300);
  }

  function previewable(target) {
    var link = target && target.closest ? target.closest(PREVIEWABLE) : null;
    /* the question cards and the labs are their own previews */
    return link && !link.closest(".qcards, .labs") ? link : null;
  }

  /* A defined term is not a link: it takes focus (the card opens as for a link, with the definition
     the page's previews hold); a tap opens or closes the card, Enter opens the glossary entry. */
  function setupTerms() {
    var terms = document.querySelectorAll("dfn.term-def[data-term]");
    Array.prototype.forEach.call(terms, function (term) { term.setAttribute("tabindex", "0"); });
    if (!terms.length) return;
    document.addEventListener("keydown", function (event) {
      var term = event.target.closest && event.target.closest("dfn.term-def[data-term]");
      if (!term || event.key !== "Enter") return;
      withData(function () {
        if (data.glossary) window.location.href = "glossary.html#term-" + term.getAttribute("data-term");
      });
    });
  }
  /* A worked example's note (what it assumes) moves from its title, a tooltip a phone never shows
     and a second one beside the card, to the card. */
  function setupExamples() {
    Array.prototype.forEach.call(document.querySelectorAll(".ex[title]"), function (number) {
      number.setAttribute("data-assumes", number.getAttribute("title"));
      number.removeAttribute("title");
    });
  }
  /* the claim's number a "⋯" (or the label before it, while the "⋯" is shown) stands for */
  function claimMoreOf(target) {
    if (!target || !target.closest) return null;
    var more = target.closest(".claim-more");
    if (!more) {
      var badge = target.closest(".badge-claim");
      var next = badge && badge.nextElementSibling;
      more = next && next.classList.contains("claim-more") && next.offsetParent !== null ? next : null;
    }
    /* the label and its "⋯" stand in one unbreakable .claim-mark inside the claim */
    var claim = more && more.closest(".claim");
    return claim ? { button: more, link: claim.querySelector(":scope > a.claim-link") } : null;
  }
  function setup() { setupTerms(); setupExamples(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();

  /* one listener per kind of event for the whole page: hundreds of links cost nothing at startup.
     Hover is a mouse's: after a touch the browser emulates mouse events, and the page scrolled
     under the finger (a sheet lifting the link above itself) sent the link a mouseout that closed
     the card just opened (review 31-j #2: no card for a link in the lower fifth of a phone). */
  var touching = false;
  /* a press inside the open card takes the focus from its link: that is no leaving (review 31-l #2:
     a tap on a sheet's text closed it) */
  var pressInCard = false;
  document.addEventListener("pointerdown", function (event) {
    touching = event.pointerType === "touch";
    pressInCard = !!(card && !card.hidden && card.contains(event.target));
  }, true);
  document.addEventListener("pointermove", function (event) { if (event.pointerType === "mouse") touching = false; }, true);
  document.addEventListener("mouseover", function (event) {
    var link = previewable(event.target);
    if (!touching && link && !(event.relatedTarget && link.contains(event.relatedTarget))) show(link);
  });
  document.addEventListener("mouseout", function (event) {
    var link = previewable(event.target);
    if (!touching && link && !(event.relatedTarget && link.contains(event.relatedTarget))) scheduleHide();
  });
  document.addEventListener("focusin", function (event) {
    var link = previewable(event.target);
    if (link) show(link);
  });
  document.addEventListener("focusout", function (event) {
    var into = event.relatedTarget;
    var pressed = pressInCard;
    pressInCard = false; /* that press only: a Tab away later still closes the card */
    if (previewable(event.target) && !pressed && !(into && card && card.contains(into))) scheduleHide();
  });

  /* touch: the first tap opens the card (focus and emulated mouse events may already have opened it
     during that same tap), a second tap on the same link follows it */
  var touched = null;
  var openBeforeTap = false;
  document.addEventListener("pointerdown", function (event) {
    var link = previewable(event.target);
    touched = link && event.pointerType === "touch" ? link : null;
    openBeforeTap = !!touched && owner === touched && card !== null && !card.hidden;
    if (touched) withData(function () {});
  });
  document.addEventListener("click", function (event) {
    var more = claimMoreOf(event.target);
    if (more && more.link) {
      /* a second tap closes the card it opened */
      if (card && !card.hidden && owner === more.link) hide();
      else show(more.link);
      touched = null;
      openBeforeTap = false;
      return;
    }
    /* the click of a tap that began on a link is that link's, even where the sheet just lifted the
       link from under the finger and the click landed beside it (it closed the card it opened) */
    var link = previewable(event.target) || (touched && !(card && card.contains(event.target)) ? touched : null);
    if (link && link === touched && openBeforeTap && !link.href) {
      hide(); /* a term is not a link: the second tap closes its card */
    } else if (link && link === touched && !openBeforeTap) {
      event.preventDefault();
      withData(function () {
        if (fill(link)) show(link);
        else if (link.href) window.location.href = link.href; /* nothing to preview: follow at once */
      });
    } else if (card && !card.hidden && !card.contains(event.target) && !link) {
      hide();
    }
    touched = null;
    openBeforeTap = false;
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") hide();
  });
  /* `atlas-site serve` patched the page and the card texts changed: fetch them again on next use */
  document.addEventListener("atlas:previews-changed", function (event) {
    data = null;
    loading = false;
    refreshed = event.detail;
  });
})();
