"""The phone and information-design review after issue 31 (phone 8, designer 7), on the reader's
fixture book (tests/projects/reader): a split chapter's parts strip shows the page's own part on the
first screen; a table or formula wider than a phone scrolls in its own box under a cue that never
washes out what is already in view; an anchor lands below every sticky bar (the glossary's A–Z bar,
a table's column heads), so the language switch carries the entry in view; one side-by-side switch
is in view at any width; and back-to-top never stands over a lab's summary pinned at the bottom."""

from __future__ import annotations

import pytest

from conftest import LAPTOP, PHONE, TWO_FRAMES
from conftest import open_page as _open


@pytest.fixture(scope="module")
def site(reader_site):
    return reader_site


# ---------------------------------------------------------------- 1: the parts strip


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_own_part_is_in_view_at_load_on_a_phone(site, lang):
    """The third part's strip ran 531 px (en) in a 358 px row that opened at part 1: the current
    part stood at 283-547 px (en) and 191-375 px (zh), off the screen or under the row's fade."""
    context, page = _open(site, f"{lang}/ch1-summary.html", **PHONE)
    try:
        got = page.evaluate(
            """() => { const strip = document.querySelector('.series-parts ol');
              const here = strip.querySelector('[aria-current="page"]').getBoundingClientRect();
              const box = strip.getBoundingClientRect();
              return {here: [here.left, here.right, here.top, here.bottom], box: [box.left, box.right],
                      scrolls: strip.scrollWidth > strip.clientWidth + 1, mask: getComputedStyle(strip).maskImage,
                      width: innerWidth, height: innerHeight, items: strip.children.length}; }"""
        )
        left, right, top, bottom = got["here"]
        assert got["items"] == 3
        assert 0 <= left and right <= got["width"], f"the current part is off the screen: {got}"
        assert got["box"][0] - 1 <= left and right <= got["box"][1] + 1, f"clipped by its strip: {got}"
        assert not got["scrolls"] and got["mask"] in ("none", ""), f"a strip that hides parts: {got}"
        assert 0 <= top and bottom <= got["height"], f"the current part is below the first screen: {got}"
    finally:
        context.close()


@pytest.mark.parametrize("lang, page_id", [("en", "tut-labs"), ("zh", "tut-labs"), ("en", "ch1-fleet")])
def test_a_series_list_is_one_line_on_a_phone_and_the_whole_list_on_a_desk(site, lang, page_id):
    """Review 31-j #6: the tutorial's eight pages took four rows of a phone's first screen above the
    text. On a phone the list is one line naming the page being read, which opens the list; on a desk
    the list shows as before. The parts of a chapter published as several pages too (review 31-l:
    its heading names the part, "Part 2 of 8"; the list's line names the list)."""
    seen = {}
    for name, size in (("phone", PHONE), ("desk", LAPTOP)):
        context, page = _open(site, f"{lang}/{page_id}.html", **size)
        try:
            seen[name] = page.evaluate(
                """() => { const fold = document.querySelector('.series .series-fold'), list = fold.querySelector('ol');
                  const summary = fold.querySelector('summary');
                  return {list: list.checkVisibility() ? list.getBoundingClientRect().height : 0, summary: summary.getBoundingClientRect().height,
                          said: summary.textContent, items: list.children.length,
                          here: [...list.children].findIndex(li => li.querySelector('[aria-current=page]')) + 1}; }"""
            )
            if name == "phone":
                page.locator(".series .series-fold summary").tap()
                seen["opened"] = page.evaluate(
                    "document.querySelector('.series-fold ol').getBoundingClientRect().height"
                )
        finally:
            context.close()
    phone, desk = seen["phone"], seen["desk"]
    assert phone["list"] == 0 and phone["summary"] >= 24, f"the list is folded on a phone: {phone}"
    if page_id.startswith("tut"):
        assert str(phone["here"]) in phone["said"] and str(phone["items"]) in phone["said"], phone
    else:
        assert phone["said"] == "Parts of this chapter" and phone["here"] == 2, phone
    assert seen["opened"], "a tap opens the list"
    assert desk["list"] > 0 and desk["summary"] == 0, f"the whole list on a desk: {desk}"


