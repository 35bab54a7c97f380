/*
 * Lab A · Memory & KV — UI wiring. Browser only; needs shared/format.js,
 * shared/bind.js, shared/chart.js and memory/model.js loaded first. Numbers come
 * from AtlasLabs.memory.evaluate; this file draws memory needed against context
 * length (log scale) at the reader's concurrency, with the HBM capacity line.
 */
(function (root) {
  'use strict';
  const A = root.AtlasLabs;
  const C = A.chart;
  const uses_latent = function (p) { return p.attention === 'mla' || p.attention === 'kda_hybrid'; };
  const SAMPLES = 48;

  function tokens_label(t) {
    if (t >= 1048576) return A.format.format_number(t / 1048576, 0) + 'M';
    if (t >= 1024) return A.format.format_number(t / 1024, 0) + 'K';
    return String(t);
  }

  function draw_memory(panel, out, p) {
    const box = panel.querySelector('[data-lab-chart="hbm"]');
    const f = box && C.frame(box, 210, { top: 24, right: 12, bottom: 44, left: 48 });
    if (!f) return;
    const words = C.labels(box);
    // Context axis: powers of two from at most 1K to at least 1M, always holding the current T.
    const t_lo = Math.pow(2, Math.min(10, Math.floor(Math.log2(p.context_len))));
    const t_hi = Math.pow(2, Math.max(20, Math.ceil(Math.log2(p.context_len))));
    const points = [];
    for (let i = 0; i <= SAMPLES; i++) {
      const t = Math.round(t_lo * Math.pow(t_hi / t_lo, i / SAMPLES));
      points.push([t, A.memory.evaluate(Object.assign({}, p, { context_len: t })).needed_gib]);
    }
    const y_top = Math.max(p.hbm_gib * 1.3, out.needed_gib * 1.1, out.weight_gib * 1.2);
    const x = C.log(t_lo, t_hi, f.x0, f.x1);
    const y = C.linear(0, y_top, f.y0, f.y1);
    const span = Math.round(Math.log2(t_hi / t_lo));
    const room = Math.max(2, Math.floor((f.x1 - f.x0) / 56)); // labels that fit side by side
    let every = 1;
    while (span / every + 1 > room || span % every) every += 1;
    const ticks_x = [];
    for (let k = 0; k <= span; k += every) ticks_x.push(t_lo * Math.pow(2, k));
    C.axis_y(f, y, C.nice_ticks(0, y_top, 4), function (v) { return A.format.format_number(v, 0); }, words.y);
    C.axis_x(f, x, ticks_x, tokens_label, words.x);
    const clip = 'lab-memory-clip-' + (panel.id || 'a');
    const clip_path = A.svg('clipPath', { id: clip }, A.svg('defs', {}, f.svg));
    A.svg('rect', { x: f.x0, y: f.y1, width: f.x1 - f.x0, height: f.y0 - f.y1 }, clip_path);
    const weights_top = y(Math.min(out.weight_gib, y_top));
    A.svg('rect', { x: f.x0, y: weights_top, width: f.x1 - f.x0, height: f.y0 - weights_top, class: 'lab-area-resource' }, f.svg);
    const line = points.map(function (pt, i) { return (i ? 'L' : 'M') + x(pt[0]).toFixed(1) + ' ' + y(pt[1]).toFixed(1); }).join(' ');
    A.svg('path', { d: line, class: 'lab-line-state', 'clip-path': 'url(#' + clip + ')' }, f.svg);
    // where the line leaves the top of the chart an arrow says it rises on (review 31-j: clipped at
    // the ceiling, the curve seemed to stop there)
    const out_at = points.findIndex(function (pt) { return pt[1] > y_top; });
    if (out_at > 0 && words.above) {
      // the drawn segment crosses the top between two samples: the arrow stands where it does
      const a = points[out_at - 1], b = points[out_at];
      const ex = x(a[0]) + (x(b[0]) - x(a[0])) * (y_top - a[1]) / (b[1] - a[1]);
      const tip = f.y1 - 12; // in the margin above the plot: the line, steep there, goes on up to an arrowhead
      const at = ex.toFixed(1);
      A.svg('path', { d: 'M' + at + ' ' + f.y1 + ' L' + at + ' ' + tip + ' M' + (ex - 4).toFixed(1) + ' ' + (tip + 5) + ' L' + at + ' ' + tip + ' L' + (ex + 4).toFixed(1) + ' ' + (tip + 5), class: 'lab-line-state' }, f.svg);
      const width = C.text_width(f, [words.above]);
      C.text(f.svg, ex + 8 + width > f.x1 ? ex - 8 - width : ex + 8, tip + 9, words.above);
    }
    A.svg('line', { x1: f.x0, x2: f.x1, y1: y(p.hbm_gib), y2: y(p.hbm_gib), class: 'lab-mark-limit' }, f.svg);
    // labelled at the left, where the line of a model that fits runs below it
    C.text(f.svg, f.x0 + 6, y(p.hbm_gib) - 5, words.hbm + ' ' + A.format.format_plain(p.hbm_gib) + ' GiB');
    const cx = x(p.context_len);
    const cy = y(Math.min(out.needed_gib, y_top));
    A.svg('line', { x1: cx, x2: cx, y1: f.y0, y2: cy, class: 'lab-guide' }, f.svg);
    A.svg('circle', { cx: cx, cy: cy, r: 5, class: out.status === 'FIT' ? 'lab-dot-ok' : 'lab-dot-warn' }, f.svg);
  }

  A.bind_lab('memory', {
    compute: function (p) { return A.memory.evaluate(p); },
    announce: ['status'],
    relevant: {
      kv_heads: function (p) { return p.attention === 'gqa'; },
      mla_latent_ratio: uses_latent,
      kda_share: function (p) { return p.attention === 'kda_hybrid'; },
      kda_state_kib: function (p) { return p.attention === 'kda_hybrid'; },
    },
    render: draw_memory,
  });
})(typeof globalThis !== 'undefined' ? globalThis : this);
