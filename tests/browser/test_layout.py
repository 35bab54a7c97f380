"""The reading layout and the navigation that follows the reader, in Chromium: the contents one
tap away on a phone deep in the chapter, the section being read shown and carried by the language
switch, the theme applied before the first paint, wide formulas that say they scroll, a text
column of a readable measure, settings and figure kinds in the margin at wide screens, and print. On the
reader's fixture book (tests/projects/reader): its chapter's first page, ch1 (q1-q5)."""

from __future__ import annotations

import base64
import re

import pytest

from atlas_site.export.pdf import TEXT_WIDTH_PX
from conftest import TWO_FRAMES
from conftest import open_page as _open

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
OTHER = {"zh": "en", "en": "zh"}


@pytest.fixture(scope="module")
def site(reader_site):
    return reader_site


def _scroll_to_heading(page, section):
    """Scroll by hand (no hash) so the heading sits just below the sticky header. A reader's scroll
    starts with a wheel or touch event, which tells the page to stop holding the entry's target in
    place (site.js keepTargetsInPlace); a bare scrollTo while content above still settles was taken
    back to the target, and the switch kept pointing at it."""
    page.evaluate(
        """(id) => {
      window.dispatchEvent(new WheelEvent('wheel'));
      const head = document.getElementById(id);
      const header = document.querySelector('.site-header').offsetHeight;
      window.scrollTo(0, head.getBoundingClientRect().top + window.scrollY - header - 8);
    }""",
        section,
    )
    page.wait_for_function(
        "(id) => document.querySelector('.toc a[aria-current=\"true\"]')?.getAttribute('href') === '#' + id",
        arg=section,
        timeout=5000,
    )


# -- navigation ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_contents_are_one_tap_away_at_390_deep_in_the_chapter(site, lang):
    context, page = _open(site, f"{lang}/ch1.html", **PHONE)
    try:
        _scroll_to_heading(page, "q5")
        header = page.locator(".site-header").bounding_box()
        assert header["y"] == 0 and header["height"] <= 56, (
            f"the header stays at the top and compact: {header}"
        )
        toggle = page.locator("[data-toc-toggle]")
        assert toggle.is_visible()
        title = page.locator(".toc a[href='#q5']").text_content()
        assert page.locator("[data-toc-current]").text_content() == title, (
            "the header names the section being read"
        )
        assert toggle.get_attribute("aria-label").endswith(title)
        toggle.tap()  # one tap
        panel = page.locator("#toc")
        assert panel.is_visible() and toggle.get_attribute("aria-expanded") == "true"
        # a split chapter's contents list every part; this page's part lists this page's sections
        links = panel.locator(".toc-here ol a").evaluate_all(
            "links => links.map(a => a.getAttribute('href'))"
        )
        ids = page.evaluate("() => [...document.querySelectorAll('article h2[id]')].map(h => '#' + h.id)")
        assert links == ids
        assert page.evaluate("() => document.activeElement.getAttribute('href')") == "#q5", (
            "focus goes to the section being read"
        )
        box = panel.bounding_box()
        assert box["y"] >= header["height"] - 1 and box["y"] + box["height"] <= 844 + 1, (
            "the panel opens on screen, under the header"
        )
        panel.locator("a[href='#q1']").tap()
        page.wait_for_function("() => location.hash === '#q1'")
        assert panel.is_hidden() and toggle.get_attribute("aria-expanded") == "false"
        top = page.locator("#q1").bounding_box()["y"]
        assert header["height"] - 1 <= top <= header["height"] + 40, (
            f"q1 lands just below the header (at {top})"
        )
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_address_into_the_bibliography_lands_below_the_phone_header(site, lang):
    """On a phone the bibliography's header is taller than its first-paint default (the page links
    wrap to rows): the entry an address names still lands below it, not under it."""
    key = site["book"].registry.work_of("n01").key
    context, page = _open(site, f"{lang}/bibliography.html#src-{key}", **PHONE)
    try:
        page.wait_for_timeout(300)  # the header is measured after the first layout
        header = page.locator(".site-header").bounding_box()
        assert header["height"] > 56, "the test needs the tall header (page links in rows)"
        top = page.locator(f"#src-{key}").bounding_box()["y"]
        bottom = header["y"] + header["height"]  # the page links' row scrolls away: what stays ends here
        assert bottom - 1 <= top <= bottom + 40, f"the entry lands just below the header (at {top})"
    finally:
        context.close()


