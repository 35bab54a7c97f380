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

  /**
   * Clear `box` and draw an empty SVG as wide as the box; the plot area is the
   * frame minus `margin` {top, right, bottom, left}. Null while the box is hidden
   * (a tab not selected): bind.js redraws when it gets a width.
   */
  function frame(box, height, margin) {
    A.clear(box);
    const width = Math.floor(box.clientWidth);
    if (!width) return null;
    const svg = A.svg('svg', {
      viewBox: '0 0 ' + width + ' ' + height, width: width, height: height,
      class: 'lab-chart-svg', 'aria-hidden': 'true', focusable: 'false',
    }, box);
    return {
      svg: svg, width: width, height: height,
      x0: margin.left, x1: width - margin.right, y0: height - margin.bottom, y1: margin.top,
    };
  }

  function labels(box) {
    return JSON.parse(box.getAttribute('data-labels') || '{}');
  }

  function text(parent, x, y, content, cls) {
    const el = A.svg('text', { x: x, y: y, class: 'lab-chart-text' + (cls ? ' ' + cls : '') }, parent);
    el.textContent = content;
    return el;
  }

  /** Widest of `contents` as chart text, in px: for a label column that fits its labels. */
  function text_width(f, contents, cls) {
    let widest = 0;
    for (const content of contents) {
      const el = text(f.svg, 0, 0, content, cls);
      widest = Math.max(widest, el.getComputedTextLength());
      f.svg.removeChild(el);
    }
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
    frame: frame, labels: labels, text: text, text_width: text_width, linear: linear, log: log,
    nice_ticks: nice_ticks, axis_x: axis_x, axis_y: axis_y,
  };
})(typeof globalThis !== 'undefined' ? globalThis : this);
