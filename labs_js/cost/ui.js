/*
 * Lab E · Cost & Bottleneck — UI wiring. Browser only; needs shared/format.js,
 * shared/bind.js, shared/chart.js, formulas/bottleneck.js and cost/model.js loaded
 * first. Numbers come from AtlasLabs.cost.lab; this file draws the parts of one step:
 * the three overlapping terms, the time that cannot overlap, and the bound they give.
 */
(function (root) {
  'use strict';
  const A = root.AtlasLabs;
  const C = A.chart;
  const ROW = 26;
  const TERMS = [['compute', 'lab-seg-resource'], ['memory', 'lab-seg-state'], ['network', 'lab-seg-cluster'], ['overhead', 'lab-seg-queue']];


  function draw_terms(panel, out) {
    const box = panel.querySelector('[data-lab-chart="step-terms"]');
    const f = box && C.frame(box, (TERMS.length + 1) * ROW + 8, { top: 4, right: 72, bottom: 4, left: 0 });
    if (!f) return;
    const words = C.labels(box);
    const units = JSON.parse(panel.getAttribute('data-units') || '{}');
    const ms_text = function (ms) { return A.format.format_number(ms, 1) + ' ' + units.ms; };
    f.x0 = Math.ceil(C.text_width(f, TERMS.map(function (term) { return words[term[0]]; }).concat([words.total]), 'lab-chart-strong')) + 12;
    const terms = out.step_terms_ms;
    const slowest = Math.max(terms.compute, terms.memory, terms.network);
    const x = C.linear(0, Math.max(out.step_lower_bound_ms, 1e-9), f.x0, f.x1);
    function row(k, label, parts, strong) {
      const y = f.y1 + k * ROW;
      C.text(f.svg, f.x0 - 8, y + ROW - 9, label, 'lab-chart-end' + (strong ? ' lab-chart-strong' : ''));
      let at = 0;
      for (const [ms, cls] of parts) {
        if (ms > 0) A.svg('rect', { x: x(at), y: y + 5, width: Math.max(1.5, x(at + ms) - x(at)), height: ROW - 10, class: cls }, f.svg);
        at += ms;
      }
      C.text(f.svg, x(at) + 6, y + ROW - 9, ms_text(at), strong ? 'lab-chart-strong' : '');
    }
    TERMS.forEach(function (term, k) {
      row(k, words[term[0]], [[terms[term[0]], term[1] + (term[0] === out.bottleneck ? ' lab-seg-best' : '')]], false);
    });
    const longest = TERMS.slice(0, 3).filter(function (term) { return terms[term[0]] === slowest; })[0];
    row(TERMS.length, words.total, [[slowest, longest[1]], [terms.overhead, 'lab-seg-queue']], true);
  }

  A.bind_lab('cost', {
    compute: function (p) { return A.cost.lab(p); },
    announce: ['bottleneck', 'opt_cost_per_million', 'task_cost_b', 'amdahl_speedup', 'routing_mean_cost'],
    render: draw_terms,
  });
})(typeof globalThis !== 'undefined' ? globalThis : this);