# ---------------------------------------------------------------- 2: wide tables and formulas

CUE = """box => { const frame = box.parentElement, after = getComputedStyle(frame, '::after'), before = getComputedStyle(frame, '::before');
  const room = box.scrollWidth - box.clientWidth;
  const width = style => style.content === 'none' ? 0 : parseFloat(style.width) || 0;
  return {room, left: box.scrollLeft, end: width(after), start: width(before), more: box.dataset.more,
          glyph: after.content.includes('⇆'), overflow: getComputedStyle(box).overflowX, tab: box.tabIndex}; }"""


@pytest.mark.parametrize(
    "path, selector",
    [
        # a table too wide that a phone cannot stack (two columns: its long option name), a formula 250 px
        ("en/ch1-summary.html", ".table-scroll:not(:has(table.stacks))"),
        ("en/ch1.html", ".math-block:has(math[alttext*='latency target'])"),
    ],
)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_wide_box_scrolls_under_a_cue_that_leaves_what_is_in_view_uncovered(site, path, selector, scheme):
    """A table 7-40 px too wide had its last column washed out by a 40 px fade (and scrolled to its
    end, its first); a fade is never wider than what lies beyond its edge, and the end reached is
    uncovered."""
    context, page = _open(site, path, color_scheme=scheme, **PHONE)
    try:
        box = page.locator(selector).first
        box.scroll_into_view_if_needed()
        page.evaluate(TWO_FRAMES)
        page.wait_for_function("b => b.dataset.more === 'end'", arg=box.element_handle())
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page scrolls sideways"
        cue = box.evaluate(CUE)
        assert cue["overflow"] == "auto" and cue["tab"] == 0 and cue["room"] > 8, cue
        assert cue["end"] > 4, f"no cue at the end with more beyond it: {cue}"
        assert cue["end"] <= cue["room"] + 1, f"the fade covers more than is hidden: {cue}"
        assert cue["glyph"] == (cue["room"] >= 48), f"a ⇆ only where that much is hidden: {cue}"
        # scrolled to the end: nothing over it, and the fade at the start no wider than what it hides
        box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
        page.wait_for_function("b => b.dataset.more === 'start'", arg=box.element_handle())
        page.evaluate(TWO_FRAMES)
        cue = box.evaluate(CUE)
        assert cue["end"] == 0, f"the end is covered once reached: {cue}"
        assert 0 < cue["start"] <= cue["left"] + 1, f"the start's fade covers what is in view: {cue}"
        if "table" in selector:
            cells = box.evaluate(
                """b => { const r = b.getBoundingClientRect();
                  return [...b.querySelectorAll('tr > :last-child')].map(c => c.getBoundingClientRect())
                    .every(c => c.right <= r.right + 1 && c.left >= r.left); }"""
            )
            assert cells, "the last column is whole in the box at the end"
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_fixture_page_scrolls_sideways_on_a_phone(site, lang):
    context = site["browser"].new_context(**PHONE)
    page = context.new_page()
    try:
        wide = {}
        for name in (
            "ch1",
            "ch1-fleet",
            "ch1-summary",
            "tut-basics",
            "tut-map",
            "glossary",
            "numbers",
            "bibliography",
        ):
            page.goto(site["base"] + f"{lang}/{name}.html", wait_until="load")
            page.evaluate(
                "() => document.querySelectorAll('article > *').forEach(el => el.classList.add('laid-out'))"
            )
            page.evaluate(TWO_FRAMES)
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 390:
                wide[name] = width
        assert not wide, f"pages wider than the phone: {wide}"
    finally:
        context.close()


# ---------------------------------------------------------------- 3: sticky bars and anchors


