/*
 * Lab B · Batch & Phase — UI wiring. Browser only; needs shared/format.js,
 * shared/bind.js, shared/chart.js and batch/model.js loaded first. Numbers come
 * from AtlasLabs.batch.simulate; this file draws the timeline of the requests the
 * model picks (around the first long prompt): queue wait, prefill, KV hand-off (PD)
 * and decode, on a time axis in ms or s.
 */
(function (root) {
  'use strict';
  const A = root.AtlasLabs;
  const C = A.chart;
  const ROW = 24;

  function segment(f, x0, x1, y, cls) {
    if (!(x1 > x0)) return;
    A.svg('rect', { x: x0, y: y + 5, width: Math.max(1.5, x1 - x0), height: ROW - 10, class: cls }, f.svg);
  }

  function draw_timeline(panel, out) {
    const box = panel.querySelector('[data-lab-chart="timeline"]');
    const rows = out.timeline;
    const f = box && C.frame(box, rows.length * ROW + 52, { top: 4, right: 14, bottom: 48, left: 48 });
    if (!f) return;
    const words = C.labels(box);
    const units = JSON.parse(panel.getAttribute('data-units') || '{}');
    const t_max = Math.max.apply(null, rows.map(function (r) { return r.done_ms; })) || 1;
    const in_s = t_max >= 2000;
    const x = C.linear(0, t_max, f.x0, f.x1);
    const ticks = C.nice_ticks(0, in_s ? t_max / 1000 : t_max, f.width < 420 ? 4 : 6).map(function (v) { return in_s ? v * 1000 : v; });
    C.axis_x(f, x, ticks, function (ms) { return A.format.format_plain(in_s ? ms / 1000 : ms); },
      words.x.replace('{unit}', in_s ? units.s : units.ms));
    rows.forEach(function (r, k) {
      const y = f.y1 + k * ROW;
      C.text(f.svg, 0, y + ROW - 7, '#' + r.id + (r.long ? ' ' + words.long : ''), r.long ? 'lab-chart-strong' : '');
      segment(f, x(r.arrive_ms), x(r.start_ms), y, 'lab-seg-queue');
      segment(f, x(r.start_ms), x(r.first_ms), y, 'lab-seg-resource');
      segment(f, x(r.first_ms), x(r.ready_ms), y, 'lab-seg-cluster');
      segment(f, x(r.ready_ms), x(r.done_ms), y, 'lab-seg-state');
    });
  }

  A.bind_lab('batch', {
    compute: function (p) { return A.batch.simulate(p); },
    announce: ['bottleneck'],
    relevant: {
      chunk_size: function (p) { return p.strategy === 'chunked'; },
      kv_link_gbps: function (p) { return p.strategy === 'pd'; },
      kv_kib_per_token: function (p) { return p.strategy === 'pd'; },
    },
    render: draw_timeline,
  });
})(typeof globalThis !== 'undefined' ? globalThis : this);
