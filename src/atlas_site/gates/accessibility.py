"""Accessibility in `check --browser`: axe-core's rules on every page, the contrast of every text
and of every link in a sentence in both colour schemes, and the size of every pointer target at a
phone's width.

Four of axe's rules are measured here instead, because axe spends most of a page's scan on them
(two thirds of it on the Atlas's pages: 1.0 s of 1.5 s) and measures them in one scheme and at one
width only. Colour contrast (axe resolves the painting order behind every text node): one pass over
the page's text with the colours the browser computed, first in the scheme the page opened in, then
with the other scheme switched on in place (the theme's `data-theme` attribute, no second load).
Links in text (WCAG 1.4.1, axe's link-in-text-block): in the same pass, each link inside a sentence
is underlined or otherwise marked, or its colour stands 3:1 from the text around it. Target size
(WCAG 2.5.8, axe's target-size): at 390 px, where fingers meet the targets, every control is 24 px
or has room around it. Each failing pair of colours is reported once, naming the first element that
shows it and how many others share it. Figure text (SVG) is measured by gates/figure_layout.py."""

from __future__ import annotations

import functools
from pathlib import Path

MIN_CONTRAST = 4.5  # WCAG 2.2 §1.4.3; 3.0 for large text (24 px, or 18.66 px bold)
LARGE_CONTRAST = 3.0
LINK_CONTRAST = 3.0  # WCAG technique G183: a link marked by colour alone stands 3:1 from its text
TARGET_PX = 24  # WCAG 2.2 §2.5.8: a pointer target is 24 px, or has a 24 px circle of room


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


# axe's rules this module measures itself (see the module's docstring)
MEASURED_HERE = ["color-contrast", "color-contrast-enhanced", "link-in-text-block", "target-size"]

