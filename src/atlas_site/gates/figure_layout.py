"""The figure checks run in Chromium: every figure text inside its box and its panel, no two texts
overlapping, no text rendered smaller than the minimum (a phone's 390 px), no figure drawn
narrower than a share of the text column nor scaled up past the body text (a laptop's 1280 px), and every figure text legible
against what is painted behind it (WCAG contrast; axe-core cannot measure text inside SVG). A figure is one or more <svg>
panels inside the element that carries data-figure; boxes come from getBoundingClientRect, with a
tolerance in the panel's user units."""

from __future__ import annotations

TOLERANCE_UNITS = 1.0
MIN_CONTRAST = 4.5  # WCAG 2.2 §1.4.3 for body-size text; 3.0 for large text (24 px, or 18.66 px bold)
MIN_TEXT_PX = 13.0  # the smallest CSS px size a figure text (sub/superscripts included) may render at
MIN_COLUMN_SHARE = 0.6  # a figure's drawing spans at least this share of the text column
BASE_UNITS = 15  # a figure's text size in user units (figures.css), unless a text sets its own

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

# A figure text as a diagnostic quotes it: its words, at most 40 characters.
_SHORT = r"""(el) => {
    const s = (el.textContent || '').replace(/\s+/g, ' ').trim();
    return s.length > 40 ? s.slice(0, 39) + '…' : s;
  }"""

_LAYOUT = r"""
([tolUnits, minPx]) => {
  const out = [];
  const short = %SHORT%;
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
""".replace("%PANELS%", _PANELS.strip()).replace("%SHORT%", _SHORT)

_WIDTH = r"""
(share) => {
  const out = [];
  const paragraphs = [...document.querySelectorAll('article.prose > p')].map((p) => p.getBoundingClientRect());
  const column = Math.max(0, ...paragraphs.map((r) => r.width));
  if (!column) return out;
  const edge = Math.max(...paragraphs.map((r) => r.right));
  const panels = (%PANELS%)();
  for (const [holder, svgs] of panels) {
    const rects = svgs.map((s) => s.getBoundingClientRect()).filter((r) => r.width > 0);
    if (!rects.length) continue;
    const width = Math.max(...rects.map((r) => r.right)) - Math.min(...rects.map((r) => r.left));
    const lang = holder.getAttribute('lang');
    const name = `fig-${holder.dataset.figure}${lang ? ' (' + lang + ')' : ''}`;
    if (width < share * column - 0.5) {
      out.push(`${name}: drawn ${Math.round(width)} px wide, ` +
               `less than ${Math.round(share * 100)}% of the ${Math.round(column)} px text column`);
    }
    /* one column of panels has no use for the room beyond the text: centred in it, a panel stood
       past the column its caption keeps to (review 31-x #10) */
    const past = Math.max(...rects.map((r) => r.right)) - edge;
    if (holder.matches('.fig-n1, .fig-stacked') && past > 1) {
      out.push(`${name}: one column of panels reaches ${Math.round(past)} px past the text column's edge`);
    }
  }
  return out;
}
""".replace("%PANELS%", _PANELS.strip())

# What a text must not sit on: the drawing's ink (data curves, axes, lines and arrows, dots and
# arrowheads); washes and the boxes a text belongs in are background.
INK = (
    "polyline.fig-curve, line.fig-line, .fig-axis, .fig-arrow line, .fig-arrow polyline, "
    ".fig-arrow polygon, circle"
)
# A light grid line may pass behind a text only where the text keeps it off: a ring of the page's
# colour (`fig-halo`) or a plate under it (`fig-plate`). Review 31-q #7: the roofline's 100 line
# ran through the word "intensity".
GRID = "line.fig-grid"