def _bar_bottom(page):
    return page.evaluate(
        "() => Math.max(document.querySelector('.site-header').getBoundingClientRect().bottom,"
        " document.querySelector('.glossary-letters').getBoundingClientRect().bottom)"
    )


# an entry right after another of its letter (the fixture's Chinese glossary has one pair: 谷 …)
NEXT = "[...document.querySelectorAll('.glossary-entry[id]')].find(e => e.previousElementSibling?.matches('.glossary-entry'))"


def test_the_switch_on_the_glossary_carries_the_entry_below_the_letter_bar(site):
    """The A–Z bar sticks under the header: the switch read the entry under the bar (the one
    before the entry in view) and the other page landed its entry under its own bar. (The fixture's
    glossary is short, and its one pair of entries of a letter near its end: room is added below it,
    as a longer glossary has.)"""
    context, page = _open(site, "zh/glossary.html", **PHONE)
    try:
        page.evaluate("() => { document.querySelector('main').style.paddingBottom = innerHeight + 'px'; }")
        page.evaluate(TWO_FRAMES)
        # the entry just below the bar: the one before it sits under the bar, out of sight
        for _ in range(3):
            page.evaluate("() => window.dispatchEvent(new WheelEvent('wheel'))")
            page.evaluate(
                """() => { const entry = """
                + NEXT
                + """;
                  const bar = document.querySelector('.glossary-letters');
                  const line = Math.max(bar.getBoundingClientRect().bottom, document.querySelector('.site-header').getBoundingClientRect().bottom);
                  window.scrollBy(0, entry.getBoundingClientRect().top - line - 6); }"""
            )
            page.wait_for_timeout(150)
        wanted = page.evaluate(f"() => {NEXT}.id")
        top = page.evaluate("(id) => document.getElementById(id).getBoundingClientRect().top", wanted)
        assert 0 < top - _bar_bottom(page) < 20, "set up: the entry starts just below the bar"
        switch = page.locator("[data-lang-switch]")
        switch.dispatch_event("focus")
        assert switch.get_attribute("href").endswith(f"#{wanted}"), (
            f"the switch carries {switch.get_attribute('href')}, not the entry in view ({wanted})"
        )
        switch.tap()
        page.wait_for_url(f"**#{wanted}")
        page.wait_for_load_state("load")
        page.wait_for_timeout(300)
        top = page.evaluate("(id) => document.getElementById(id).getBoundingClientRect().top", wanted)
        bar = _bar_bottom(page)
        assert bar <= top < page.evaluate("innerHeight"), (
            f"{wanted} at {top} px, under the bar ending at {bar}"
        )
    finally:
        context.close()


# every element of the page that sticks to the top (found by its computed style, not by a class),
# with the anchors after it in what it sticks within (a table's heads: the table)
STICKY = """() => { const header = document.querySelector('.site-header');
  const stays = header.getBoundingClientRect().height + Math.min(0, parseFloat(getComputedStyle(header).top) || 0);
  return [...document.querySelectorAll('main *')].filter(el => { const cs = getComputedStyle(el);
      return cs.position === 'sticky' && cs.top !== 'auto' && el.getBoundingClientRect().height; }).map(bar => {
    const scope = bar.closest('table') || bar.parentElement;
    const covers = stays + bar.getBoundingClientRect().height;
    const targets = [...scope.querySelectorAll('[id]')].filter(t => !bar.contains(t) && !t.contains(bar)
      && bar.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING && !t.closest('thead'));
    const short = targets.filter(t => parseFloat(getComputedStyle(t).scrollMarginTop) < covers - 1);
    return {bar: bar.className || bar.tagName, covers, targets: targets.length, short: short.slice(0, 3).map(t => t.id)};
  }); }"""


