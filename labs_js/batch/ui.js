/*
 * Lab B · Batch & Phase — UI wiring. Browser only; needs shared/format.js,
 * shared/bind.js and batch/model.js loaded first. Numbers come from
 * AtlasLabs.batch.simulate; this file draws the timeline of the first
 * requests: queue wait, prefill, KV hand-off (PD) and decode.
 */
(function (root) {
  'use strict';
  const A = root.AtlasLabs;
  const WIDTH = 600;
  const LABEL = 44;
  const ROW = 22;

  function segment(svg, x0, x1, y, cls) {
    if (!(x1 > x0)) return;
    A.svg('rect', { x: x0, y: y + 4, width: Math.max(1, x1 - x0), height: ROW - 8, class: cls }, svg);
  }

  function draw_timeline(panel, out) {
    const box = panel.querySelector('[data-lab-chart="timeline"]');
    if (!box) return;
    A.clear(box);
    const rows = out.timeline;
    const t_max = Math.max.apply(null, rows.map(function (r) { return r.done_ms; })) || 1;
    const height = rows.length * ROW + 18;
    const svg = A.svg('svg', { viewBox: '0 0 ' + WIDTH + ' ' + height, class: 'lab-chart-svg lab-chart-wide', 'aria-hidden': 'true', focusable: 'false' }, box);
    const x = function (ms) { return LABEL + ms / t_max * (WIDTH - LABEL - 4); };
    rows.forEach(function (r, k) {
      const y = k * ROW;
      const label = A.svg('text', { x: 0, y: y + ROW - 7, class: 'lab-chart-text' }, svg);
      label.textContent = '#' + r.id + (r.long ? ' L' : '');
      segment(svg, x(r.arrive_ms), x(r.start_ms), y, 'lab-seg-queue');
      segment(svg, x(r.start_ms), x(r.first_ms), y, 'lab-seg-resource');
      segment(svg, x(r.first_ms), x(r.ready_ms), y, 'lab-seg-cluster');
      segment(svg, x(r.ready_ms), x(r.done_ms), y, 'lab-seg-state');
    });
    const axis_y = rows.length * ROW + 14;
    const zero = A.svg('text', { x: LABEL, y: axis_y, class: 'lab-chart-text' }, svg);
    zero.textContent = '0';
    const end = A.svg('text', { x: WIDTH - 4, y: axis_y, class: 'lab-chart-text lab-chart-end' }, svg);
    end.textContent = A.format.format_number(t_max, 0) + ' ms';
  }

  A.bind_lab('batch', {
    compute: function (p) { return A.batch.simulate(p); },
    announce: ['bottleneck'],
    relevant: {
      chunk_size: function (p) { return p.strategy === 'chunked'; },
      kv_link_gbps: function (p) { return p.strategy === 'pd'; },
      kv_kib_per_token: function (p) { return p.strategy === 'pd'; },
    },
    render: function (panel, out) {
      panel.setAttribute('data-bottleneck', out.bottleneck);
      draw_timeline(panel, out);
    },
  });
})(typeof globalThis !== 'undefined' ? globalThis : this);