_INK_OVER_TEXT = r"""
([tolUnits, ink, grid]) => {
  const out = [];
  const short = %SHORT%;
  const panels = (%PANELS%)();
  const KIND = {polyline: 'curve', line: 'line', path: 'line', polygon: 'shape', circle: 'dot'};
  const covers = (outer, r) => outer.left <= r.left + 0.5 && outer.right >= r.right - 0.5 &&
    outer.top <= r.top + 0.5 && outer.bottom >= r.bottom - 0.5;
  for (const [holder, svgs] of panels) {
    const lang = holder.getAttribute('lang');
    const tag = 'fig-' + holder.dataset.figure + (lang ? ' (' + lang + ')' : '');
    for (const svg of svgs) {
      const frame = svg.getBoundingClientRect();
      const vb = svg.viewBox && svg.viewBox.baseVal;
      const scale = vb && vb.width ? frame.width / vb.width : 1;
      if (!frame.width) continue;
      const tol = tolUnits * scale;
      const where = tag + (svg.dataset.panel ? ' panel ' + svg.dataset.panel : '');
      const plates = [...svg.querySelectorAll('.fig-plate')].map((el) => el.getBoundingClientRect());
      const marks = [...svg.querySelectorAll(ink + ', ' + grid)].map((el) => {
        const points = [];
        const m = el.getScreenCTM();
        if (el.localName === 'circle' || el.localName === 'polygon') {
          const r = el.getBoundingClientRect();
          return {el, rect: r, points};
        }
        const length = el.getTotalLength ? el.getTotalLength() : 0;
        for (let d = 0; d <= length; d += 0.5) {
          const p = el.getPointAtLength(d);
          points.push([m.a * p.x + m.c * p.y + m.e, m.b * p.x + m.d * p.y + m.f]);
        }
        return {el, rect: null, points};
      });
      const over = (r, {rect, points}) => {
        const inner = {left: r.left + tol, right: r.right - tol, top: r.top + tol, bottom: r.bottom - tol};
        return rect
          ? Math.min(rect.right, inner.right) - Math.max(rect.left, inner.left) > 0 &&
            Math.min(rect.bottom, inner.bottom) - Math.max(rect.top, inner.top) > 0
          : points.some(([x, y]) => x > inner.left && x < inner.right && y > inner.top && y < inner.bottom);
      };
      for (const text of svg.querySelectorAll('text')) {
        if (!short(text)) continue;
        // line by line: a wrapped label's lines are tspans with their own x, and the corner a short
        // last line leaves empty is not text
        const lines = text.querySelectorAll(':scope > tspan[x]');
        const rects = (lines.length ? [...lines] : [text]).map((line) => line.getBoundingClientRect()).filter((r) => r.width);
        const kept = text.classList.contains('fig-halo') || rects.every((r) => plates.some((p) => covers(p, r)));
        const mark = marks.find((m) => !(kept && m.el.matches(grid)) && rects.some((r) => over(r, m)));
        if (mark) {
          const el = mark.el;
          const what = el.closest('.fig-arrow') ? 'an arrow' : el.classList.contains('fig-axis') ? 'an axis'
            : el.matches(grid) ? 'a grid line (give it a plate or a halo)'
            : 'a ' + (KIND[el.localName] || el.localName);
          out.push(`${where}: text "${short(text)}" sits on ${what}`);
        }
      }
    }
  }
  return out;
}
""".replace("%PANELS%", _PANELS.strip()).replace("%SHORT%", _SHORT)

_SCALE = r"""
(base) => {
  const out = [];
  const body = Math.max(0, ...[...document.querySelectorAll('article.prose > p')].map((p) => parseFloat(getComputedStyle(p).fontSize)));
  if (!body) return out;
  const panels = (%PANELS%)();
  for (const [holder, svgs] of panels) {
    const widest = Math.max(0, ...svgs.map((s) => s.getBoundingClientRect().width / (s.viewBox.baseVal.width || 1)));
    if (base * widest > body + 0.05) {
      const lang = holder.getAttribute('lang');
      out.push(`fig-${holder.dataset.figure}${lang ? ' (' + lang + ')' : ''}: its text renders at ` +
               `${(base * widest).toFixed(1)} px, larger than the ${body} px body text`);
    }
  }
  return out;
}
""".replace("%PANELS%", _PANELS.strip())


