/*
 * Lab C · Speculative — UI wiring. Browser only; needs shared/format.js,
 * shared/bind.js, shared/chart.js and speculative/model.js loaded first. Numbers
 * come from AtlasLabs.speculative.evaluate; this file draws the k = 1..16 scan
 * against the 1× line.
 */
(function (root) {
  'use strict';
  const A = root.AtlasLabs;
  const C = A.chart;

  function draw_scan(panel, out, p) {
    const box = panel.querySelector('[data-lab-chart="k-scan"]');
    const f = box && C.frame(box, 190, { top: 26, right: 8, bottom: 44, left: 40 });
    if (!f) return;
    const words = C.labels(box);
    const s = out.speedups;
    const top = Math.max(1.2, Math.max.apply(null, s)) * 1.45; // room above the bars for their names
    const y = C.linear(0, top, f.y0, f.y1);
    const bar = (f.x1 - f.x0) / s.length;
    C.axis_y(f, y, C.nice_ticks(0, top, 4), function (v) { return A.format.format_plain(v); }, words.y);
    const ks = [];
    for (let k = 1; k <= s.length; k++) if (f.width >= 420 || k === 1 || k % 4 === 0) ks.push(k);
    C.axis_x(f, function (k) { return f.x0 + (k - 0.5) * bar; }, ks, String, words.x);
    s.forEach(function (v, i) {
      const k = i + 1;
      let cls = v > 1 ? 'lab-seg-slo' : 'lab-seg-warn';
      if (k === out.best_k) cls += ' lab-seg-best';
      if (k === p.k) cls += ' lab-seg-current';
      A.svg('rect', { x: f.x0 + i * bar + 1.5, y: y(v), width: Math.max(1, bar - 3), height: Math.max(0, y(0) - y(v)), class: cls }, f.svg);
    });
    A.svg('line', { x1: f.x0, x2: f.x1, y1: y(1), y2: y(1), class: 'lab-mark-limit' }, f.svg);
    /* the best and the current bar are named on the chart, not only by an outline and a lighter
       fill (too close to the other bars in the dark scheme): "Best k = 3" (the words of the best-k
       output's label) and "k = 4", each above its bar; side by side, each leans away from the other */
    const best_label = panel.querySelector('[data-output="best_k"]');
    const best_words = best_label ? label_words(best_label) : 'k';
    const marks = [[out.best_k, best_words + ' = ' + out.best_k, 'lab-chart-mark lab-chart-mark-best']];
    if (p.k !== out.best_k && p.k >= 1 && p.k <= s.length) marks.push([p.k, 'k = ' + p.k, 'lab-chart-mark lab-chart-mark-current']);
    const placed = [];
    marks.forEach(function (mark, i) {
      const k = mark[0];
      const other = marks[1 - i];
      const centre = f.x0 + (k - 0.5) * bar;
      const w = C.text_width(f, [mark[1]], 'lab-chart-mark');
      /* leaning away from the other label, kept inside the chart */
      let left = !other ? centre - w / 2 : other[0] > k ? centre + bar / 2 - w : centre - bar / 2;
      left = Math.max(f.x0 + 2, Math.min(f.width - w - 2, left));
      let base = y(s[k - 1]) - 5;
      /* a label whose text would cross the dashed 1× line (a best k of 1, its bar near 1×) sits
         wholly above it: the line struck through "最优 k = 1" */
      if (base + 4 > y(1) && base - 14 < y(1)) base = y(1) - 6;
      const below = placed[0];
      if (below && left < below.left + below.w + 6 && below.left < left + w + 6) base = Math.min(base, below.base - 19);
      placed.push({ left: left, w: w, base: base });
      C.text(f.svg, left, base, mark[1], mark[2]);
    });
  }

  /** An output's label without its bracketed note: "Best k (scan 1–16)" -> "Best k". */
  function label_words(output) {
    const box = output.closest('.lab-out');
    const label = box && box.querySelector('.lab-out-label');
    return label ? label.textContent.split(/[(（]/)[0].trim() : 'k';
  }

  A.bind_lab('speculative', {
    compute: function (p) { return A.speculative.evaluate(p); },
    announce: ['no_gain'],
    render: draw_scan,
  });
})(typeof globalThis !== 'undefined' ? globalThis : this);