def test_contents_panel_by_keyboard_escape_returns_focus(site):
    context, page = _open(site, "en/ch1.html", viewport={"width": 390, "height": 844})
    try:
        _scroll_to_heading(page, "q3")
        toggle = page.locator("[data-toc-toggle]")
        toggle.focus()
        page.keyboard.press("Enter")
        assert page.locator("#toc").is_visible()
        assert page.evaluate("() => document.getElementById('toc').contains(document.activeElement)")
        page.keyboard.press("Escape")
        assert page.locator("#toc").is_hidden()
        assert page.evaluate("() => document.activeElement.hasAttribute('data-toc-toggle')"), (
            "focus returns to the button"
        )
        page.keyboard.press(" ")
        assert page.locator("#toc").is_visible(), "Space opens it too"
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.getElementById('toc').contains(document.activeElement)"), (
            "Tab moves through the panel"
        )
        page.keyboard.press("Enter")  # follows the focused link: the panel closes
        page.wait_for_function("() => location.hash.length > 1")
        assert page.locator("#toc").is_hidden()
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_language_switch_lands_on_the_section_in_view(site, lang):
    context, page = _open(site, f"{lang}/ch1.html", **LAPTOP)
    try:
        _scroll_to_heading(page, "q5")
        page.locator("[data-lang-switch]").click()
        # the switch carries the paragraph being read as ?para=…&of=… (side-by-side helper, site.js)
        page.wait_for_url(
            lambda url: (
                url.split("?")[0].split("#")[0].endswith(f"/{OTHER[lang]}/ch1.html") and url.endswith("#q5")
            )
        )
        top = page.locator("#q5").bounding_box()["y"]
        # it lands on the paragraph being read, the first of q5 here: its heading just above it or in view
        height = page.evaluate("innerHeight")
        assert -height / 2 < top < 200, f"the twin page shows q5 at the top (at {top})"
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_language_switch_follows_scrolling_not_the_entry_hash(site, lang):
    """Entered through a question card (#q2), read on to q5: the switch lands on q5."""
    context, page = _open(site, f"{lang}/ch1.html", **PHONE)
    try:
        page.locator(".qcards a[href='#q2']").tap()
        page.wait_for_function("() => location.hash === '#q2'")
        assert page.locator("[data-lang-switch]").get_attribute("href").endswith("#q2")
        _scroll_to_heading(page, "q5")
        assert page.evaluate("location.hash") == "#q2", "the address still names the entry point"
        switch = page.locator("[data-lang-switch]")
        # the switch follows the reading position on the scroll events' next frame: wait for it, a
        # loaded machine may paint later than the assertion runs
        page.wait_for_function(
            "() => document.querySelector('[data-lang-switch]').getAttribute('href').endsWith('#q5')",
            timeout=5000,
        )
        assert switch.get_attribute("href").endswith("#q5"), "the switch was updated while scrolling"
        switch.tap()
        # the switch carries the paragraph being read as ?para=…&of=… (side-by-side helper, site.js)
        page.wait_for_url(
            lambda url: (
                url.split("?")[0].split("#")[0].endswith(f"/{OTHER[lang]}/ch1.html") and url.endswith("#q5")
            )
        )
    finally:
        context.close()


def test_language_switch_at_the_top_of_the_page_has_no_section(site):
    context, page = _open(site, "en/ch1.html", **LAPTOP)
    try:
        assert page.locator("[data-lang-switch]").get_attribute("href") == "../zh/ch1.html"
    finally:
        context.close()


def test_back_to_top(site):
    context, page = _open(site, "zh/ch1.html", **PHONE)
    try:
        _scroll_to_heading(page, "q4")
        page.mouse.wheel(0, -300)  # shown by a deliberate scroll back up (review 31-f #6)
        page.locator(".to-top").tap()
        page.wait_for_function("() => window.scrollY === 0")
        # the contents' own title again (a split chapter's page: 本章目录, "In this chapter"), once
        # the scroll's last frame has been read (it may come a frame after the page reached the top)
        title = page.locator("#toc .toc-title").inner_text()
        page.wait_for_function(
            "title => document.querySelector('[data-toc-current]').innerText === title",
            arg=title,
            timeout=3000,
        )
    finally:
        context.close()


# -- theme ----------------------------------------------------------------------------------------