@pytest.mark.parametrize(
    "path, size", [("zh/glossary.html", PHONE), ("en/glossary.html", LAPTOP), ("en/numbers.html", LAPTOP)]
)
def test_every_anchor_lands_below_the_sticky_bars_of_its_part_of_the_page(site, path, size):
    """Every [data-sticky] bar: the targets after it in its part of the page keep a scroll margin at
    least the header and the bar (on a desk the numbers tables' heads stick, and their rows landed
    under them)."""
    context, page = _open(site, path, **size)
    try:
        page.evaluate(TWO_FRAMES)
        bars = page.evaluate(STICKY)
        assert bars, f"no sticky bar on {path}"
        for bar in bars:
            assert not bar["short"], f"targets land under the sticky bar: {bar}"
    finally:
        context.close()


# ---------------------------------------------------------------- 4: one side-by-side switch


VISIBLE_SWITCHES = """() => [...document.querySelectorAll('.parallel-toggle')].filter(b => {
  const r = b.getBoundingClientRect(), cs = getComputedStyle(b);
  return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden';
}).length"""


def test_one_side_by_side_switch_is_in_view_at_every_width(site):
    """Each page is loaded once and its window set to each width in turn, as a tablet turned or a
    window dragged would (one load per width cost six times the renderer's work for one CSS rule)."""
    for path in ("en/ch1.html", "zh/ch1-fleet.html", "en/tut-basics.html"):
        context, page = _open(site, path, viewport={"width": 390, "height": 800})
        try:
            for width in (390, 800, 1024, 1100, 1280, 1600):
                page.set_viewport_size({"width": width, "height": 800})
                page.evaluate(TWO_FRAMES)
                assert page.evaluate(VISIBLE_SWITCHES) == 1, f"{path} at {width} px"
                if width < 1100:  # the contents open as a panel over the page, with their own copy
                    page.locator("[data-toc-toggle]").click()
                    page.locator("#toc").wait_for(state="visible")
                    assert page.evaluate(VISIBLE_SWITCHES) == 1, f"{path} at {width} px, contents open"
                    assert page.locator("[data-parallel-also]").is_visible()
                    page.keyboard.press("Escape")
                    page.locator("#toc").wait_for(state="hidden")
        finally:
            context.close()


# ---------------------------------------------------------------- 5: back to top and pinned bars


def test_back_to_top_never_stands_over_a_pinned_lab_summary(site):
    """Scrolling back up through Lab A on a phone: the button was shown before the summary came
    back from standing aside (its outputs had left the screen) and stayed over it."""
    context, page = _open(site, "en/ch1.html", viewport={"width": 390, "height": 844})
    try:
        page.locator(".lab-panel").first.scroll_into_view_if_needed()
        page.wait_for_selector(".lab-summary", state="attached")
        page.wait_for_timeout(800)
        top, height = page.evaluate(
            "() => { const r = document.querySelector('.lab-panel').getBoundingClientRect(); return [r.top + scrollY, r.height]; }"
        )
        page.evaluate("(y) => scrollTo(0, y)", top + height + 200)
        page.wait_for_timeout(300)
        page.mouse.move(200, 400)
        overlaps = []
        for _ in range(int((height + 900) / 50)):
            page.mouse.wheel(0, -50)
            page.wait_for_timeout(80)
            if page.evaluate(OVER):
                page.wait_for_timeout(400)  # settled: a moment's overlap while a frame is pending is no fault
                if page.evaluate(OVER):
                    overlaps.append(page.evaluate("scrollY"))
        assert not overlaps, f"back-to-top over the pinned summary at scrollY {overlaps}"
    finally:
        context.close()


OVER = """() => { const b = document.querySelector('.to-top'), r = b.getBoundingClientRect();
  if (getComputedStyle(b).display === 'none' || !r.width) return false;
  return [...document.querySelectorAll('.lab-summary')].some(s => { const q = s.getBoundingClientRect();
    return getComputedStyle(s).visibility !== 'hidden' && q.height && q.left < r.right && q.right > r.left && q.top < r.bottom && q.bottom > r.top; }); }"""