_RUN_AXE = """async (MEASURED_HERE) => {
  const result = await axe.run(document, {
    resultTypes: ['violations'],
    rules: Object.fromEntries(MEASURED_HERE.map(id => [id, {enabled: false}])),
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
        for rule, help_, count, target in page.evaluate(_RUN_AXE, MEASURED_HERE)
    ]


# For each element with text of its own: its colour and the colour painted behind it (the
# backgrounds of its ancestors composited, opacity applied), both from computed styles; for a link
# in a sentence, also how far its colour stands from the text around it when nothing else marks it.
# Returns [kind, line] pairs: 'contrast' or 'link'.
_CONTRAST = r"""([normal, large, LINK]) => {
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
  const opacities = new Map();
  const opacity = (el) => {
    if (!el) return 1;
    if (!opacities.has(el)) opacities.set(el, parseFloat(getComputedStyle(el).opacity) * opacity(el.parentElement));
    return opacities.get(el);
  };
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
  const note = (kind, key, el, line) => {
    const seen = failing.get(key);
    if (seen) { seen.count += 1; return; }
    failing.set(key, {kind, where: name(el), text: el.textContent.trim().replace(/\s+/g, ' ').slice(0, 30), line, count: 1});
  };
  /* a link inside a sentence (WCAG 1.4.1): its block holds more text than the link */
  const blockText = new Map();
  const inSentence = (el, style) => {
    if (style.display !== 'inline') return false;
    const block = el.closest('p, li, dd, dt, td, figcaption, blockquote');
    if (!block) return false;
    if (!blockText.has(block)) blockText.set(block, block.textContent.trim().length);
    return blockText.get(block) > el.textContent.trim().length;
  };
  const marked = (style, around) => /underline|overline|line-through/.test(style.textDecorationLine) ||
    (parseFloat(style.borderBottomWidth) > 0 && style.borderBottomStyle !== 'none' && (parse(style.borderBottomColor) || [0, 0, 0, 0])[3] > 0) ||
    Math.abs(parseInt(style.fontWeight, 10) - parseInt(around.fontWeight, 10)) >= 300 ||
    ((parse(style.backgroundColor) || [0, 0, 0, 0])[3] > 0 && style.backgroundColor !== around.backgroundColor);
  for (const el of document.body.querySelectorAll('*')) {
    // hidden from screen readers is not hidden from the eye: a heading's "#" link is still read
    if (el.closest('svg, [hidden]') || (el.closest('[aria-hidden="true"]') && !el.matches('a[href]'))) continue;
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
    if (got + 1e-6 < need) {
      note('contrast', style.color + ' on ' + bg.slice(0, 3).map(Math.round).join(',') + ' ' + need, el,
           `contrast ${got.toFixed(2)}:1, needs ${need}:1`);
    }
    if (el.matches('a[href]') && inSentence(el, style)) {
      const around = getComputedStyle(el.parentElement);
      const text = parse(around.color);
      const apart = text ? ratio(shown, over([text[0], text[1], text[2], text[3] * opacity(el.parentElement)], bg)) : 21;
      if (!marked(style, around) && apart + 1e-6 < LINK) {
        note('link', 'link ' + style.color + ' in ' + around.color, el,
             `a link in a sentence that only its colour marks: ${apart.toFixed(2)}:1 from the text around it, needs ${LINK}:1 or an underline`);
      }
    }
  }
  return [...failing.values()].map(f => [f.kind, `${f.where} "${f.text}": ${f.line}` +
                                         (f.count > 1 ? ` (and ${f.count - 1} more with the same colours)` : '')]);
}"""

_SCHEME = """(scheme) => {
  const root = document.documentElement, before = root.getAttribute('data-theme');
  if (scheme === null) root.removeAttribute('data-theme'); else root.setAttribute('data-theme', scheme);
  return before;
}"""


SCHEMES = ("light", "dark")


def in_each_scheme(page, measure, schemes: tuple[str, ...] = SCHEMES) -> list:
    """measure(page, scheme) in each colour scheme, switched in place (the theme's data-theme, as
    the reader's toggle sets it); the page is left as it was."""
    found = []
    before = page.evaluate(_SCHEME, schemes[0])
    try:
        for scheme in schemes:
            page.evaluate(_SCHEME, scheme)
            found += measure(page, scheme)
    finally:
        page.evaluate(_SCHEME, before)
    return found


def contrast_problems(page) -> list[tuple[bool, str]]:
    """(about a link, line) for each failing colour pair in the scheme the page shows now (the walk
    measures it in each scheme, in_each_scheme, with the figures' text in the same pass): a text on
    what is behind it, or a link in a sentence marked by colour alone, too close to its text."""
    return [
        (kind == "link", line)
        for kind, line in page.evaluate(_CONTRAST, [MIN_CONTRAST, LARGE_CONTRAST, LINK_CONTRAST])
    ]


# Every pointer target as laid out now: under 24 px in either side and with another target inside
# the 24 px circle around its centre (the spacing exception) is a problem. A link inside a sentence
# is sized by its line (WCAG's inline exception); citations and heading anchors are not excepted.
_TARGETS = r"""(MIN) => {
  const R = MIN / 2;
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=tab], [role=button]';
  /* clipped away: inside a box clipped to a pixel (the visually-hidden pattern, e.g. a table head
     that a phone's layout keeps for screen readers only); nothing there is under a finger */
  const clipped = new Map();
  const clippedAway = el => {
    if (!el || el === document.body) return false;
    if (clipped.has(el)) return clipped.get(el);
    const s = getComputedStyle(el), r = el.getBoundingClientRect();
    const away = (s.clip !== 'auto' && s.clip !== '') || ((r.width <= 1 || r.height <= 1) && s.overflow !== 'visible') ||
      clippedAway(el.parentElement);
    clipped.set(el, away);
    return away;
  };
  const visible = el => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !el.closest('[hidden], .visually-hidden, .skip-link') &&
      !clippedAway(el.parentElement); };
  const all = [...document.querySelectorAll(selector)].filter(visible).map(el => ({el, r: el.getBoundingClientRect()}));
  /* in a sentence: its block holds more text than the link (not only its parent: a claim's value
     in a group of claims is the only text of its own span) */
  const inline = el => { const block = el.matches('a') && !el.matches('.cite, .anchor') && el.closest('p, li, dd, dt, td, figcaption, blockquote');
    return !!block && getComputedStyle(el).display === 'inline' && block.textContent.trim().length > el.textContent.trim().length; };
  const center = r => [r.left + r.width / 2, r.top + r.height / 2];
  const distance = (p, r) => Math.hypot(Math.max(r.left - p[0], 0, p[0] - r.right), Math.max(r.top - p[1], 0, p[1] - r.bottom));
  const small = all.filter(t => (t.r.width < MIN - 0.5 || t.r.height < MIN - 0.5) && !inline(t.el));
  const label = el => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}` +
    `${typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\s+/).slice(0, 2).join('.') : ''}`;
  const bad = [];
  for (const t of small) {
    const c = center(t.r);
    const crowded = all.some(o => o !== t && !o.el.contains(t.el) && !t.el.contains(o.el) &&
      (distance(c, o.r) < R - 0.5 || (small.includes(o) && Math.hypot(...center(o.r).map((v, i) => v - c[i])) < 2 * R - 0.5)));
    if (crowded) bad.push(`${label(t.el)} "${(t.el.textContent || t.el.getAttribute('aria-label') || '').trim().slice(0, 20)}" ` +
      `${Math.round(t.r.width)}×${Math.round(t.r.height)} px`);
  }
  return [all.length, bad];
}"""


def target_problems(page) -> tuple[int, list[str]]:
    """(targets measured, one line per target under 24 px with another target too close)."""
    count, bad = page.evaluate(_TARGETS, TARGET_PX)
    return count, [
        f"pointer target {line}: under {TARGET_PX} px with another target too close" for line in bad
    ]