THEME_PROBE = """
  localStorage.setItem('atlas-theme', 'dark');
  window.__probe = {};
  new MutationObserver((changes, observer) => {
    if (document.body && !('atBody' in window.__probe)) {
      window.__probe.atBody = document.documentElement.getAttribute('data-theme');
      observer.disconnect();
    }
  }).observe(document, {childList: true, subtree: true});
  document.addEventListener('readystatechange', () => {
    if (document.readyState === 'interactive') {  // parsing done, deferred scripts not yet run
      window.__probe.bg = getComputedStyle(document.body).backgroundColor;
      window.__probe.deferredRan = !!document.querySelector('[data-theme-toggle]:not([hidden])');
    }
  });
"""


def test_stored_dark_theme_applies_before_the_first_paint(site):
    context = site["browser"].new_context(color_scheme="light", **LAPTOP)
    context.add_init_script(THEME_PROBE)
    page = context.new_page()
    requested = []
    page.route("**/assets/site.js", lambda route: (requested.append(route.request.url), route.abort()))
    try:
        page.goto(site["base"] + "en/ch1.html", wait_until="load")
        probe = page.evaluate("window.__probe")
        assert requested, "site.js was requested (and refused): the theme cannot come from it"
        assert probe["atBody"] == "dark", (
            "data-theme is set before <body> exists, so before anything is painted"
        )
        assert probe["deferredRan"] is False
        rgb = [int(x) for x in re.findall(r"\d+", probe["bg"])[:3]]
        assert sum(rgb) < 3 * 60, f"dark background before any deferred script: {probe['bg']}"
        script = page.evaluate("""() => { const s = document.querySelector('head script[src$="theme.js"]');
          return s && [s.defer, s.async, s.compareDocumentPosition(document.querySelector('head link[rel=stylesheet]')) & 4]; }""")
        assert script == [False, False, 4], "theme.js is a blocking script before the stylesheets"
    finally:
        context.close()


# -- wide formulas and tables ---------------------------------------------------------------------

EDGES = """async (png) => {
  const img = new Image();
  img.src = 'data:image/png;base64,' + png;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.width; canvas.height = img.height;
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  // the median shade of a column of pixels: the edge's shade, not the glyphs a formula starts with
  const column = (x) => { const d = ctx.getImageData(x, 0, 1, img.height).data; const shades = [];
    for (let i = 0; i < d.length; i += 4) shades.push((d[i] + d[i + 1] + d[i + 2]) / 3);
    shades.sort((a, b) => a - b); return shades[Math.floor(shades.length / 2)]; };
  return [column(1), column(Math.floor(img.width / 2)), column(img.width - 2)];
}"""


def _edge_shades(page, box):
    png = base64.b64encode(box.screenshot()).decode()
    return page.evaluate(EDGES, png)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_wide_formula_at_390_scrolls_in_a_focusable_box_with_a_visible_edge(site, scheme):
    context, page = _open(site, "en/ch1.html", color_scheme=scheme, **PHONE)
    try:
        box = page.locator(".math-block:has(math[alttext*='latency target'])").first
        box.scroll_into_view_if_needed()
        # the browser lays out a block skipped far from the screen (content-visibility) in the next frames
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        width, client = box.evaluate("el => [el.scrollWidth, el.clientWidth]")
        assert width > client + 100, (
            f"the Q4 goodput fraction (long words over long words: no place to break) overflows its box ({width} in {client})"
        )
        assert page.evaluate("() => [document.scrollingElement.scrollWidth, innerWidth]")[0] <= 390, (
            "the page itself never scrolls sideways"
        )
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        left, middle, right = _edge_shades(page, box)
        # at the start: the right edge differs from the page (more to see that way), the left does not
        assert abs(right - left) > 8, (
            f"no edge shade on the right: left {left:.0f}, right {right:.0f} ({background})"
        )
        box.focus()
        assert box.evaluate("el => el === document.activeElement"), "the scroll box takes keyboard focus"
        # its frame may be skippable, and a skippable block clips its paint: the ring must fall inside
        ring = box.evaluate("""el => { const cs = getComputedStyle(el);
          return [el.matches(':focus-visible'), parseFloat(cs.outlineWidth), parseFloat(cs.outlineOffset),
                  getComputedStyle(el.parentElement).contentVisibility]; }""")
        assert ring[0] and ring[1] >= 2 and ring[2] + ring[1] <= 0 and ring[3] == "auto", (
            f"focus ring outside a clipping frame: {ring}"
        )
        for _ in range(6):
            page.keyboard.press("ArrowRight")
        page.wait_for_function("el => el.scrollLeft > 0", arg=box.element_handle())
        box.evaluate(
            "el => { el.scrollLeft = el.scrollWidth; el.blur(); }"
        )  # the ring would paint both edges
        page.wait_for_timeout(50)
        left_end, _, right_end = _edge_shades(page, box)
        assert abs(left_end - right_end) > 8, "at the end the shade moves to the left edge"
        assert (left_end - right_end) * (left - right) < 0
    finally:
        context.close()


