/* The development map: turns the per-route lists rendered by devmap.html.j2 into lanes (routes)
   across a time axis (years), with nodes as buttons, the "after" links drawn as SVG arrows, and a
   details panel (aria-live) for the selected node. Mouse, touch and keyboard all select: Enter or
   Space on a focused node; Left/Right move within a lane, Up/Down to the neighbouring lane,
   Home/End to a lane's ends, Escape clears. Without script the list stays as it is.
   Classic script, DOM APIs and textContent only (no HTML strings), no inline styles in markup. */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var GAP_REM = 0.3;
  var PAD_REM = 0.7;
  var NARROW = "(max-width: 600px)"; /* as in devmap.css */

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text) node.textContent = text;
    return node;
  }

  function svg(tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    return node;
  }

  function perRow(count) {
    if (count <= 1) return 1;
    if (count <= 4) return 2;
    return 3;
  }

  function DevMap(root, index) {
    this.root = root;
    this.prefix = "devmap" + (index ? "-" + index : "");
    this.list = root.querySelector("[data-devmap-list]");
    this.nodes = {};
    this.order = [];
    this.routes = [];
    this.chips = {};
    this.edges = [];
    this.selected = null;
    this.read();
    this.build();
    this.bind();
  }

  DevMap.prototype.t = function (key) {
    return this.root.getAttribute("data-t-" + key) || "";
  };

  /* Read the list: routes in order, nodes in (year, id) order, arrows from data-after. */
  DevMap.prototype.read = function () {
    var self = this;
    Array.prototype.forEach.call(this.list.querySelectorAll(".devmap-route"), function (section) {
      var summary = section.querySelector(".devmap-route-summary");
      self.routes.push({
        id: section.getAttribute("data-route"),
        title: section.getAttribute("data-route-title"),
        summary: summary ? summary.textContent : "",
        nodes: []
      });
    });
    var byRoute = {};
    this.routes.forEach(function (route) { byRoute[route.id] = route; });
    Array.prototype.forEach.call(this.list.querySelectorAll("li[data-node]"), function (li) {
      var id = li.getAttribute("data-node");
      var after = (li.getAttribute("data-after") || "").split(" ").filter(Boolean);
      var title = li.querySelector("[data-field=title]");
      var node = {
        id: id, li: li, route: li.getAttribute("data-route"), year: li.getAttribute("data-year"),
        title: title ? title.textContent : id, after: after, later: []
      };
      self.nodes[id] = node;
      self.order.push(node);
      if (byRoute[node.route]) byRoute[node.route].nodes.push(node);
    });
    this.order.forEach(function (node) {
      node.after.forEach(function (earlier) {
        if (self.nodes[earlier]) {
          self.nodes[earlier].later.push(node.id);
          self.edges.push({ from: earlier, to: node.id, path: null });
        }
      });
    });
    var years = {};
    this.order.forEach(function (node) { years[node.year] = true; });
    var known = Object.keys(years).sort();
    /* every year from the first to the last: a year without a node stays on the axis as a gap */
    this.years = [];
    this.gaps = {};
    for (var y = +known[0]; known.length && y <= +known[known.length - 1]; y++) {
      this.years.push(String(y));
      if (!years[y]) this.gaps[y] = true;
    }
  };

  /* Within one lane and year, a node comes after the nodes it grew from (then by id), so arrows
     inside a cell run forward: to the right, or down to the next row. */
  DevMap.prototype.cellOrder = function (members) {
    var left = members.slice();
    var placed = {};
    var out = [];
    var inCell = {};
    members.forEach(function (n) { inCell[n.id] = true; });
    while (left.length) {
      var pick = 0;
      for (var i = 0; i < left.length; i++) {
        var ready = left[i].after.every(function (x) { return !inCell[x] || placed[x]; });
        if (ready) { pick = i; break; }
      }
      var node = left.splice(pick, 1)[0];
      placed[node.id] = true;
      out.push(node);
    }
    return out;
  };

  /* One column per year, as wide as its fullest cell needs (a gap year stays narrow). On a phone
     a cell stacks its nodes one per row, so about three years fit across the screen. */
  DevMap.prototype.layoutColumns = function () {
    var self = this;
    var single = window.matchMedia && window.matchMedia(NARROW).matches;
    var columns = ["var(--devmap-lane-w)"];
    this.years.forEach(function (year) {
      var most = 0;
      self.routes.forEach(function (route) {
        var count = route.nodes.filter(function (n) { return n.year === year; }).length;
        if (count > most) most = count;
      });
      var n = single ? 1 : perRow(most);
      /* chip width is a CSS variable, so narrow screens can use smaller chips */
      columns.push(self.gaps[year] ? "var(--devmap-gap)" :
        "calc(" + n + " * var(--devmap-chip) + " + ((n - 1) * GAP_REM + PAD_REM).toFixed(2) + "rem + 2px)");
    });
    this.canvas.style.setProperty("--devmap-cols", columns.join(" "));
  };

  DevMap.prototype.field = function (node, name) {
    return node.li.querySelector("[data-field=" + name + "]");
  };

  DevMap.prototype.build = function () {
    var self = this;
    var root = this.root;

    /* toolbar: view switch, key to the highlight colours, keyboard hint */
    var stage = el("div", "devmap-stage");
    var toolbar = el("div", "devmap-toolbar");
    var views = el("div", "devmap-views");
    views.setAttribute("role", "group");
    views.setAttribute("aria-label", this.t("views"));
    this.mapButton = el("button", "devmap-view", this.t("map-view"));
    this.listButton = el("button", "devmap-view", this.t("list-view"));
    [this.mapButton, this.listButton].forEach(function (button) {
      button.type = "button";
      views.appendChild(button);
    });
    toolbar.appendChild(views);
    var key = el("ul", "devmap-key");
    [["is-in", this.t("arrows-in")], ["is-out", this.t("arrows-out")]].forEach(function (pair) {
      var item = el("li", "devmap-key-item " + pair[0]);
      var swatch = el("span", "devmap-key-swatch");
      swatch.setAttribute("aria-hidden", "true");
      item.appendChild(swatch);
      item.appendChild(document.createTextNode(pair[1]));
      key.appendChild(item);
    });
    toolbar.appendChild(key);
    var hintId = this.prefix + "-hint";
    var hint = el("p", "devmap-hint", this.t("hint"));
    hint.id = hintId;
    toolbar.appendChild(hint);
    stage.appendChild(toolbar);

    /* the map: a scroll box holding the axis row, one lane per route, and the arrow layer */
    /* its frame fades an edge with more beyond it and marks it ⇆ (site.css .scroll-frame, as the
       wide tables and formulas do; devmap.css): on a phone the map is three times the screen */
    var mapBox = el("div", "devmap-mapbox scroll-frame");
    var scroll = el("div", "devmap-scroll");
    scroll.setAttribute("role", "region");
    scroll.setAttribute("aria-label", this.t("aria"));
    var canvas = el("div", "devmap-canvas");
    this.canvas = canvas;
    this.layoutColumns();

    var axis = el("div", "devmap-row devmap-axis");
    axis.setAttribute("aria-hidden", "true");
    axis.appendChild(el("div", "devmap-corner", this.t("route") + " / " + this.t("year")));
    this.years.forEach(function (year) {
      var head = el("div", "devmap-year-head" + (self.gaps[year] ? " is-gap" : ""));
      head.setAttribute("data-year", year);
      head.appendChild(el("span", "devmap-year-label", year)); /* sticks beside the lane titles */
      axis.appendChild(head);
    });
    canvas.appendChild(axis);

    this.lanes = [];
    this.routes.forEach(function (route, laneIndex) {
      var lane = el("div", "devmap-row devmap-lane" + (laneIndex % 2 ? " is-odd" : ""));
      lane.setAttribute("role", "group");
      var headId = self.prefix + "-lane-" + route.id;
      lane.setAttribute("aria-labelledby", headId);
      var head = el("div", "devmap-lane-head");
      head.id = headId;
      head.title = route.summary;
      var title = el("span", "devmap-lane-title", route.title);
      title.appendChild(el("span", "devmap-lane-count", " " + route.nodes.length)); /* moves with the title */
      head.appendChild(title);
      lane.appendChild(head);
      var laneChips = [];
      self.years.forEach(function (year) {
        var cell = el("div", "devmap-cell" + (self.gaps[year] ? " is-gap" : ""));
        self.cellOrder(route.nodes.filter(function (n) { return n.year === year; })).forEach(function (node) {
          var chip = el("button", "devmap-chip");
          chip.type = "button";
          chip.id = self.prefix + "-node-" + node.id;
          chip.setAttribute("data-node", node.id);
          chip.setAttribute("aria-pressed", "false");
          chip.setAttribute("aria-controls", self.prefix + "-panel");
          chip.setAttribute("aria-describedby", hintId);
          chip.tabIndex = -1;
          var when = el("span", "visually-hidden", node.year + " · ");
          chip.appendChild(when);
          chip.appendChild(el("span", "devmap-chip-title", node.title));
          cell.appendChild(chip);
          self.chips[node.id] = chip;
          node.lane = laneIndex;
          laneChips.push(chip);
        });
        /* a phone shows the year above each cell's nodes: the row of years has scrolled away by the
           later lanes (review 31-u #2) */
        if (cell.firstChild) cell.setAttribute("data-year", year);
        lane.appendChild(cell);
      });
      self.lanes.push(laneChips);
      canvas.appendChild(lane);
    });

    /* arrow layer: behind the nodes, above the lane backgrounds */
    var layer = svg("svg", { "class": "devmap-arrows", "aria-hidden": "true", focusable: "false" });
    var defs = svg("defs");
    ["base", "in", "out"].forEach(function (kind) {
      var marker = svg("marker", {
        id: self.prefix + "-head-" + kind, viewBox: "0 0 8 8", refX: "7", refY: "4",
        markerWidth: "6", markerHeight: "6", orient: "auto", markerUnits: "strokeWidth"
      });
      marker.appendChild(svg("path", { d: "M0,0 L8,4 L0,8 z", "class": "devmap-head devmap-head-" + kind }));
      defs.appendChild(marker);
    });
    layer.appendChild(defs);
    this.edgeGroup = svg("g", { "class": "devmap-edges" });
    layer.appendChild(this.edgeGroup);
    this.edges.forEach(function (edge) {
      edge.path = svg("path", { "class": "devmap-edge", "marker-end": "url(#" + self.prefix + "-head-base)" });
      self.edgeGroup.appendChild(edge.path);
    });
    canvas.appendChild(layer);
    this.layer = layer;

    scroll.appendChild(canvas);
    scroll.id = this.prefix + "-scroll";
    mapBox.appendChild(scroll);

    /* the years out of view on either side, named on two buttons (Review 31-p #6 (2): a ⇆ at the
       edge was all that said 2017–2022 lay to the left); their text is set by markEdges */
    var pager = el("div", "devmap-pager");
    this.earlier = this.pageButton("is-earlier", "←", true);
    this.later = this.pageButton("is-later", "→", false);
    pager.appendChild(this.earlier.button);
    pager.appendChild(this.later.button); /* shown from the start, so the map does not move down when its years are named */
    this.pager = pager;
    stage.appendChild(pager);
    stage.appendChild(mapBox);

    /* the details panel */
    var panel = el("div", "devmap-panel");
    panel.id = this.prefix + "-panel";
    panel.setAttribute("aria-live", "polite");
    panel.setAttribute("data-devmap-panel", "");
    panel.appendChild(el("p", "devmap-panel-empty", this.t("empty")));
    stage.appendChild(panel);

    this.stage = stage;
    this.mapBox = mapBox;
    this.scroll = scroll;
    this.panel = panel;
    root.insertBefore(stage, this.list);
    root.classList.add("is-enhanced");
    var first = this.order.length ? this.chips[this.order[0].id] : null;
    if (first) first.tabIndex = 0;
    this.opening = true; /* the first frame scrolls the map to its nodes (openWhereTheNodesAre) */
    this.showMap(true);
  };

  /* Where the map opens, decided (Review 31-p #6 (2)): on the window of years that shows the most nodes.
     The map is a history, so its start would be the obvious place, but its first years are a
     prologue: on the Atlas 2017–2022 hold 12 of 94 nodes, and opening there showed a phone a handful of
     nodes in six empty lanes, a desk a screen of mostly empty lanes whose arrows all leave it to the
     right. The busiest window shows the most nodes and the arrows between them; nothing is hidden
     silently, since the two buttons above the map name the years on each side ("← earlier:
     2017–2022") and go there, and an address naming a node opens on that node instead (fromHash). */
  DevMap.prototype.openWhereTheNodesAre = function () {
    var scroll = this.scroll, self = this;
    var heads = Array.prototype.slice.call(this.canvas.querySelectorAll(".devmap-year-head"));
    var corner = this.canvas.querySelector(".devmap-corner");
    var inset = corner ? corner.getBoundingClientRect().width : 0; /* the sticky lane titles cover this much */
    var view = scroll.clientWidth - inset;
    var counts = heads.map(function (head) {
      var year = head.getAttribute("data-year");
      return self.order.filter(function (n) { return n.year === year; }).length;
    });
    var best = 0, bestCount = -1;
    heads.forEach(function (head, start) {
      var left = head.offsetLeft, count = 0;
      for (var i = start; i < heads.length && heads[i].offsetLeft < left + view; i++) count += counts[i];
      if (count > bestCount) { bestCount = count; best = left - inset; }
    });
    /* the first year stands clear of the fade that says there are earlier ones (review 31-r #6:
       the fade washed out the first column's nodes, FlexGen, AWQ, Splitwise) */
    scroll.scrollLeft = Math.max(0, best > 0 ? best - this.fade() : 0);
  };

  /* The width of the fade over an edge with more beyond it (site.css .scroll-frame: 2.5rem). */
  DevMap.prototype.fade = function () {
    return 2.5 * (parseFloat(window.getComputedStyle(document.documentElement).fontSize) || 16);
  };

  /* ---------- the scroll box's edges ---------- */

  /* A button naming the years out of view on one side: the arrow is a picture (aria-hidden), the
     words and years are its name, so what it says is what a screen reader hears. */
  DevMap.prototype.pageButton = function (cls, arrow, first) {
    var self = this;
    var button = el("button", "devmap-page " + cls);
    button.type = "button";
    button.hidden = true;
    button.setAttribute("aria-controls", this.prefix + "-scroll");
    var mark = el("span", "devmap-page-arrow", arrow);
    mark.setAttribute("aria-hidden", "true");
    var words = el("span", "devmap-page-years");
    if (first) { button.appendChild(mark); button.appendChild(words); }
    else { button.appendChild(words); button.appendChild(mark); }
    button.addEventListener("click", function () { self.page(first ? -1 : 1); });
    return { button: button, words: words, shown: "" };
  };

  /* The window's width, less the lane titles that stay at its left (none on a phone). */
  DevMap.prototype.inset = function () {
    var corner = this.canvas.querySelector(".devmap-corner");
    return corner ? corner.getBoundingClientRect().width : 0;
  };

  /* One screen of years that way: the first year cut at the right edge becomes the first one in
     full beside the lane titles; going back, the last year cut at the left ends the window. */
  DevMap.prototype.page = function (way) {
    var box = this.scroll, inset = this.inset(), seen = this.hiddenYears();
    var heads = this.yearHeads();
    var target;
    /* the year brought in stands clear of the fade at the edge it came from */
    if (way > 0 && seen.later.length) target = heads[seen.later[0]].offsetLeft - inset - this.fade();
    else if (way < 0 && seen.earlier.length) {
      var head = heads[seen.earlier[seen.earlier.length - 1]];
      target = head.offsetLeft + head.offsetWidth - box.clientWidth + this.fade();
    }
    if (target === undefined) return;
    var room = box.scrollWidth - box.clientWidth;
    box.scrollLeft = Math.max(0, Math.min(room, Math.round(target)));
  };

  DevMap.prototype.yearHeads = function () {
    if (!this.heads) this.heads = Array.prototype.slice.call(this.canvas.querySelectorAll(".devmap-year-head"));
    return this.heads;
  };

  /* The indexes of the years cut or out of view at the start (behind the lane titles) and at the end. */
  DevMap.prototype.hiddenYears = function () {
    var box = this.scroll.getBoundingClientRect(), inset = this.inset();
    var left = box.left + inset + 1, right = box.right - 1;
    var earlier = [], later = [];
    this.yearHeads().forEach(function (head, i) {
      var r = head.getBoundingClientRect();
      if (r.left < left - 1) earlier.push(i);
      else if (r.right > right + 1) later.push(i);
    });
    return { earlier: earlier, later: later };
  };

  /* "2017–2022" from the indexes of some years (a year without nodes does not end the range). */
  DevMap.prototype.yearRange = function (indexes) {
    var self = this;
    var years = indexes.map(function (i) { return self.years[i]; }).filter(function (y) { return !self.gaps[y]; });
    if (!years.length) return "";
    var first = years[0], last = years[years.length - 1];
    return first === last ? first : first + "\u2013" + last;
  };

  /* Which edges have more beyond them (data-more on the box: "end", "start", "both" or "none") and
     how much, up to a fade's width (--more-start, --more-end on the frame), as site.js marks a
     wide table's box; measure() only reads, mark() only writes. */
  DevMap.prototype.measureEdges = function () {
    var box = this.scroll;
    var room = box.scrollWidth - box.clientWidth, at = box.scrollLeft;
    var hidden = this.hiddenYears();
    return {
      more: room < 2 ? "none" : at < 2 ? "end" : at > room - 2 ? "start" : "both",
      start: Math.max(0, Math.min(40, Math.round(at))),
      end: Math.max(0, Math.min(40, Math.round(room - at))),
      short: room < 48,
      earlier: this.yearRange(hidden.earlier),
      later: this.yearRange(hidden.later)
    };
  };

  DevMap.prototype.markPager = function (seen) {
    var self = this;
    var moving = null;
    [[this.earlier, seen.earlier, "earlier"], [this.later, seen.later, "later-years"]].forEach(function (set) {
      var page = set[0], years = set[1];
      if (page.shown === years) return;
      page.shown = years;
      if (!years && document.activeElement === page.button) moving = page;
      page.button.hidden = !years;
      if (years) page.words.textContent = self.t(set[2]).replace("{years}", years);
    });
    this.pager.hidden = !seen.earlier && !seen.later;
    /* the button just pressed has nothing more on its side: the focus goes to the other one */
    if (moving) {
      var other = moving === this.earlier ? this.later : this.earlier;
      if (!other.button.hidden) other.button.focus();
    }
  };

  DevMap.prototype.markEdges = function (seen) {
    var box = this.scroll, frame = this.mapBox;
    this.markPager(seen);
    if (box.getAttribute("data-more") !== seen.more) box.setAttribute("data-more", seen.more);
    if (box.hasAttribute("data-more-short") !== seen.short) box.toggleAttribute("data-more-short");
    if (frame.atlasFade !== seen.start + " " + seen.end) {
      frame.atlasFade = seen.start + " " + seen.end;
      frame.style.setProperty("--more-start", seen.start + "px");
      frame.style.setProperty("--more-end", seen.end + "px");
    }
  };

  /* ---------- arrows ---------- */

  /* Every box is read before anything is written: a write between two reads would make the
     browser lay the map out again for each arrow. */
  DevMap.prototype.draw = function () {
    if (this.mapBox.hidden) return;
    var self = this;
    var base = this.canvas.getBoundingClientRect();
    var width = this.canvas.scrollWidth;
    var height = this.canvas.scrollHeight;
    var boxes = {};
    Object.keys(this.chips).forEach(function (id) { boxes[id] = self.chips[id].getBoundingClientRect(); });
    var routes = this.edges.map(function (edge) { return self.route(boxes[edge.from], boxes[edge.to], base); });
    var seen = this.measureEdges();
    this.markEdges(seen);
    this.layer.setAttribute("width", String(width));
    this.layer.setAttribute("height", String(height));
    this.layer.setAttribute("viewBox", "0 0 " + width + " " + height);
    this.edges.forEach(function (edge, i) { edge.path.setAttribute("d", routes[i]); });
  };

  /* A curve from node a to node b (rects relative to the canvas): forward in time it leaves a's
     right edge for b's left edge; within one column it runs down (or up) between the two. */
  DevMap.prototype.route = function (ra, rb, base) {
    var a = { l: ra.left - base.left, r: ra.right - base.left, t: ra.top - base.top, b: ra.bottom - base.top };
    var b = { l: rb.left - base.left, r: rb.right - base.left, t: rb.top - base.top, b: rb.bottom - base.top };
    var ay = (a.t + a.b) / 2, by = (b.t + b.b) / 2;
    var ax = (a.l + a.r) / 2, bx = (b.l + b.r) / 2;
    function curve(x1, y1, c1x, c1y, c2x, c2y, x2, y2) {
      return "M" + x1.toFixed(1) + "," + y1.toFixed(1) + " C" + c1x.toFixed(1) + "," + c1y.toFixed(1) + " " +
        c2x.toFixed(1) + "," + c2y.toFixed(1) + " " + x2.toFixed(1) + "," + y2.toFixed(1);
    }
    if (b.l >= a.r - 1) {
      var dx = Math.max(14, (b.l - a.r) / 2);
      return curve(a.r, ay, a.r + dx, ay, b.l - dx, by, b.l, by);
    }
    if (b.t >= a.b - 1) {
      var dy = Math.max(10, (b.t - a.b) / 2);
      return curve(ax, a.b, ax, a.b + dy, bx, b.t - dy, bx, b.t);
    }
    if (b.b <= a.t + 1) {
      var up = Math.max(10, (a.t - b.b) / 2);
      return curve(ax, a.t, ax, a.t - up, bx, b.b + up, bx, b.b);
    }
    var out = 18;
    return curve(a.r, ay, Math.max(a.r, b.r) + out, ay, Math.max(a.r, b.r) + out, by, b.r, by);
  };

  DevMap.prototype.schedule = function () {
    var self = this;
    if (this.pending) return;
    this.pending = true;
    window.requestAnimationFrame(function () {
      self.pending = false;
      if (self.opening && !self.mapBox.hidden) self.openWhereTheNodesAre();
      self.opening = false;
      self.draw();
    });
  };

  /* ---------- selection and the panel ---------- */

  DevMap.prototype.select = function (id, options) {
    var node = this.nodes[id];
    if (!node) return;
    options = options || {};
    var self = this;
    this.selected = id;
    var before = {}, after = {};
    node.after.forEach(function (x) { before[x] = true; });
    node.later.forEach(function (x) { after[x] = true; });
    Object.keys(this.chips).forEach(function (key) {
      var chip = self.chips[key];
      var on = key === id;
      chip.setAttribute("aria-pressed", on ? "true" : "false");
      chip.classList.toggle("is-selected", on);
      chip.classList.toggle("is-before", !!before[key]);
      chip.classList.toggle("is-after", !!after[key]);
      chip.tabIndex = on ? 0 : -1;
    });
    this.root.classList.add("has-selection");
    this.root.setAttribute("data-carry", "map-" + id); /* the language switch carries the node (site.js) */
    var raised = [];
    this.edges.forEach(function (edge) {
      var kind = edge.to === id ? "in" : edge.from === id ? "out" : "base";
      edge.path.setAttribute("class", "devmap-edge" + (kind === "base" ? "" : " is-" + kind));
      edge.path.setAttribute("marker-end", "url(#" + self.prefix + "-head-" + kind + ")");
      if (kind !== "base") raised.push(edge.path);
    });
    raised.forEach(function (path) { self.edgeGroup.appendChild(path); }); /* drawn last = on top */
    this.fill(node);
    if (options.focus) this.chips[id].focus();
    this.keepInView(this.chips[id]);
    if (options.remember && window.history && window.history.replaceState) {
      window.history.replaceState(null, "", "#map-" + id);
    }
  };

  /* The details panel is pinned to the bottom of the window (devmap.css): if it now covers the
     selected node, scroll the page just enough to show the node above it. Measured again over the
     next frames: the panel takes its full height only once its new details are laid out, and one
     reading left the node under it (review 31-n #6). */
  /* Review 31-p #6 (3): on a phone the node stayed above the panel, but the nodes its arrows reach ran on
     under it or off the map's right edge. Now the page scrolls so the node and its neighbours (the
     nodes it follows and leads to) stand between the header and the panel, and the map scrolls
     sideways to show them too; where they do not all fit, the node itself and the nodes it leads to
     come first. */
  DevMap.prototype.keepInView = function (chip) {
    var self = this, panel = this.panel, frames = 3;
    var node = this.nodes[chip.getAttribute("data-node")];
    function chipsOf(ids) { return ids.map(function (x) { return self.chips[x]; }).filter(Boolean); }
    function rect(c) { var r = c.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; }
    function join(a, b) {
      return { left: Math.min(a.left, b.left), right: Math.max(a.right, b.right), top: Math.min(a.top, b.top), bottom: Math.max(a.bottom, b.bottom) };
    }
    function room() {
      var header = document.querySelector(".site-header");
      var box = self.scroll.getBoundingClientRect();
      return {
        left: box.left + self.inset() + 8, right: box.right - 8,
        top: Math.max(0, header ? header.getBoundingClientRect().bottom : 0) + 8,
        bottom: panel.getBoundingClientRect().top - 12
      };
    }
    /* the node, then the nearest of the nodes it leads to, then of those it follows, as many as fit
       in the window between the header and the panel and in the map's box (reads only) */
    function span() {
      var at = room(), own = rect(chip), box = own;
      var cx = (own.left + own.right) / 2, cy = (own.top + own.bottom) / 2;
      function near(a, b) {
        var ra = rect(a), rb = rect(b);
        return Math.abs((ra.left + ra.right) / 2 - cx) + Math.abs((ra.top + ra.bottom) / 2 - cy) -
          Math.abs((rb.left + rb.right) / 2 - cx) - Math.abs((rb.top + rb.bottom) / 2 - cy);
      }
      chipsOf(node.later).sort(near).concat(chipsOf(node.after).sort(near)).forEach(function (other) {
        /* an arrow ends at a node's near edge: a node in another year counts as shown once that
           edge and the start of its title are (a whole column more would not fit on a phone) */
        var r = rect(other);
        if (r.left >= own.right) r.right = Math.min(r.right, r.left + 48);
        else if (r.right <= own.left) r.left = Math.max(r.left, r.right - 48);
        var next = join(box, r);
        if (next.right - next.left <= at.right - at.left && next.bottom - next.top <= at.bottom - at.top) box = next;
      });
      return { box: box, at: at };
    }
    function shift(lo, hi, box, at) {
      if (box[lo] < at[lo]) return box[lo] - at[lo];
      if (box[hi] > at[hi]) return Math.min(box[hi] - at[hi], box[lo] - at[lo]);
      return 0;
    }
    var first = span();
    var dx = shift("left", "right", first.box, first.at);
    if (Math.abs(dx) > 1) this.scroll.scrollLeft += dx;
    /* the panel takes its full height only once its details are laid out: measured again over the
       next frames (review 31-n #6) */
    function step() {
      var seen = span();
      var dy = shift("top", "bottom", seen.box, seen.at);
      if (Math.abs(dy) > 1) window.scrollBy(0, dy);
      if (--frames > 0) window.requestAnimationFrame(step);
    }
    step();
  };

  DevMap.prototype.clear = function () {
    var self = this;
    this.selected = null;
    Object.keys(this.chips).forEach(function (key) {
      var chip = self.chips[key];
      chip.setAttribute("aria-pressed", "false");
      chip.classList.remove("is-selected", "is-before", "is-after");
    });
    this.edges.forEach(function (edge) {
      edge.path.setAttribute("class", "devmap-edge");
      edge.path.setAttribute("marker-end", "url(#" + self.prefix + "-head-base)");
    });
    this.root.classList.remove("has-selection");
    this.root.removeAttribute("data-carry");
    while (this.panel.firstChild) this.panel.removeChild(this.panel.firstChild);
    this.panel.appendChild(el("p", "devmap-panel-empty", this.t("empty")));
  };

  DevMap.prototype.jumpList = function (ids) {
    var self = this;
    var list = el("ul", "devmap-jumps");
    ids.forEach(function (other) {
      var target = self.nodes[other];
      if (!target) return;
      var item = el("li");
      var button = el("button", "devmap-jump", target.title);
      button.type = "button";
      button.setAttribute("data-node", other);
      var when = el("span", "devmap-jump-year", " " + target.year);
      button.appendChild(when);
      item.appendChild(button);
      list.appendChild(item);
    });
    return list;
  };

  DevMap.prototype.fill = function (node) {
    var panel = this.panel;
    while (panel.firstChild) panel.removeChild(panel.firstChild);
    /* a way out of the details that a phone can tap (review 31-q #1: only Escape closed them, and
       the sheet stayed over the map): clears the selection, the node keeps the focus */
    var close = el("button", "devmap-panel-close", "\u00d7");
    close.type = "button";
    close.setAttribute("aria-label", this.t("close"));
    close.title = this.t("close");
    panel.appendChild(close);
    var route = null;
    this.routes.forEach(function (r) { if (r.id === node.route) route = r; });
    panel.appendChild(el("p", "devmap-panel-kicker", node.year + " · " + (route ? route.title : node.route)));
    var title = el("p", "devmap-panel-title", node.title);
    title.setAttribute("data-field", "title");
    panel.appendChild(title);
    var facts = el("dl", "devmap-panel-facts");
    function row(label, name, content) {
      var dt = el("dt", null, label);
      var dd = el("dd");
      dd.setAttribute("data-field", name);
      if (typeof content === "string") dd.textContent = content;
      else dd.appendChild(content);
      facts.appendChild(dt);
      facts.appendChild(dd);
    }
    row(this.t("year"), "year", node.year);
    row(this.t("solved"), "solved", this.copyOf(node, "solved"));
    row(this.t("left"), "left", this.copyOf(node, "left"));
    row(this.t("after"), "after", node.after.length ? this.jumpList(node.after) : this.t("none"));
    if (node.later.length) row(this.t("later"), "later", this.jumpList(node.later));
    row(this.t("cites"), "cites", this.copyOf(node, "cites"));
    panel.appendChild(facts);
  };

  /* A field of the node's list entry, copied for the panel with its links (the citations, the
     glossary terms of its text, whose cards cards.js shows) and without its ids. */
  DevMap.prototype.copyOf = function (node, name) {
    var copy = this.field(node, name).cloneNode(true);
    Array.prototype.forEach.call(copy.querySelectorAll("[id]"), function (x) { x.removeAttribute("id"); });
    var holder = document.createDocumentFragment();
    while (copy.firstChild) holder.appendChild(copy.firstChild);
    return holder;
  };

  /* ---------- views ---------- */

  DevMap.prototype.showMap = function (on) {
    this.mapBox.hidden = !on;
    this.panel.hidden = !on;
    this.list.hidden = on;
    this.root.classList.toggle("is-list-view", !on);
    this.mapButton.setAttribute("aria-pressed", on ? "true" : "false");
    this.listButton.setAttribute("aria-pressed", on ? "false" : "true");
    if (on) this.schedule();
  };

  /* ---------- keyboard: roving focus between nodes ---------- */

  DevMap.prototype.neighbour = function (chip, key) {
    var node = this.nodes[chip.getAttribute("data-node")];
    var lane = this.lanes[node.lane];
    var at = lane.indexOf(chip);
    if (key === "ArrowRight") return lane[Math.min(lane.length - 1, at + 1)];
    if (key === "ArrowLeft") return lane[Math.max(0, at - 1)];
    if (key === "Home") return lane[0];
    if (key === "End") return lane[lane.length - 1];
    var step = key === "ArrowDown" ? 1 : -1;
    var from = chip.getBoundingClientRect();
    var cx = (from.left + from.right) / 2, cy = (from.top + from.bottom) / 2;
    for (var l = node.lane + step; l >= 0 && l < this.lanes.length; l += step) {
      var best = null, score = Infinity;
      this.lanes[l].forEach(function (other) {
        var r = other.getBoundingClientRect();
        var s = Math.abs((r.left + r.right) / 2 - cx) * 4 + Math.abs((r.top + r.bottom) / 2 - cy);
        if (s < score) { score = s; best = other; }
      });
      if (best) return best;
    }
    return chip;
  };

  DevMap.prototype.bind = function () {
    var self = this;
    this.mapButton.addEventListener("click", function () { self.showMap(true); });
    this.listButton.addEventListener("click", function () { self.showMap(false); });
    this.canvas.addEventListener("click", function (event) {
      var chip = event.target.closest && event.target.closest(".devmap-chip");
      if (chip) self.select(chip.getAttribute("data-node"), { remember: true });
    });
    this.canvas.addEventListener("keydown", function (event) {
      var chip = event.target.closest && event.target.closest(".devmap-chip");
      if (!chip) return;
      var keys = ["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown", "Home", "End"];
      if (event.key === "Escape") {
        self.clear();
        return;
      }
      if (keys.indexOf(event.key) < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      var next = self.neighbour(chip, event.key);
      if (next && next !== chip) {
        chip.tabIndex = -1;
        next.tabIndex = 0;
        next.focus();
      }
    });
    this.panel.addEventListener("click", function (event) {
      if (event.target.closest && event.target.closest(".devmap-panel-close")) {
        var chip = self.selected && self.chips[self.selected];
        self.clear();
        if (chip) chip.focus();
        return;
      }
      var jump = event.target.closest && event.target.closest(".devmap-jump");
      if (jump) self.select(jump.getAttribute("data-node"), { focus: true, remember: true });
    });
    /* links to #map-<id> anywhere on the page select that node while the map is shown */
    document.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("a[href^='#map-']");
      if (!link || self.mapBox.hidden) return;
      var id = link.getAttribute("href").slice(5);
      if (!self.nodes[id]) return;
      event.preventDefault();
      self.select(id, { focus: true, remember: true });
    });
    window.addEventListener("hashchange", function () { self.fromHash(true); });
    window.addEventListener("resize", function () { self.layoutColumns(); self.schedule(); });
    var edging = false;
    this.scroll.addEventListener("scroll", function () {
      if (edging) return;
      edging = true;
      window.requestAnimationFrame(function () { edging = false; self.markEdges(self.measureEdges()); });
    }, { passive: true });
    if ("ResizeObserver" in window) {
      new window.ResizeObserver(function () { self.schedule(); }).observe(this.canvas);
    }
    /* No redraw on document.fonts.ready: the site loads no web fonts, so nothing reflows when they
       arrive, and asking for that promise makes the browser lay the whole page out at once. */
    this.fromHash(false);
  };

  DevMap.prototype.fromHash = function (focus) {
    var hash = window.location.hash;
    if (hash.indexOf("#map-") !== 0) return;
    var id = decodeURIComponent(hash.slice(5));
    if (!this.nodes[id]) return;
    if (this.mapBox.hidden) {
      var details = this.nodes[id].li.querySelector("details");
      if (details) details.open = true;
      return;
    }
    this.select(id, { focus: focus });
    this.opening = false; /* the address's node is shown, not the busiest years */
    if (!focus) this.chips[id].scrollIntoView({ block: "center", inline: "center" });
  };

  /* site.js loads this file when the reader first comes near a map, after the page has loaded */
  function buildMaps() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-devmap]"), function (root, index) {
      if (!root.querySelector("[data-devmap-list] li[data-node]")) return;
      /* built when the reader comes within half a screen of it (its hundred nodes and their arrows
         are laid out only then); until then the readable list stands in its place */
      window.atlasWhenNear(root, "50% 0px", function () { new DevMap(root, index); });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", buildMaps);
  else buildMaps();
})();
