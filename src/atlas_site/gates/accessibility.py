"""Accessibility in `check --browser`: axe-core's rules on every page, and the contrast of every
text of the page in both colour schemes.

axe's own colour-contrast rule is what made the old per-page scans cost minutes: it resolves the
painting order behind every text node. Here axe runs without it, and contrast is measured by one
pass over the page's text with the colours the browser computed, first in the scheme the page opened
in and then with the other scheme switched on in place (the theme's `data-theme` attribute, so no
second load). Each failing pair of colours is reported once, naming the first element that shows it
and how many others share it. Figure text (SVG) is measured by gates/figure_layout.py."""

from __future__ import annotations

import functools
from pathlib import Path

MIN_CONTRAST = 4.5  # WCAG 2.2 §1.4.3; 3.0 for large text (24 px, or 18.66 px bold)
LARGE_CONTRAST = 3.0


@functools.cache
def axe_source() -> str | None:
    """axe-core's script, from the axe-playwright-python package (installed with the browser
    extras); None when it is not installed, and the gate then says it did not run."""
    try:
        import axe_playwright_python
    except ImportError:
        return None
    path = Path(axe_playwright_python.__file__).with_name("axe.min.js")
    return path.read_text(encoding="utf-8") if path.is_file() else None


_RUN_AXE = """async () => {
  const result = await axe.run(document, {
    resultTypes: ['violations'],
    rules: {'color-contrast': {enabled: false}, 'color-contrast-enhanced': {enabled: false}},
  });
  return result.violations.map(v => [v.id, v.help, v.nodes.length, String(v.nodes[0].target.join(' '))]);
}"""


def axe_problems(page) -> list[str]:
    """One line per axe rule the page violates: the rule, the first element and the count."""
    source = axe_source()
    if source is None:
        return []
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source)  # evaluated, not injected as a <script>: the page's CSP stays as it is
    return [
        f"{rule} ({help_}) at {target}" + (f" and {count - 1} more" if count > 1 else "")
        for rule, help_, count, target in page.evaluate(_RUN_AXE)
    ]


# For each element with text of its own: its colour and the colour painted behind it (the
# backgrounds of its ancestors composited, opacity applied), both from computed styles.
_CONTRAST = r"""([normal, large]) => {
  const parse = (css) => {
    const m = /rgba?\(([^)]+)\)/.exec(css || '');
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(parseFloat);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + under[i] * (1 - a)).concat([1]);
  };
  const lum = (c) => {
    const ch = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const behind = new Map();
  const background = (el) => {  // the opaque colour painted behind el's content
    if (!el) return [255, 255, 255, 1];
    if (behind.has(el)) return behind.get(el);
    const own = parse(getComputedStyle(el).backgroundColor) || [0, 0, 0, 0];
    const base = own[3] >= 1 ? own : over(own, background(el.parentElement));
    behind.set(el, base);
    return base;
  };
  const opacity = (el) => { let o = 1; for (let e = el; e; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity); return o; };
  const name = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 3; e = e.parentElement) {
      let part = e.tagName.toLowerCase();
      if (e.id) { parts.unshift(part + '#' + e.id); break; }
      const classes = [...e.classList].filter(c => c !== 'laid-out');  // the gates' own mark
      if (classes.length) part += '.' + classes.slice(0, 2).join('.');
      parts.unshift(part);
    }
    return parts.join(' > ');
  };
  const failing = new Map();
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg, [hidden], [aria-hidden="true"]')) continue;
    const text = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!text) continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;  // visually hidden (read by screen readers only)
    const style = getComputedStyle(el);
    if (style.visibility !== 'visible') continue;
    const fg = parse(style.color);
    if (!fg) continue;
    const bg = background(el);
    const shown = over([fg[0], fg[1], fg[2], fg[3] * opacity(el)], bg);
    const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight, 10) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? large : normal;
    const got = ratio(shown, bg);
    if (got + 1e-6 >= need) continue;
    const key = style.color + ' on ' + bg.slice(0, 3).map(Math.round).join(',') + ' ' + need;
    const seen = failing.get(key);
    if (seen) { seen.count += 1; continue; }
    failing.set(key, {where: name(el), text: el.textContent.trim().replace(/\s+/g, ' ').slice(0, 30),
                      got: got.toFixed(2), need, count: 1});
  }
  return [...failing.values()].map(f => `${f.where} "${f.text}": contrast ${f.got}:1, needs ${f.need}:1` +
                                     (f.count > 1 ? ` (and ${f.count - 1} more with the same colours)` : ''));
}"""

_SCHEME = """(scheme) => {
  const root = document.documentElement, before = root.getAttribute('data-theme');
  if (scheme === null) root.removeAttribute('data-theme'); else root.setAttribute('data-theme', scheme);
  return before;
}"""


def contrast_problems(page, schemes: tuple[str, ...] = ("light", "dark")) -> list[str]:
    """Text contrast in each colour scheme, switched in place; the page is left as it was."""
    problems = []
    before = page.evaluate(_SCHEME, schemes[0])
    try:
        for scheme in schemes:
            page.evaluate(_SCHEME, scheme)
            problems += [
                f"{scheme} scheme: {line}"
                for line in page.evaluate(_CONTRAST, [MIN_CONTRAST, LARGE_CONTRAST])
            ]
    finally:
        page.evaluate(_SCHEME, before)
    return problems
