/*
 * Lab C · Speculative — UI wiring. Browser only; needs shared/format.js,
 * shared/bind.js and speculative/model.js loaded first. Numbers come from
 * AtlasLabs.speculative.evaluate; this file draws the k = 1..16 scan and
 * flags NO GAIN on the panel.
 */
(function (root) {
  'use strict';
  const A = root.AtlasLabs;
  const WIDTH = 320;
  const HEIGHT = 90;

  function draw_scan(panel, out, p) {
    const box = panel.querySelector('[data-lab-chart="k-scan"]');
    if (!box) return;
    A.clear(box);
    const s = out.speedups;
    const top = Math.max(1.2, Math.max.apply(null, s)) * 1.1;
    const bar = WIDTH / s.length;
    const y = function (v) { return HEIGHT - 14 - v / top * (HEIGHT - 18); };
    const svg = A.svg('svg', { viewBox: '0 0 ' + WIDTH + ' ' + HEIGHT, class: 'lab-chart-svg', 'aria-hidden': 'true', focusable: 'false' }, box);
    s.forEach(function (v, i) {
      const k = i + 1;
      let cls = v > 1 ? 'lab-seg-slo' : 'lab-seg-warn';
      if (k === out.best_k) cls += ' lab-seg-best';
      if (k === p.k) cls += ' lab-seg-current';
      A.svg('rect', { x: i * bar + 2, y: y(v), width: bar - 4, height: Math.max(0, y(0) - y(v)), class: cls }, svg);
      const t = A.svg('text', { x: i * bar + bar / 2, y: HEIGHT - 2, class: 'lab-chart-text lab-chart-mid' }, svg);
      t.textContent = String(k);
    });
    A.svg('line', { x1: 0, x2: WIDTH, y1: y(1), y2: y(1), class: 'lab-mark-limit' }, svg);
  }

  A.bind_lab('speculative', {
    compute: function (p) { return A.speculative.evaluate(p); },
    announce: ['no_gain'],
    render: function (panel, out, p) {
      panel.setAttribute('data-no-gain', out.no_gain ? 'true' : 'false');
      draw_scan(panel, out, p);
    },
  });
})(typeof globalThis !== 'undefined' ? globalThis : this);
