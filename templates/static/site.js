/* Site behaviour that needs script: the theme toggle (theme.js applied the stored theme before
   the first paint), the section being read (contents highlight, the phone header's indicator, and
   the language switch, which lands on that section of the twin page), the contents panel on
   phones, the page's address for print, dismissing a translation notice, landing an address's
   target below the header, and starting work (labs, map) when the reader comes near it. Everything
   reads without it; nothing here writes HTML strings. */
(function () {
  "use strict";
  var root = document.documentElement;
  var KEY = "atlas-theme";

  function applyTheme(theme) {
    if (theme === "dark" || theme === "light") root.setAttribute("data-theme", theme);
    else root.removeAttribute("data-theme");
  }

  var systemDark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : { matches: false };
  function systemTheme() { return systemDark.matches ? "dark" : "light"; }
  function currentTheme() { return root.getAttribute("data-theme") || systemTheme(); }

  /* One button, each press the other scheme: a press that lands on the system's own scheme forgets
     the choice, so the page follows the system again (review 31-p #9: once pressed, there was no
     way back to it). Its name says which scheme shows, whether the system or the reader chose it,
     and what a press does. */
  function setupThemeToggle() {
    var button = document.querySelector("[data-theme-toggle]");
    if (!button) return;
    function name() {
      var shown = currentTheme();
      var chosen = root.hasAttribute("data-theme") && shown !== systemTheme();
      var text = button.getAttribute("data-t-" + shown + (chosen ? "-chosen" : "-system"));
      button.setAttribute("aria-label", text);
      button.title = text;
    }
    button.hidden = false;
    name();
    button.addEventListener("click", function () {
      var next = currentTheme() === "dark" ? "light" : "dark";
      var follow = next === systemTheme();
      applyTheme(follow ? null : next);
      try {
        if (follow) window.localStorage.removeItem(KEY);
        else window.localStorage.setItem(KEY, next);
      } catch (e) { /* private mode: not persisted */ }
      name();
    });
    if (systemDark.addEventListener) systemDark.addEventListener("change", name);
  }

  /* anchors land below the sticky header, whatever height it wraps to. The first measure waits
     for the browser's own first layout (a ResizeObserver reports after it) instead of forcing one
     at startup, and a height the stylesheet already holds is not written again: the property sits
     on the root, so every write restyles the whole page. */
  /* The element the address's fragment names, or null; a paragraph the language switch carried
     (?para=SECTION.N&of=COUNT, see paragraphLink) wins over its section's heading. */
  function addressTarget() {
    /* "#lab-memory-panel?context_len=8192": a lab with its inputs (labs_js/shared/bind.js) */
    var id = window.location.hash ? decodeURIComponent(window.location.hash.slice(1)).split("?")[0] : "";
    return carriedParagraph() || (id ? document.getElementById(id) : null);
  }

  /* The twin page's paragraph N of a section is this page's paragraph N (the build numbers both);
     where the two sections have different counts, the paragraph at the same proportion, rounded
     (first to first, last to last; flooring it landed a paragraph early, review 31-f #11). */
  var carried;
  function carriedParagraph() {
    if (carried !== undefined) return carried;
    carried = null;
    var params = new URLSearchParams(window.location.search);
    var key = params.get("para") || "";
    var dot = key.lastIndexOf(".");
    if (dot < 1) return carried;
    var section = key.slice(0, dot), n = parseInt(key.slice(dot + 1), 10), of = parseInt(params.get("of"), 10);
    var blocks = Array.prototype.filter.call(document.querySelectorAll("[data-para]"), function (block) {
      var own = block.getAttribute("data-para");
      return own.slice(0, own.lastIndexOf(".")) === section;
    });
    if (!blocks.length || !(n >= 1)) return carried;
    var index = n - 1;
    if (of > 1 && of !== blocks.length) index = Math.round((n - 1) * (blocks.length - 1) / (of - 1));
    carried = blocks[Math.max(0, Math.min(blocks.length - 1, index))];
    return carried;
  }

  /* is there a section heading whose top lies between `from` and `to`, and above `highest`? */
  function headingBetween(from, to, highest) {
    return Array.prototype.some.call(document.querySelectorAll("article h2[id], article h3[id]"), function (h) {
      var top = h.getBoundingClientRect().top;
      return top > from && top < to && top <= highest;
    });
  }

  /* The place being read, as the switch carries it: the paragraph covering the line under the
     header (or, where the line falls between two, the next one starting in view), as
     "?para=SECTION.N&of=COUNT#SECTION" (the hash and the paragraph always agree); on pages without
     paragraphs, the entry covering that line (a glossary term, a row of the numbers page, a work of
     the bibliography), whose id the other language shares: "#term-…". Null at the top of the page. */
  function placeBeingRead() {
    if (window.scrollY < 1) return null;
    var line = coveredLine();
    var blocks = document.querySelectorAll("article [data-para]");
    var entries = blocks.length ? blocks : document.querySelectorAll("main .glossary-entry[id], main tr.numbers-row[id], main li.bib-entry[id]");
    var found = null, below = null;
    /* a paragraph of which at most a line shows below the line, when the next one starts in view,
       is behind the reader: the reader reads that next one (review 31-f #11: the switch carried the
       paragraph whose last line was left under the header, and the twin page opened a paragraph early) */
    function sectionKey(block) { var key = block.getAttribute("data-para"); return key.slice(0, key.lastIndexOf(".")); }
    for (var i = 0; i < entries.length; i++) {
      /* an entry (a term, a work, a row) more than half of which has gone up under the header is
         behind the reader: the one after it is being read (reviews 31-h #4, 31-i #4: the switch
         carried the entry whose last lines showed at the top, and the other language, which sorts
         its entries differently, opened several entries away) */
      var box = entries[i].getBoundingClientRect(), after = entries[i + 1], slack = blocks.length ? 0 : Math.max(12, box.height / 2);
      /* the same across a heading, when the next section's heading stands in the top third, where
         the reader's eye is (review 31-u #5: with a heading 30 px under the header and a sliver of
         the last section's last paragraph above it, the switch carried that last section) */
      if (blocks.length && box.bottom > line && box.top <= line && after && after.getBoundingClientRect().top < window.innerHeight &&
          (sectionKey(after) === sectionKey(entries[i]) || headingBetween(box.bottom, after.getBoundingClientRect().top, window.innerHeight * 0.3))) {
        slack = Math.min(box.height / 2, parseFloat(getComputedStyle(entries[i]).lineHeight) || 0);
      }
      if (box.bottom <= line + slack) { found = entries[i]; continue; } /* above the line: the last such, failing better */
      if (box.top <= line) found = entries[i];
      else if (box.top < window.innerHeight) { found = entries[i]; below = box.top; }
      break;
    }
    if (!found) return null;
    /* the next paragraph counts only in the section being read: a heading between the line and it
       (a section of cards or a figure, with no paragraph of its own) keeps the switch on that section */
    if (below !== null && headingBetween(line, below, below)) return null;
    if (!blocks.length) return { query: "", hash: found.id };
    var key = found.getAttribute("data-para"), section = key.slice(0, key.lastIndexOf("."));
    var count = Array.prototype.filter.call(blocks, function (block) {
      var own = block.getAttribute("data-para");
      return own.slice(0, own.lastIndexOf(".")) === section;
    }).length;
    return { query: "?para=" + encodeURIComponent(key) + "&of=" + count, hash: document.getElementById(section) ? section : null };
  }

  /* What a widget asks the language switch to carry instead of a paragraph ([data-carry]: a changed
     lab's inputs, the map's selected node): the widget the reader last used, while it is in view, or
     one covering the reading line. The twin page opens that lab in that state, that node selected
     (review 31-z #1, #6). A widget in its first state has no data-carry: mere sight of a lab took
     the switch from the section being read (the gate's switch check and five tests failed). */
  var lastUsed = null; /* what the reader last pressed or focused (a widget may mark itself after it) */
  function noteUse(event) {
    var target = event.target && event.target.closest ? event.target : null;
    if (target && !target.closest("[data-lang-switch]")) lastUsed = target;
  }
  document.addEventListener("pointerdown", noteUse, true);
  document.addEventListener("focusin", noteUse, true);
  function carriedState() {
    var line = coveredLine(), found = null;
    var used = lastUsed && lastUsed.isConnected && lastUsed.closest("[data-carry]");
    if (used) {
      var box = used.getBoundingClientRect();
      if (box.height && box.bottom > line && box.top < window.innerHeight) found = used;
    }
    Array.prototype.forEach.call(document.querySelectorAll("[data-carry]"), function (el) {
      var box = el.getBoundingClientRect();
      if (!found && box.height && box.top <= line && box.bottom > line) found = el;
    });
    return found ? found.getAttribute("data-carry") : null;
  }

  /* The first line of the window no sticky bar covers: under the header, and under a bar that sticks
     below it (data-sticky: the glossary's A–Z bar, a table's column heads). Read when the reader
     reaches for the switch, never at startup. */
  function coveredLine() {
    var header = document.querySelector(".site-header");
    var line = header ? header.getBoundingClientRect().bottom + 1 : 0;
    Array.prototype.forEach.call(document.querySelectorAll("[data-sticky]"), function (bar) {
      var box = bar.getBoundingClientRect();
      if (box.height && box.top <= line + 1 && box.bottom >= line) line = box.bottom + 1;
    });
    return line;
  }

  /* Sticky bars below the header cover what an anchor brings into view in their part of the page:
     each [data-sticky] bar's height, while it sticks (a table's heads stick only on a desk), is
     --sticky-h on its parent, which the scroll margins add (site.css). Measured where a
     ResizeObserver reports, after layout; an address's target that a first guess left under the bar
     is brought below it. */
  function trackStickyBars() {
    var bars = document.querySelectorAll("[data-sticky]");
    if (!bars.length || !("ResizeObserver" in window)) return;
    var observer = new ResizeObserver(function (entries) {
      var seen = entries.map(function (entry) {
        var bar = entry.target, probe = bar.tagName === "THEAD" ? bar.querySelector("th") || bar : bar;
        var sticks = getComputedStyle(probe).position === "sticky";
        return { scope: bar.parentElement, height: sticks ? Math.ceil(bar.getBoundingClientRect().height) + "px" : "0px" };
      });
      var target = addressTarget(), margin = target ? parseFloat(getComputedStyle(target).scrollMarginTop) || 0 : 0;
      var landed = target && Math.abs(target.getBoundingClientRect().top - margin) < 2;
      var changed = false;
      seen.forEach(function (one) {
        if (!one.scope || one.scope.style.getPropertyValue("--sticky-h") === one.height) return;
        one.scope.style.setProperty("--sticky-h", one.height);
        changed = true;
      });
      if (changed && landed) target.scrollIntoView();
    });
    Array.prototype.forEach.call(bars, function (bar) { observer.observe(bar); });
  }

  /* Land on the carried paragraph: the browser scrolled to its section's heading first. */
  /* Then the address loses its ?para=…&of=… (a shared or bookmarked address names the section only). */
  function landOnCarriedParagraph() {
    var target = carriedParagraph();
    if (!target) return;
    target.scrollIntoView();
    window.addEventListener("load", function () {
      if (Math.abs(target.getBoundingClientRect().top - (parseFloat(getComputedStyle(target).scrollMarginTop) || 0)) > 2) target.scrollIntoView();
      var params = new URLSearchParams(window.location.search);
      params.delete("para");
      params.delete("of");
      var rest = params.toString();
      try { window.history.replaceState(window.history.state, "", window.location.pathname + (rest ? "?" + rest : "") + window.location.hash); } catch (e) { /* file:// in some browsers */ }
    });
  }

  function trackHeaderHeight() {
    var header = document.querySelector(".site-header");
    if (!header) return;
    function measure() {
      /* the part that stays: a header whose first row scrolls away sits above the window by it */
      var height = header.offsetHeight + Math.min(0, parseFloat(getComputedStyle(header).top) || 0) + "px";
      if (getComputedStyle(root).getPropertyValue("--header-h").trim() === height) return false;
      root.style.setProperty("--header-h", height);
      return true;
    }
    /* The browser may already have scrolled to the address's target with the default height; where
       the real header is taller (its links wrap to rows on a phone) the target would sit under it. */
    function landBelowHeader() {
      var target = addressTarget();
      if (target && target.getBoundingClientRect().top < header.offsetHeight) target.scrollIntoView();
    }
    if (!("ResizeObserver" in window)) { window.addEventListener("resize", measure); measure(); return; }
    /* measured where the browser has just laid the header out (a ResizeObserver reports after
       layout, once on observe): read on the resize event itself, the height forced a layout, and a
       phone's resize during the load counted against our scripts */
    function afterLayout(then) {
      var once = new ResizeObserver(function () { once.disconnect(); then(); });
      once.observe(header);
    }
    window.addEventListener("resize", function () { afterLayout(measure); });
    afterLayout(function () { if (measure()) landBelowHeader(); });
  }

  /* Content above a link's target may change height after the browser landed on it: the labs start
     when the reader comes near them (taller than their text), a skipped block is laid out at its
     real height. Until the reader scrolls or taps themselves (or ten seconds pass), the target is
     put back where it landed, below the header, whenever the page's height changes. */
  function keepTargetsInPlace() {
    if (!("ResizeObserver" in window)) return;
    var target = null;
    var until = 0;
    function hold() {
      target = addressTarget();
      until = Date.now() + 10000;
      height = -1; /* measured by the first observation: reading it here would force a layout */
    }
    function release() { target = null; }
    var height = 0; /* the page's height when the target was last put in place */
    new ResizeObserver(function () {
      if (!target || Date.now() > until) return;
      var rest = parseFloat(getComputedStyle(target).scrollMarginTop) || 0;
      if (Math.abs(target.getBoundingClientRect().top - rest) > 2) target.scrollIntoView();
      height = document.body.scrollHeight;
    }).observe(document.body);
    ["wheel", "touchstart", "pointerdown", "keydown"].forEach(function (type) {
      window.addEventListener(type, release, { passive: true, capture: true });
    });
    /* any other scroll that takes the target out of view while the page keeps its height (a
       script, an assistive tool) is the reader going on as well */
    window.addEventListener("scroll", function () {
      if (!target) return;
      var now = document.body.scrollHeight;
      if (height < 0) height = now; /* the landing's own scroll: the height to compare with */
      else if (now === height && Math.abs(target.getBoundingClientRect().top) > window.innerHeight) release();
    }, { passive: true });
    window.addEventListener("hashchange", hold);
    hold();
  }

  /* fn once the page has loaded (at once if it has) */
  function afterLoad(fn) {
    if (document.readyState === "complete") fn();
    else window.addEventListener("load", fn);
  }

  /* A block the browser skips is held at an estimate until it is first shown (web.css), so the
     page's length, and the scrollbar with it, changed as the reader went down (review 31-j #1: a
     quarter of one page's length). Once the page has loaded, while the browser is idle, the skipped
     blocks are shown a few at a time from the top, each for one frame: the browser then keeps
     their real height for them (contain-intrinsic-size: auto) and goes on skipping them while they
     are out of view. Nothing on screen moves: a block above the window that changes height is
     compensated by scroll anchoring. Nothing is read back, so no layout is forced. */
  function measureSkippedBlocks() {
    if (typeof window.requestIdleCallback !== "function" || !window.CSS || !CSS.supports("content-visibility", "auto")) return;
    var blocks = [];
    var next = 0;
    var shown = [];
    var running = false;
    /* Each idle period puts back the blocks the last one showed (the frame between has laid them
       out and kept their size) and shows the next few. The writes are made only in idle time, never
       in a frame's callbacks, where another script's read of the layout would then force it. */
    function visit(deadline) {
      shown.forEach(function (el) { el.classList.remove("is-measured"); });
      shown = [];
      while (next < blocks.length && shown.length < 40 && (shown.length === 0 || deadline.timeRemaining() > 2)) {
        shown.push(blocks[next++]);
      }
      shown.forEach(function (el) { el.classList.add("is-measured"); });
      running = shown.length > 0;
      /* the next visit after a frame has laid these out: two idle periods with no frame between
         (a tab not yet shown, a busy machine) put them back unmeasured, at their estimates
         (review 31-l #6: a fresh tab's page still shrank by 864 px as it was read) */
      if (running) afterFrame(function () { window.requestIdleCallback(visit, { timeout: 1000 }); });
      /* said when every block has its height (the browser tests wait for it) */
      else root.setAttribute("data-blocks-measured", "");
    }
    /* from the top, with the blocks there are now: after the load, and again when the page's
       blocks change their size or number (side-by-side reading adds twins beside or under them and
       narrows the columns: the heights remembered before no longer hold; review 31-k) */
    function start() {
      blocks = document.querySelectorAll("[data-skippable] > *");
      next = 0;
      root.removeAttribute("data-blocks-measured");
      if (!running && blocks.length) {
        running = true;
        window.requestIdleCallback(visit, { timeout: 1000 });
      }
    }
    afterLoad(start);
    document.addEventListener("atlas-relayout", start);
  }

  /* the scrollLeft that brings `link` into view inside the sideways strip `box`, `margin` px from
     its edge, or -1 where it is in view already (a strip of links: the header's, the glossary's) */
  function scrollShowing(box, link, margin) {
    var left = link.offsetLeft - box.offsetLeft, right = left + link.offsetWidth;
    if (left < box.scrollLeft) return Math.max(0, left - margin);
    if (right > box.scrollLeft + box.clientWidth - margin) return right - box.clientWidth + margin;
    return -1;
  }

  /* fn once the next frame has been drawn (its style and layout done): a frame's callback runs
     before them, so the one after it */
  function afterFrame(fn) {
    window.requestAnimationFrame(function () { window.requestAnimationFrame(fn); });
  }

  /* The section being read: the last heading above a line 30% down the window (at the very end
     of the page, where the last headings cannot reach that line, the last heading in view). The
     section the address names wins while the reader is still inside it (it may be too short, or
     too near the end, to reach the line), so the switch never trades it for a neighbour. */
  function setupSectionTracking() {
    /* the glossary's letters are its sections, and its strip of letters its contents: the strip
       marks the letter being read (review 31-l: at "C" nothing was marked) */
    var heads = Array.prototype.slice.call(document.querySelectorAll("article > h2[id], article > h3[id], .glossary-group > h2[id]"));
    var tocLinks = {};
    Array.prototype.forEach.call(document.querySelectorAll(".toc a[href^='#'], .glossary-letters a[href^='#']"), function (a) {
      tocLinks[a.getAttribute("href").slice(1)] = a;
    });
    var chapterOf = {};
    var h2 = null;
    heads.forEach(function (head) {
      if (head.tagName === "H2") h2 = head;
      chapterOf[head.id] = h2 ? h2.id : head.id;
    });
    var indicator = document.querySelector("[data-toc-current]");
    var toggle = document.querySelector("[data-toc-toggle]");
    var contents = indicator ? indicator.textContent : "";
    var switches = Array.prototype.slice.call(document.querySelectorAll("[data-lang-switch]"));
    var bases = switches.map(function (link) { return link.getAttribute("href").split("#")[0].split("?")[0]; });
    var shown;

    function top(head) { return head.getBoundingClientRect().top; }
    /* the section an element sits in: the last heading at or before it */
    function sectionOf(el) {
      var found = null;
      for (var i = 0; i < heads.length && (heads[i] === el || heads[i].compareDocumentPosition(el) & 4); i++) found = heads[i];
      return found;
    }
    /* is `head` the section `outer` or one of its subsections? */
    function within(head, outer) {
      var from = heads.indexOf(outer), at = heads.indexOf(head);
      if (at < from) return false;
      for (var i = from + 1; i <= at; i++) if (heads[i].tagName <= outer.tagName) return false;
      return true;
    }
    function byPosition() {
      if (window.scrollY < 1) return null;
      var line = window.innerHeight * 0.3, found = null;
      for (var i = 0; i < heads.length && top(heads[i]) <= line; i++) found = heads[i];
      if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2) {
        var inView = heads.filter(function (head) { return top(head) >= 0 && top(head) < window.innerHeight; });
        if (inView.length) found = inView[inView.length - 1];
      }
      return found;
    }
    function reading() {
      var found = byPosition();
      var target = window.location.hash && document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
      var named = target && sectionOf(target);
      /* while its heading is on screen the named section wins too: a short section near the end of
         a page never reaches the reading line, and the last heading in view would take its place */
      if (named && ((found && within(found, named)) || (top(named) >= 0 && top(named) < window.innerHeight))) return named;
      return found;
    }

    function update() {
      var head = reading();
      if (head === shown) return;
      shown = head;
      var id = head ? head.id : "";
      switches.forEach(function (link, i) { link.setAttribute("href", bases[i] + (id ? "#" + id : "")); });
      Object.keys(tocLinks).forEach(function (key) { tocLinks[key].removeAttribute("aria-current"); });
      var link = head && tocLinks[chapterOf[id]];
      if (link) link.setAttribute("aria-current", "true");
      /* a strip that scrolls sideways (the glossary's letters on a phone) brings its mark into view */
      var strip = link && link.parentNode;
      if (strip && strip.classList.contains("glossary-letters") && strip.scrollWidth > strip.clientWidth + 1) {
        var scroll = scrollShowing(strip, link, 24);
        if (scroll >= 0) strip.scrollLeft = scroll;
      }
      if (indicator) {
        indicator.textContent = link ? link.textContent : contents;
        toggle.setAttribute("aria-label", link ? contents + ": " + link.textContent : contents);
      }
    }

    var pending = false;
    function schedule() {
      if (pending) return;
      pending = true;
      window.requestAnimationFrame(function () { pending = false; update(); });
    }
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    window.addEventListener("hashchange", update);
    window.addEventListener("load", schedule);
    /* the paragraph too, measured only when the reader reaches for the switch */
    function carryParagraph() {
      update();
      var carried = carriedState();
      if (carried) {
        switches.forEach(function (link, i) { link.setAttribute("href", bases[i] + "#" + carried); });
        return;
      }
      var place = placeBeingRead();
      /* the paragraph's own section, unless it is a subsection of the section the switch already
         names (the one the address or the reading line names): then that one stays */
      var named = shown && place && place.hash && document.getElementById(place.hash);
      if (named && heads.indexOf(named) >= 0 && within(named, shown)) place.hash = shown.id;
      switches.forEach(function (link, i) {
        var hash = (place && place.hash) || link.getAttribute("href").split("#")[1];
        link.setAttribute("href", bases[i] + (place ? place.query : "") + (hash ? "#" + hash : ""));
      });
    }
    switches.forEach(function (link) {
      ["focus", "mouseenter", "touchstart", "click"].forEach(function (type) { link.addEventListener(type, carryParagraph, { passive: true }); });
    });
    schedule(); /* in the next frame, with its layout: reading positions now would force one at startup */
  }

  /* On a desk the contents stand in a sidebar that scrolls on its own: a chapter published as
     several pages lists all its parts there, and the part being read (.toc-here) may lie below the
     sidebar's fold (review 31-i #11: Part 7 of 8 never showed). It is brought into view once, when
     the page has loaded and is laid out (read, then write: no layout forced). */
  function revealCurrentPart() {
    var here = document.querySelector(".toc .toc-here");
    var toc = here && here.closest(".toc");
    if (!toc) return;
    window.addEventListener("load", function () {
      window.requestAnimationFrame(function () {
        var frame = toc.getBoundingClientRect(), box = here.getBoundingClientRect();
        if (toc.scrollHeight <= toc.clientHeight + 1 || (box.top >= frame.top && box.bottom <= frame.bottom)) return;
        toc.scrollTop += box.top - frame.top - 16;
      });
    });
  }

  /* Phones: the contents open under the header; Escape, a link or a tap outside closes them and
     focus goes back to the button. */
  function setupContentsPanel() {
    var toggle = document.querySelector("[data-toc-toggle]");
    var panel = document.getElementById("toc");
    if (!toggle || !panel) return;
    toggle.setAttribute("role", "button");
    toggle.setAttribute("aria-expanded", "false");
    function isOpen() { return panel.classList.contains("is-open"); }
    function show(open, returnFocus) {
      panel.classList.toggle("is-open", open);
      toggle.setAttribute("aria-expanded", String(open));
      if (open) (panel.querySelector("a[aria-current='true']") || panel).focus();
      else if (returnFocus) toggle.focus();
    }
    toggle.addEventListener("click", function (event) {
      event.preventDefault();
      show(!isOpen(), false);
    });
    toggle.addEventListener("keydown", function (event) {
      if (event.key === " ") { event.preventDefault(); show(!isOpen(), false); }
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && isOpen()) show(false, true);
    });
    /* the side-by-side switch closes them too: what it does shows in the page under them, and a
       switch pressed in a panel left open said nothing (review 31-i #14) */
    panel.addEventListener("click", function (event) {
      if (event.target.closest("a, [data-parallel-also]") && isOpen()) show(false, false);
    });
    document.addEventListener("click", function (event) {
      if (isOpen() && !panel.contains(event.target) && !toggle.contains(event.target)) show(false, false);
    });
    panel.addEventListener("focusout", function (event) {
      var next = event.relatedTarget;
      if (isOpen() && next && !panel.contains(next) && next !== toggle) show(false, false);
    });
  }

  /* For print: the page's address (the works it cites are listed by the build). */
  function setupPrint() {
    var address = document.querySelector("[data-print-url]");
    if (address && !address.textContent) address.textContent = window.location.href.split("#")[0];
    var cited = document.querySelector("[data-cite-url]");  /* a site without site_url: its address as read */
    if (cited) cited.textContent = window.location.href.split("#")[0];
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

  function setupQuestionCards() {
    /* the cards show only their titles so that all of them fit the first screen; the button lays
       them out as a list with each question and its most common mistake (remembered) */
    var button = document.querySelector("[data-qcards-toggle]");
    var cards = document.querySelector(".qcards");
    if (!button || !cards) return;
    var show = button.textContent, hide = button.getAttribute("data-hide");
    function set(open) {
      cards.classList.toggle("qcards-open", open);
      button.setAttribute("aria-pressed", open ? "true" : "false");
      button.textContent = open ? hide : show;
    }
    try { set(window.localStorage.getItem("atlas-qcards") === "open"); } catch (e) { set(false); }
    button.addEventListener("click", function () {
      var open = !cards.classList.contains("qcards-open");
      set(open);
      try { window.localStorage.setItem("atlas-qcards", open ? "open" : ""); } catch (e) { /* not remembered */ }
      /* the list grows above the button and took it 2,221 px down a phone's page (review 31-x #5):
         the reader is shown where the list begins, the button's place no longer on screen */
      if (open && button.getBoundingClientRect().top > window.innerHeight) cards.scrollIntoView({ block: "start" });
    });
  }

  /* The folder the reader opened, from an address inside the site's root (`base`, relative to this
     page): what "python -m http.server -d FOLDER" must serve where a feature needs HTTP and the
     page came from file:// (the search box, side-by-side reading). Quoted when it holds a space. */
  window.atlasOpenedFolder = function (base) {
    var path = decodeURIComponent(new URL(base || "./", window.location.href).pathname).replace(/\/$/, "");
    if (/^\/[A-Za-z]:/.test(path)) path = path.slice(1); /* file:///C:/… on Windows */
    return /\s/.test(path) ? '"' + path + '"' : path || "/";
  };

  /* Work below the first screen waits until the reader comes near it (within `margin` of the
     window, an IntersectionObserver rootMargin) or the loaded page leaves the browser idle, or
     starts at once where the address points into it or the browser has no IntersectionObserver.
     The labs (labs-loader.js) and the development map (devmap.js) start this way, so a page's
     first load does not pay for them. */
  window.atlasWhenNear = function (host, margin, start) {
    var done = false;
    var observer = null;
    function begin() {
      if (done) return;
      done = true;
      if (observer) observer.disconnect();
      start();
    }
    var target = addressTarget();
    if (!("IntersectionObserver" in window) || (target && host.contains(target))) {
      begin();
      return;
    }
    observer = new IntersectionObserver(function (entries) {
      if (entries.some(function (entry) { return entry.isIntersecting; })) begin();
    }, { rootMargin: margin });
    observer.observe(host);
    /* and in any case once the page has loaded and the browser is idle: the page then has its whole
       length before the reader comes near (review 31-k: a map's list folding away and a lab growing
       as they started changed it by up to 3,600 px while the reader scrolled towards them) */
    afterLoadWhenIdle(begin);
  };

  /* fn once the page has loaded and the browser is idle (not at all where it cannot say when it is
     idle: then the reader's coming near starts things, as before) */
  function afterLoadWhenIdle(fn) {
    if (typeof window.requestIdleCallback !== "function") return;
    afterLoad(function () { window.requestIdleCallback(fn, { timeout: 2000 }); });
  }

  /* Side-by-side reading's code (parallel.js), fetched where the reader kept it on, or at the first
     press of its switch, which is pressed again once the code has set the switch up. */
  function loadParallelWhenAsked() {
    var button = document.querySelector("[data-parallel-script]");
    if (!button) return;
    var switches = Array.prototype.slice.call(document.querySelectorAll("[data-parallel-toggle], [data-parallel-also]"));
    function load(then) {
      var script = document.createElement("script");
      script.src = button.getAttribute("data-parallel-script");
      if (then) script.onload = then;
      document.head.appendChild(script);
    }
    var kept = false;
    try { kept = window.localStorage.getItem(button.getAttribute("data-parallel-store")) === "1"; } catch (e) { /* private mode */ }
    if (kept) { load(); return; }
    function first(event) {
      var pressed = event.currentTarget;
      switches.forEach(function (each) { each.removeEventListener("click", first); });
      load(function () { pressed.click(); });
    }
    switches.forEach(function (each) { each.addEventListener("click", first); });
  }

  /* The development map's code, fetched when the reader comes within half a screen of a map or the
     loaded page is idle (its list reads without it); devmap.js builds each map the same way. */
  function loadMapsWhenNear() {
    var loaded = false;
    Array.prototype.forEach.call(document.querySelectorAll("[data-devmap-script]"), function (host) {
      window.atlasWhenNear(host, "50% 0px", function () {
        if (loaded) return;
        loaded = true;
        var script = document.createElement("script");
        script.src = host.getAttribute("data-devmap-script");
        document.head.appendChild(script);
      });
    });
  }

  function followMovedTarget() {
    /* the first page of a chapter published as several pages knows where its other sections went:
       an old link (chapter.html#q5) goes on to the page that holds the section now */
    var main = document.querySelector("main[data-moved]");
    var id = decodeURIComponent(window.location.hash.slice(1)).split("?")[0];
    if (!main || !id || document.getElementById(id)) return false;
    var moved;
    try { moved = JSON.parse(main.getAttribute("data-moved")); } catch (e) { return false; }
    if (!Object.prototype.hasOwnProperty.call(moved, id)) return false;
    window.location.replace(moved[id] + window.location.hash);
    return true;
  }

  /* A box that scrolls sideways (a wide formula or table), the phone header's strip of links or the
     glossary's A–Z bar on a phone:
     which of its edges has more beyond it (data-more="end", "start", "both" or "none"; the
     stylesheet fades that edge). A box that overflows is a named group a keyboard can scroll. Measured
     when the browser lays a box out (a skipped block's boxes when they come near the screen) and as it
     scrolls, never all at startup. */
  function setupScrollEdges() {
    var label = document.body.getAttribute("data-msg-scroll") || "";
    /* what a box shows (read) and then what is written to it: every box is read before any is
       written, so no write makes the next read lay the page out again */
    function measure(box) {
      var room = box.scrollWidth - box.clientWidth;
      var more = room < 2 ? "none" : box.scrollLeft < 2 ? "end" : box.scrollLeft > room - 2 ? "start" : "both";
      var scroll = -1;
      var current = box.classList.contains("site-nav") && !box.hasAttribute("data-more") && box.querySelector("a[aria-current]");
      /* first laid out: the strip starts scrolled to the page's own link */
      if (current && room > 1) scroll = scrollShowing(box, current, 48);
      /* how much lies beyond each edge, up to a fade's width (site.css: no fade is wider) */
      var start = Math.max(0, Math.min(40, Math.round(box.scrollLeft)));
      var end = Math.max(0, Math.min(40, Math.round(room - box.scrollLeft)));
      return { box: box, more: more, scroll: scroll, start: start, end: end, short: room < 48 };
    }
    function apply(seen) {
      var box = seen.box, more = seen.more;
      if (seen.scroll >= 0) box.scrollLeft = seen.scroll;
      if (box.getAttribute("data-more") !== more) box.setAttribute("data-more", more);
      /* a strip of links (the header's, the glossary's letters) is a navigation landmark already,
         and its links take the keyboard: it is not made a scrollable group */
      if (box.tagName === "NAV") return;
      var frame = box.parentElement;
      if (frame && frame.classList.contains("scroll-frame")) {
        /* written only when changed: a custom property restyles the frame's whole box */
        if (frame.atlasFade !== seen.start + " " + seen.end) {
          frame.atlasFade = seen.start + " " + seen.end;
          frame.style.setProperty("--more-start", seen.start + "px");
          frame.style.setProperty("--more-end", seen.end + "px");
        }
      }
      if (box.hasAttribute("data-more-short") !== (seen.short && more !== "none")) box.toggleAttribute("data-more-short");
      if (more === "none") {
        if (box.getAttribute("role") === "group") { box.removeAttribute("role"); box.removeAttribute("aria-label"); }
      } else if (!box.hasAttribute("role")) {
        box.setAttribute("role", "group");
        if (label) box.setAttribute("aria-label", label);
        box.setAttribute("tabindex", "0");
      }
    }
    function mark(box) { apply(measure(box)); }
    var boxes = document.querySelectorAll(".math-block, .table-scroll, .site-header:not(.has-toc) .site-nav, .glossary-letters");
    if (!boxes.length) return;
    var observer = "ResizeObserver" in window ? new ResizeObserver(function (entries) {
      entries.map(function (entry) { return measure(entry.target); }).forEach(apply);
    }) : null;
    Array.prototype.forEach.call(boxes, function (box) {
      if (observer) observer.observe(box); else mark(box);
      var pending = false;
      box.addEventListener("scroll", function () {
        if (pending) return;
        pending = true;
        window.requestAnimationFrame(function () { pending = false; mark(box); });
      }, { passive: true });
    });
  }

  /* The site's links mark the page being read (aria-current); on a phone, where they are one strip
     that scrolls sideways, the strip starts scrolled to that link (setupScrollEdges, once it is
     laid out: nothing here reads a layout at startup). */
  function markCurrentNav() {
    var nav = document.querySelector(".site-nav");
    if (!nav) return;
    var here = window.location.pathname.replace(/\/$/, "/index.html");
    Array.prototype.forEach.call(nav.querySelectorAll("a[href]"), function (link) {
      if (link.pathname.replace(/\/$/, "/index.html") === here) link.setAttribute("aria-current", "page");
    });
  }

  /* Back to the top. Where it may stand over the text column (below 1100 px: the phone's and the
     tablet's full-width column) it never stays over what the reader reads (review 31-f #6: it
     covered line ends, captions and a lab's summary): it is shown by a deliberate scroll back up (a
     quarter of a window, at least 120 px, in one go, a screen or more down the page), and hidden
     again as the reader goes on down, follows a link within the page (they read where it lands) or
     stops scrolling for IDLE ms (unless it has focus or a pointer on it). At the page's very end it
     stays: it stands in the strip the stylesheet keeps empty below the last line there. On a desk
     it stands beside the column: shown once the reader is a screen down and going back up, after a
     jump, or at the end. Never over a bar pinned at the bottom of the window: a lab's summary
     (labs.css), the development map's panel (devmap.css). A bar changes without a scroll too (a
     lab's summary stands aside while its outputs are on screen; a map's panel opens on a tap), so
     its changes are watched as well. */
  var PINNED = ".lab-summary, .devmap.has-selection .devmap-panel";
  var IDLE = 2000;
  function setupToTop() {
    var button = document.querySelector(".to-top");
    if (!button) return;
    var narrow = window.matchMedia ? window.matchMedia("(max-width: 1099.98px)") : { matches: false };
    var pending = false;
    /* scrollY is first read in a frame: reading it now would lay the page out */
    var lastY = null, upward = true, byHand = false; /* the desk's rule */
    var frameY = null, climb = 0, wanted = false, jumpUntil = 0, idle = 0; /* the narrow rule */
    /* which way the reader's own hand goes (a wheel, a finger, a key): scrolls that no hand made
       (content above laid out at its real height, a target held in place) neither show nor hide it.
       A fling goes on after the finger has left: a move the same way renews the gesture. */
    var gesture = { up: false, at: 0 }, touchY = null;
    function towards(up) { gesture = { up: up, at: Date.now() }; byHand = true; }
    window.addEventListener("wheel", function (event) { if (event.deltaY) towards(event.deltaY < 0); }, { passive: true, capture: true });
    window.addEventListener("touchstart", function (event) { touchY = event.touches[0] ? event.touches[0].clientY : null; }, { passive: true, capture: true });
    window.addEventListener("touchmove", function (event) {
      var y = event.touches[0] ? event.touches[0].clientY : null;
      if (y !== null && touchY !== null && y !== touchY) towards(y > touchY);
      touchY = y;
    }, { passive: true, capture: true });
    window.addEventListener("keydown", function (event) {
      var key = event.key;
      byHand = true;
      if (key === "ArrowUp" || key === "PageUp" || key === "Home" || (key === " " && event.shiftKey)) towards(true);
      else if (key === "ArrowDown" || key === "PageDown" || key === "End" || key === " ") towards(false);
    }, { passive: true, capture: true });
    function jumped() { jumpUntil = Date.now() + 800; wanted = false; climb = 0; schedule(); }
    window.addEventListener("hashchange", jumped);
    /* a link into this page whose address is already the page's own changes no hash */
    document.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("a[href*='#']");
      if (link && link !== button && link.pathname === window.location.pathname && link.hash) jumped();
    }, true);
    function held() { return button.matches(":hover, :focus, :active"); }
    function rest() {
      idle = 0;
      if (held()) { idle = window.setTimeout(rest, IDLE); return; }
      wanted = false;
      climb = 0;
      schedule();
    }
    function update() {
      pending = false;
      var y = window.scrollY;
      if (lastY === null) lastY = y;
      if (Math.abs(y - lastY) > 4) { upward = y < lastY || !byHand; lastY = y; byHand = false; }
      if (frameY === null) frameY = y;
      var moved = y - frameY;
      frameY = y;
      var now = Date.now(), hand = now - gesture.at < 600;
      if (moved && now < jumpUntil) { wanted = false; climb = 0; }
      else if (moved > 0 && hand && !gesture.up) { wanted = false; climb = 0; gesture.at = now; }
      else if (moved < 0 && hand && gesture.up) {
        gesture.at = now;
        climb -= moved;
        if (climb >= Math.max(120, window.innerHeight / 4)) wanted = true;
      }
      if (moved && wanted) {
        window.clearTimeout(idle);
        idle = window.setTimeout(rest, IDLE);
      }
      var show = y > window.innerHeight;
      /* (the page's height is read only once the reader is a screen down: never at startup) */
      var atEnd = show && window.innerHeight + y >= document.documentElement.scrollHeight - 4;
      if (narrow.matches) show = show && (wanted || atEnd);
      else show = show && (upward || atEnd);
      if (show) {
        var pinned = document.querySelectorAll(PINNED);
        for (var i = 0; i < pinned.length && show; i++) {
          var box = pinned[i].getBoundingClientRect();
          if (box.height && box.top < window.innerHeight && box.bottom > window.innerHeight - 80 && getComputedStyle(pinned[i]).visibility !== "hidden") show = false;
        }
      }
      button.classList.toggle("is-shown", show);
    }
    function schedule() {
      if (pending) return;
      pending = true;
      window.requestAnimationFrame(update);
    }
    window.addEventListener("scroll", schedule, { passive: true });
    if ("MutationObserver" in window) {
      var watch = new MutationObserver(schedule);
      Array.prototype.forEach.call(document.querySelectorAll("[data-lab-summary], .devmap"), function (bar) {
        watch.observe(bar, { attributes: true, attributeFilter: ["class", "hidden"] });
      });
    }
    window.requestAnimationFrame(update);
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (followMovedTarget()) return;
    setupToTop();
    markCurrentNav();
    setupScrollEdges();
    setupTranslationNotices();
    setupThemeToggle();
    trackHeaderHeight();
    trackStickyBars();
    landOnCarriedParagraph();
    keepTargetsInPlace();
    setupSectionTracking();
    setupContentsPanel();
    revealCurrentPart();
    setupPrint();
    setupQuestionCards();
    loadMapsWhenNear();
    loadParallelWhenAsked();
    measureSkippedBlocks();
  });
})();