_CONTRAST = r"""
([normal, large]) => {
  const out = [];
  const colour = (css) => {
    const m = /rgba?\(([^)]+)\)/.exec(css || '');
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(parseFloat);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const luminance = (c) => {
    const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const SHAPES = new Set(['rect', 'circle', 'ellipse', 'polygon', 'path']);
  const painted = (el) => {  // what an element paints behind the text, or null for nothing
    const s = getComputedStyle(el);
    const c = el instanceof SVGElement && !(el instanceof SVGSVGElement)
      ? (SHAPES.has(el.localName) ? colour(s.fill) : null)
      : colour(s.backgroundColor);
    if (!c) return null;
    c[3] *= parseFloat(s.opacity) * (el instanceof SVGElement ? parseFloat(s.fillOpacity || '1') : 1);
    return c[3] > 0 ? c : null;
  };
  const short = %SHORT%;
  for (const text of document.querySelectorAll('figure.figure svg text, svg[data-figure] text')) {
    if (!short(text) || !text.getBoundingClientRect().width) continue;
    text.scrollIntoView({block: 'center', inline: 'center'});  // hit-testing sees only the window
    const r = text.getBoundingClientRect();
    const stack = document.elementsFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const at = stack.findIndex((el) => el === text || text.contains(el));
    if (at < 0) continue;  // covered by something else at its centre: not this check's business
    let behind = [255, 255, 255, 1];  // the canvas
    for (const el of stack.slice(at + 1).reverse()) {
      const c = painted(el);
      if (c) behind = over(c, behind);
    }
    const s = getComputedStyle(text);
    const fill = colour(s.fill);
    if (!fill) continue;
    fill[3] *= parseFloat(s.opacity) * parseFloat(s.fillOpacity || '1');
    const fg = over(fill, behind);
    const [hi, lo] = [luminance(fg), luminance(behind)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const px = parseFloat(s.fontSize) * (text.getScreenCTM() ? text.getScreenCTM().a : 1);
    const needed = px >= 24 || (px >= 18.66 && parseInt(s.fontWeight, 10) >= 700) ? large : normal;
    if (ratio < needed - 0.005) {
      const holder = text.closest('[data-figure]');
      const lang = holder && holder.getAttribute('lang');
      const panel = text.closest('svg[data-panel]');
      out.push(`fig-${holder ? holder.dataset.figure : '?'}${lang ? ' (' + lang + ')' : ''}` +
               `${panel ? ' panel ' + panel.dataset.panel : ''}: text "${short(text)}" has contrast ` +
               `${ratio.toFixed(2)}:1 against what is behind it (needs ${needed}:1)`);
    }
  }
  window.scrollTo(0, 0);
  return out;
}
""".replace("%SHORT%", _SHORT)


def figure_layout_problems(
    page, tolerance: float = TOLERANCE_UNITS, min_text_px: float = MIN_TEXT_PX
) -> list[str]:
    """One line per text overflow, clipping, overlap or too-small text in the figures on ``page``
    (``min_text_px=0`` skips the size check)."""
    return list(page.evaluate(_LAYOUT, [tolerance, min_text_px]))


def figure_width_problems(page, share: float = MIN_COLUMN_SHARE) -> list[str]:
    """One line per figure drawn narrower than ``share`` of the text column (the widest paragraph
    of article.prose)."""
    return list(page.evaluate(_WIDTH, share))


def figure_ink_problems(
    page, tolerance: float = 2 * TOLERANCE_UNITS, ink: str = INK, grid: str = GRID
) -> list[str]:
    """One line per figure text drawn over the figure's ink: a data curve, an axis, a line or an
    arrow crossing it, a dot or an arrowhead under it (gridlines and washes are background)."""
    return list(page.evaluate(_INK_OVER_TEXT, [tolerance, ink, grid]))


def figure_scale_problems(page, base_units: float = BASE_UNITS) -> list[str]:
    """One line per figure scaled up so far that its text renders larger than the body text beside
    it (a drawing for a 390 px phone, blown up on a laptop, shouts over its own caption)."""
    return list(page.evaluate(_SCALE, base_units))


def figure_contrast_problems(page, normal: float = MIN_CONTRAST, large: float = 3.0) -> list[str]:
    """One line per figure text whose colour, against the fills and backgrounds painted behind its
    centre, falls under the WCAG ratio (``large`` for 24 px text or 18.66 px bold)."""
    return list(page.evaluate(_CONTRAST, [normal, large]))
