"""The figure checks run in Chromium: every figure text inside its box and its panel, no two texts
overlapping, no text rendered smaller than the minimum (a phone's 390 px), and no figure drawn
narrower than a share of the text column (a laptop's 1280 px). A figure is one or more <svg>
panels inside the element that carries data-figure; boxes come from getBoundingClientRect, with a
tolerance in the panel's user units."""
from __future__ import annotations

TOLERANCE_UNITS = 1.0
MIN_TEXT_PX = 13.0       # the smallest CSS px size a figure text (sub/superscripts included) may render at
MIN_COLUMN_SHARE = 0.6   # a figure's drawing spans at least this share of the text column

_PANELS = r"""
() => {
  const out = new Map();
  for (const svg of document.querySelectorAll('figure.figure svg, svg[data-figure]')) {
    const holder = svg.closest('[data-figure]:not(figure)') || svg.closest('[data-figure]');
    if (!holder) continue;
    if (!out.has(holder)) out.set(holder, []);
    if (!svg.parentElement.closest('svg')) out.get(holder).push(svg);
  }
  return out;
}
"""

_LAYOUT = r"""
([tolUnits, minPx]) => {
  const out = [];
  const short = (el) => {
    const s = (el.textContent || '').replace(/\s+/g, ' ').trim();
    return s.length > 40 ? s.slice(0, 39) + '…' : s;
  };
  const panels = (%PANELS%)();
  for (const [holder, svgs] of panels) {
    const lang = holder.getAttribute('lang');
    const tag = 'fig-' + holder.dataset.figure + (lang ? ' (' + lang + ')' : '');
    for (const svg of svgs) {
      const frame = svg.getBoundingClientRect();
      const vb = svg.viewBox && svg.viewBox.baseVal;
      const scale = vb && vb.width ? frame.width / vb.width : 1;
      const tol = tolUnits * scale;
      const where = tag + (svg.dataset.panel ? ' panel ' + svg.dataset.panel : '');
      if (frame.width === 0 || frame.height === 0) {
        out.push(where + ': figure is not displayed');
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
        // 0. big enough to read, every tspan included
        if (minPx > 0) {
          for (const part of [el, ...el.querySelectorAll('tspan')]) {
            const px = parseFloat(getComputedStyle(part).fontSize) * scale;
            if (px < minPx - 0.05) {
              out.push(`${where}: text "${short(part)}" renders at ${px.toFixed(1)} px (< ${minPx} px)`);
              break;
            }
          }
        }
        // 1. inside the panel
        const over = [frame.left - r.left, r.right - frame.right, frame.top - r.top, r.bottom - frame.bottom];
        if (over.some((d) => d > tol)) {
          out.push(`${where}: text "${short(el)}" sticks out of the figure ` +
                   `by ${over.map((d) => Math.max(0, d / scale).toFixed(1)).join('/')} (l/r/t/b)`);
        }
        // 2. inside its box
        const group = el.closest('[data-box]');
        if (group && svg.contains(group)) {
          const rect = group.querySelector(':scope > rect');
          if (!rect) {
            out.push(`${where}: box "${group.dataset.box}" has no rect`);
            continue;
          }
          const b = rect.getBoundingClientRect();
          const d = [b.left - r.left, r.right - b.right, b.top - r.top, r.bottom - b.bottom];
          if (d.some((x) => x > tol)) {
            out.push(`${where}: text "${short(el)}" overflows box "${group.dataset.box}" ` +
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
            out.push(`${where}: texts "${short(texts[i].el)}" and "${short(texts[j].el)}" overlap ` +
                     `(${(w / scale).toFixed(1)}×${(h / scale).toFixed(1)})`);
          }
        }
      }
    }
  }
  return out;
}
""".replace("%PANELS%", _PANELS.strip())

_WIDTH = r"""
(share) => {
  const out = [];
  const column = Math.max(0, ...[...document.querySelectorAll('article.prose > p')].map((p) => p.getBoundingClientRect().width));
  if (!column) return out;
  const panels = (%PANELS%)();
  for (const [holder, svgs] of panels) {
    const rects = svgs.map((s) => s.getBoundingClientRect()).filter((r) => r.width > 0);
    if (!rects.length) continue;
    const width = Math.max(...rects.map((r) => r.right)) - Math.min(...rects.map((r) => r.left));
    if (width < share * column - 0.5) {
      const lang = holder.getAttribute('lang');
      out.push(`fig-${holder.dataset.figure}${lang ? ' (' + lang + ')' : ''}: drawn ${Math.round(width)} px wide, ` +
               `less than ${Math.round(share * 100)}% of the ${Math.round(column)} px text column`);
    }
  }
  return out;
}
""".replace("%PANELS%", _PANELS.strip())


def figure_layout_problems(page, tolerance: float = TOLERANCE_UNITS, min_text_px: float = MIN_TEXT_PX) -> list[str]:
    """One line per text overflow, clipping, overlap or too-small text in the figures on ``page``
    (``min_text_px=0`` skips the size check)."""
    return list(page.evaluate(_LAYOUT, [tolerance, min_text_px]))


def figure_width_problems(page, share: float = MIN_COLUMN_SHARE) -> list[str]:
    """One line per figure drawn narrower than ``share`` of the text column (the widest paragraph
    of article.prose)."""
    return list(page.evaluate(_WIDTH, share))