# -- measure, margin -------------------------------------------------------------------------------

LINES = """([selector, weight]) => {
  // characters per rendered line, from the boxes of each character of long plain paragraphs;
  // weight 1 counts a Latin character as half a Chinese glyph (zh), weight 0 as one character (en)
  const wide = /[\u3000-\u9fff\uff00-\uffef]/;
  const counts = [];
  for (const p of [...document.querySelectorAll(selector)].filter(p => p.textContent.length > 300).slice(0, 8)) {
    const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
    const tops = new Map();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('math, .badge, .claim-setting, .cites')) continue;
      for (let i = 0; i < node.length; i++) {
        const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
        const r = range.getClientRects()[0];
        if (!r || r.width === 0) continue;
        const top = Math.round(r.top / 4);
        // a Chinese glyph is one unit of the measure, a Latin letter or digit about half of one
        tops.set(top, (tops.get(top) || 0) + (wide.test(node.data[i]) ? 1 : 0.5 * weight + (1 - weight)));
      }
    }
    const lines = [...tops.values()];
    counts.push(...lines.slice(0, -1).map(Math.round));  // the last line of a paragraph is short
  }
  counts.sort((a, b) => a - b);
  return counts;
}"""


@pytest.mark.parametrize("lang, low, high", [("en", 60, 75), ("zh", 35, 40)])
def test_text_column_measure_at_1280(site, lang, low, high):
    context, page = _open(site, f"{lang}/ch1.html", **LAPTOP)
    try:
        counts = page.evaluate(LINES, ["article.prose > p", 1 if lang == "zh" else 0])
        assert len(counts) >= 20
        median = counts[len(counts) // 2]
        assert low <= median <= high, (
            f"{lang}: median {median} characters a line (want {low}-{high}); {counts}"
        )
        column = page.evaluate(
            "() => document.querySelector('article.prose > p').getBoundingClientRect().width"
        )
        figure = page.evaluate(
            "() => Math.max(...[...document.querySelectorAll('figure.figure')].map(f => f.getBoundingClientRect().width))"
        )
        assert 880 <= figure <= 1000 and figure > column * 1.3, (
            f"figures break out of the {column:.0f} px column: {figure:.0f} px"
        )
    finally:
        context.close()


def test_claim_settings_sit_in_the_margin_at_1280_and_figure_kinds_stay_beside_their_number(site):
    """A claim's setting floats into the margin from 1100 px and stands inline on a phone; a
    figure's kind stays in its caption right after "Fig. N" at every width (reviews 31-g and 31-h
    #11: a figure wider than the column fills the margin, and its kind, floated there, stood apart
    from its number across a gap)."""

    def placement(page):
        return page.evaluate("""() => {
          const inMargin = (el) => { const p = el.closest('p, figcaption'); return el.getBoundingClientRect().left >= p.getBoundingClientRect().right; };
          const besideNumber = (kind) => { const n = kind.closest('figcaption').querySelector('.fig-number').getBoundingClientRect(), k = kind.getBoundingClientRect();
            return Math.abs(k.top - n.top) < n.height && k.left >= n.right && k.left - n.right < 16; };
          const settings = [...document.querySelectorAll('article .claim .claim-setting')];
          const kinds = [...document.querySelectorAll('article figcaption .badge-fig')];
          const overflow = document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth;
          return [settings.length, settings.filter(inMargin).length, kinds.length, kinds.filter(besideNumber).length, overflow];
        }""")

    for options, expect_margin in ((LAPTOP, True), (PHONE, False)):
        context, page = _open(site, "zh/ch1.html", **options)
        try:
            settings, margin_settings, kinds, beside, overflow = placement(page)
            # the page's four claims and its figure (the Atlas's Chapter 14 had > 20 and > 10)
            assert settings >= 4 and kinds >= 1 and overflow <= 0
            assert margin_settings == (settings if expect_margin else 0), (
                "settings: margin on a desk, inline on a phone"
            )
            assert beside == kinds, "every figure kind right after its number"
        finally:
            context.close()


# -- print -----------------------------------------------------------------------------------------

A4_CONTENT = (
    680,
    994,
)  # px inside the @page margins of site.css (210 × 297 mm less 15 + 15 mm and 16 + 18 mm)


def test_print_shows_the_address_and_the_works_cited_and_keeps_figures_small(site):
    width, height = A4_CONTENT
    context, page = _open(site, "en/ch1.html", viewport={"width": width, "height": height})
    try:
        cited = page.evaluate(
            """() => [...new Set([...document.querySelectorAll('article a.cite')].map(a => a.textContent))]"""
        )
        page.emulate_media(media="print")
        assert page.locator(".print-refs").is_visible()
        listed = page.locator(".print-refs li").all_inner_texts()
        shown = " ".join(listed)
        assert all(re.search(rf"[\[ ]{re.escape(label)}[\] ]", shown) for label in cited), (
            "every number cited on the page is listed"
        )
        sources = site["book"].registry
        assert len(listed) == len(
            {
                sources.work_of(n).key
                for n in page.evaluate(
                    "() => [...document.querySelectorAll('article a.cite')].map(a => a.dataset.cite)"
                )
            }
        )
        assert page.locator("[data-print-url]").inner_text() == site["base"] + "en/ch1.html"
        heights = page.evaluate(
            "() => [...document.querySelectorAll('figure.figure')].map(f => f.getBoundingClientRect().height)"
        )
        assert max(heights) < 0.6 * height, (
            f"a figure with its caption takes at most 60% of a page (never a page of its own): {max(heights):.0f} px"
        )
        numbered = page.evaluate("""() => [...document.styleSheets].flatMap(s => [...s.cssRules])
          .some(r => r instanceof CSSPageRule && /counter\\(page\\)/.test(r.cssText))""")
        assert numbered, "an @page rule numbers the pages"
        page.emulate_media(media="screen")
        assert page.locator(".print-refs").is_hidden(), "the list is for paper only"
    finally:
        context.close()


@pytest.mark.parametrize("path", ["en/ch1-summary.html", "zh/ch1-summary.html"])
def test_the_sidebar_shows_the_part_being_read(site, path):
    """Review 31-i #11: on a desk the sidebar lists every part of a split chapter and scrolls on its
    own; the part being read lay below its fold ("Part 7 of 8" never showed). In a window too short
    for the whole list, it is in the sidebar's view once the page has loaded, and the page itself
    has not moved."""
    context, page = _open(site, path, viewport={"width": 1280, "height": 360})
    try:
        page.wait_for_function(TWO_FRAMES)
        seen = page.evaluate(
            """() => { const toc = document.querySelector('.toc'), here = toc.querySelector('.toc-here');
              const frame = toc.getBoundingClientRect(), box = here.querySelector('.toc-part-title').getBoundingClientRect();
              return {overflows: toc.scrollHeight > toc.clientHeight + 1, inView: box.top >= frame.top - 1 && box.bottom <= frame.bottom + 1,
                      scrollY: window.scrollY}; }"""
        )
    finally:
        context.close()
    assert seen["overflows"], (
        "the window is short enough for the sidebar to scroll: the test proves something"
    )
    assert seen["inView"] and seen["scrollY"] == 0, seen


# A4 printed from the browser (site.css's @page: 16 mm above, 18 mm below), in CSS px
A4_TEXT_HEIGHT_PX = (297 - 16 - 18) / 25.4 * 96
KEPT_WHOLE = """() => [...document.querySelectorAll('main *')]
  .filter((el) => /avoid/.test(getComputedStyle(el).breakInside) && !el.closest('figure'))
  .map((el) => [el.tagName.toLowerCase() + '.' + String(el.className).split(' ')[0], Math.round(el.getBoundingClientRect().height)])"""


@pytest.mark.parametrize("path", ["en/ch1.html", "zh/ch1.html", "en/tut-labs.html"])
def test_on_paper_nothing_kept_whole_is_taller_than_half_a_page(site, path):
    """Review 31-v #8: printing the labs page left page 2 three-quarters blank: a whole lab (its
    assumptions and formulas, most of a page) was kept on one page. What is kept whole on paper
    (a list item, a worked example, a table row) is never more than half a page; a figure stays
    whole whatever its height."""
    context, page = _open(site, path, viewport={"width": TEXT_WIDTH_PX, "height": 1000})
    try:
        page.emulate_media(media="print")
        kept = page.evaluate(KEPT_WHOLE)
        assert kept, "the page keeps some blocks whole on paper"
        tall = [(what, height) for what, height in kept if height > A4_TEXT_HEIGHT_PX / 2]
        assert tall == [], (
            f"kept whole on paper, taller than half a page ({A4_TEXT_HEIGHT_PX / 2:.0f} px): {tall}"
        )
    finally:
        context.close()
