/*
 * Lab A · Memory & KV — UI wiring. Browser only; needs shared/format.js,
 * shared/bind.js and memory/model.js loaded first. Pure numbers come from
 * AtlasLabs.memory.evaluate; this file only adds the HBM bar.
 */
(function (root) {
  'use strict';
  const A = root.AtlasLabs;
  const uses_latent = function (p) { return p.attention === 'mla' || p.attention === 'kda_hybrid'; };

  /** One stacked bar: weights | KV needed | free (or overflow past the HBM mark). */
  function draw_bar(panel, out, p) {
    const box = panel.querySelector('[data-lab-chart="hbm"]');
    if (!box) return;
    A.clear(box);
    const total = Math.max(out.needed_gib, p.hbm_gib);
    const width = 300;
    const scale = function (gib) { return gib / total * width; };
    const svg = A.svg('svg', { viewBox: '-2 0 ' + (width + 4) + ' 28', class: 'lab-chart-svg', 'aria-hidden': 'true', focusable: 'false' }, box);
    const weights = Math.min(out.weight_gib, total);
    A.svg('rect', { x: 0, y: 4, width: scale(weights), height: 16, class: 'lab-seg-resource' }, svg);
    A.svg('rect', { x: scale(weights), y: 4, width: Math.max(0, scale(out.needed_gib - weights)), height: 16, class: 'lab-seg-state' }, svg);
    A.svg('line', { x1: scale(p.hbm_gib), x2: scale(p.hbm_gib), y1: 0, y2: 28, class: 'lab-mark-limit' }, svg);
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
    render: function (panel, out, p) {
      panel.setAttribute('data-status', out.status);
      draw_bar(panel, out, p);
    },
  });
})(typeof globalThis !== 'undefined' ? globalThis : this);
