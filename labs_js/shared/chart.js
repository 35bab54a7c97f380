/*
 * chart — what the labs' small SVG charts share: a frame drawn at the box's real
 * width (one SVG unit is one CSS pixel, so chart text keeps its 13 px CSS size on a
 * phone and nothing scrolls sideways), linear and log scales, "nice" ticks, axes with
 * a title. Classic script, browser only; needs shared/bind.js (AtlasLabs.svg/clear).
 * Localised words come from the box's data-labels (JSON), rendered from ledger/labs.md.
 */
(function (root) {
  'use strict';
  const A = root.AtlasLabs = root.AtlasLabs || {};
  const TICK = 4;

  /* What the charts know of their boxes, without asking the layout: the width and font family the
     one ResizeObserver below reported (its callback runs once the browser has laid the page out, so
     nothing a chart draws ever forces a layout, on the first load or on an input). */
  const seen = new WeakMap(); // box -> {width, family}
  const wanted = new Map(); // box -> redraw()
  let observer = null;

  /**
   * Call `redraw` whenever `box` gets a new width (first when it is laid out; again when a tab
   * shows it or the window turns). One observer for every chart of the page: its callback reads
   * every size and font first and only then draws, so no chart's drawing dirties what another reads.
   */
  function watch(box, redraw) {
    if (typeof ResizeObserver !== 'function') return;
    if (!observer) {
      observer = new ResizeObserver(function (entries) {
        const due = [];
        for (const entry of entries) {
          const before = seen.get(entry.target);
          const width = Math.floor(entry.contentRect.width);
          if (before && before.width === width) continue;
          seen.set(entry.target, { width: width, family: root.getComputedStyle(entry.target).fontFamily });
          const again = wanted.get(entry.target);
          if (again && due.indexOf(again) < 0) due.push(again);
        }
        for (const again of due) again();
      });
    }
    wanted.set(box, redraw);
    observer.observe(box);
  }

  /**
   * Clear `box` and draw an empty SVG as wide as the box; the plot area is the
   * frame minus `margin` {top, right, bottom, left}. Null until the observer has
   * seen the box laid out, and while it is hidden (a tab not selected, an invalid
   * input): watch() redraws it when it gets a width.
   */
  function frame(box, height, margin) {
    A.clear(box);
    const known = seen.get(box);
    const width = known ? known.width : 0;
    if (!width) return null;
    const svg = A.svg('svg', {
      viewBox: '0 0 ' + width + ' ' + height, width: width, height: height,
      class: 'lab-chart-svg', 'aria-hidden': 'true', focusable: 'false',
    }, box);
    return {
      svg: svg, width: width, height: height, family: known.family,
      x0: margin.left, x1: width - margin.right, y0: height - margin.bottom, y1: margin.top,
    };
  }

  function labels(box) {
    return JSON.parse(box.getAttribute('data-labels') || '{}');
  }

  function text(parent, x, y, content, cls) {
    const el = A.svg('text', { x: x, y: y, class: 'lab-chart-text' + (cls ? ' ' + cls : '') }, parent);
    /* a symbol's subscript set lower and smaller, as in the lab's form (shared/bind.js) */
    for (const [words, script] of A.script_pieces(String(content))) {
      if (words) el.appendChild(document.createTextNode(words));
      if (script) A.svg('tspan', { 'baseline-shift': 'sub', 'font-size': '75%' }, el).textContent = script;
    }
    return el;
  }

  /* labs.css: .lab-chart-text is 13 px in the page's family; .lab-chart-strong and .lab-chart-mark
     are 600 */
  const TEXT_PX = 13;
  const BOLD = ['lab-chart-strong', 'lab-chart-mark'];
  let pen = null;

  /** Widest of `contents` as chart text of class `cls`, in px: for a label column that fits its
   *  labels. Measured on a canvas in the chart's font: a text element in the page would have to be
   *  laid out to be measured. */
  function text_width(f, contents, cls) {
    pen = pen || root.document.createElement('canvas').getContext('2d');
    const bold = (cls || '').split(' ').some(function (c) { return BOLD.indexOf(c) >= 0; });
    pen.font = (bold ? '600 ' : '400 ') + TEXT_PX + 'px ' + (f.family || 'sans-serif');
    let widest = 0;
    for (const content of contents) widest = Math.max(widest, pen.measureText(content).width);
    return widest;
  }

  function linear(d0, d1, r0, r1) {
    const span = d1 - d0 || 1;
    return function (v) { return r0 + (v - d0) / span * (r1 - r0); };
  }

  function log(d0, d1, r0, r1) {
    const l0 = Math.log(d0);
    const span = Math.log(d1) - l0 || 1;
    return function (v) { return r0 + (Math.log(v) - l0) / span * (r1 - r0); };
  }

  /** About `count` ticks from 0 (or lo) to hi at steps of 1, 2 or 5 × 10^k. */
  function nice_ticks(lo, hi, count) {
    const raw = (hi - lo) / Math.max(1, count);
    const power = Math.pow(10, Math.floor(Math.log10(raw || 1)));
    const step = [1, 2, 5, 10].map(function (m) { return m * power; }).filter(function (s) { return s >= raw; })[0];
    const ticks = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Math.round(v / step) * step);
    return ticks;
  }

  /** Horizontal axis at y = f.y0: tick marks, tick labels and a title under them. */
  function axis_x(f, scale, ticks, format, title) {
    A.svg('line', { x1: f.x0, x2: f.x1, y1: f.y0, y2: f.y0, class: 'lab-axis' }, f.svg);
    for (const v of ticks) {
      const x = scale(v);
      A.svg('line', { x1: x, x2: x, y1: f.y0, y2: f.y0 + TICK, class: 'lab-axis' }, f.svg);
      text(f.svg, x, f.y0 + TICK + 13, format(v), 'lab-chart-mid');
    }
    if (title) text(f.svg, (f.x0 + f.x1) / 2, f.height - 4, title, 'lab-chart-mid');
  }

  /** Vertical axis at x = f.x0 with light grid lines; the title sits above the axis. */
  function axis_y(f, scale, ticks, format, title) {
    A.svg('line', { x1: f.x0, x2: f.x0, y1: f.y0, y2: f.y1, class: 'lab-axis' }, f.svg);
    for (const v of ticks) {
      const y = scale(v);
      A.svg('line', { x1: f.x0, x2: f.x1, y1: y, y2: y, class: 'lab-grid' }, f.svg);
      text(f.svg, f.x0 - TICK - 2, y + 4, format(v), 'lab-chart-end');
    }
    if (title) text(f.svg, 0, f.y1 - 8, title);
  }

  A.chart = {
    frame: frame, watch: watch, labels: labels, text: text, text_width: text_width, linear: linear, log: log,
    nice_ticks: nice_ticks, axis_x: axis_x, axis_y: axis_y,
  };
})(typeof globalThis !== 'undefined' ? globalThis : this);
