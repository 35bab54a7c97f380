"""The figure layout check run by the browser gate: every figure text inside its box and the
figure, and no two texts overlapping (boxes from getBoundingClientRect, in user-unit tolerance)."""
from __future__ import annotations

TOLERANCE_UNITS = 1.0

_SCRIPT = r"""
(tolUnits) => {
  const out = [];
  const short = (el) => {
    const s = (el.textContent || '').replace(/\s+/g, ' ').trim();
    return s.length > 40 ? s.slice(0, 39) + '…' : s;
  };
  for (const svg of document.querySelectorAll('svg[data-figure]')) {
    const lang = svg.getAttribute('lang');
    const tag = 'fig-' + svg.dataset.figure + (lang ? ' (' + lang + ')' : '');
    const frame = svg.getBoundingClientRect();
    const vb = svg.viewBox && svg.viewBox.baseVal;
    const scale = vb && vb.width ? frame.width / vb.width : 1;
    const tol = tolUnits * scale;
    if (frame.width === 0 || frame.height === 0) {
      out.push(tag + ': figure is not displayed');
      continue;
    }
    const texts = [];
    for (const el of svg.querySelectorAll('text')) {
      if (!short(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      texts.push({el, r});
    }
    for (const {el, r} of texts) {
      // 1. inside the figure
      const over = [frame.left - r.left, r.right - frame.right,
                    frame.top - r.top, r.bottom - frame.bottom];
      if (over.some((d) => d > tol)) {
        out.push(`${tag}: text "${short(el)}" sticks out of the figure ` +
                 `by ${over.map((d) => Math.max(0, d / scale).toFixed(1)).join('/')} (l/r/t/b)`);
      }
      // 2. inside its box
      const group = el.closest('[data-box]');
      if (group && svg.contains(group)) {
        const rect = group.querySelector(':scope > rect');
        if (!rect) {
          out.push(`${tag}: box "${group.dataset.box}" has no rect`);
          continue;
        }
        const b = rect.getBoundingClientRect();
        const d = [b.left - r.left, r.right - b.right, b.top - r.top, r.bottom - b.bottom];
        if (d.some((x) => x > tol)) {
          out.push(`${tag}: text "${short(el)}" overflows box "${group.dataset.box}" ` +
                   `by ${d.map((x) => Math.max(0, x / scale).toFixed(1)).join('/')} (l/r/t/b)`);
        }
      }
    }
    // 3. no two texts overlap
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        const a = texts[i].r, b = texts[j].r;
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > tol && h > tol) {
          out.push(`${tag}: texts "${short(texts[i].el)}" and "${short(texts[j].el)}" overlap ` +
                   `(${(w / scale).toFixed(1)}×${(h / scale).toFixed(1)})`);
        }
      }
    }
  }
  return out;
}
"""


def figure_layout_problems(page, tolerance: float = TOLERANCE_UNITS) -> list[str]:
    """One line per text overflow, clipping or overlap in the figures shown on ``page``."""
    return list(page.evaluate(_SCRIPT, tolerance))
