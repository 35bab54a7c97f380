/*
 * Lab D · Cache & Fleet — UI wiring. Browser only; needs shared/format.js,
 * shared/bind.js, shared/chart.js and fleet/model.js loaded first. AtlasLabs.fleet.lab
 * gives the fleet policy model, the K3-style hit boundary and the radix-tree prefix
 * state of seed 004's three-request example in one object; this file draws the load
 * of every cluster (× mean), with what failover moves onto the survivors.
 */
(function (root) {
  'use strict';
  const A = root.AtlasLabs;
  const C = A.chart;

  function draw_loads(panel, out) {
    const box = panel.querySelector('[data-lab-chart="clusters"]');
    const f = box && C.frame(box, 190, { top: 26, right: 8, bottom: 44, left: 40 });
    if (!f) return;
    const words = C.labels(box);
    const loads = out.cluster_loads;
    const top = Math.max(2, Math.max.apply(null, loads.map(function (c) { return c.load + c.extra; }))) * 1.1;
    const y = C.linear(0, top, f.y0, f.y1);
    const bar = (f.x1 - f.x0) / loads.length;
    const label_every = Math.ceil(loads.length / Math.max(1, Math.floor((f.x1 - f.x0) / 28)));
    C.axis_y(f, y, C.nice_ticks(0, top, 4), function (v) { return A.format.format_plain(v) + '×'; }, words.y);
    const shown = [];
    for (let i = 1; i <= loads.length; i++) if (i === 1 || i % label_every === 0) shown.push(i);
    C.axis_x(f, function (i) { return f.x0 + (i - 0.5) * bar; }, shown, String, words.x);
    loads.forEach(function (c, i) {
      const x = f.x0 + i * bar + Math.min(3, bar * 0.15);
      const w = Math.max(1, bar - 2 * Math.min(3, bar * 0.15));
      if (c.failed) {
        A.svg('rect', { x: x, y: y(1), width: w, height: y(0) - y(1), class: 'lab-seg-failed' }, f.svg);
        if (bar >= 28) C.text(f.svg, x + w / 2, y(1) - 4, words.failed, 'lab-chart-mid');
        return;
      }
      A.svg('rect', { x: x, y: y(c.load), width: w, height: y(0) - y(c.load), class: 'lab-seg-state' }, f.svg);
      if (c.extra > 0) A.svg('rect', { x: x, y: y(c.load + c.extra), width: w, height: y(c.load) - y(c.load + c.extra), class: 'lab-seg-cluster' }, f.svg);
    });
    A.svg('line', { x1: f.x0, x2: f.x1, y1: y(1), y2: y(1), class: 'lab-mark-limit' }, f.svg);
  }

  A.bind_lab('fleet', {
    compute: function (p) { return A.fleet.lab(p); },
    announce: ['recommendation'],
    relevant: {
      hot_share: function (p) { return p.routing === 'cache_affinity'; },
      /* one cluster has no other to fail over to (review 31-k #6) */
      secondary_failure: function (p) { return p.clusters >= 2; },
    },
    render: draw_loads,
  });
})(typeof globalThis !== 'undefined' ? globalThis : this);
