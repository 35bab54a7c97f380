"""The development map (page tut-map of the reader's fixture book, tests/projects/reader) in Chromium: a readable list without JavaScript; with it, a
node selected by keyboard, click or tap shows what it solved, what it left, its year and its
citation in the details panel; the document never scrolls sideways at 390 px."""

from __future__ import annotations

import re

import pytest

from atlas_site.gates.browser import render_everything
from conftest import FIRST_LOAD_HELD, errors_in, open_page

PAGE = "tut-map"
ARROWS = {"zh": "问题驱动的演进或组合", "en": "problem-driven evolution or composition"}
LANGS = ("zh", "en")


@pytest.fixture(scope="module")
def site(reader_build, reader_site_url, chromium):
    """The reader's fixture book (built once per run) served on 127.0.0.1, and the run's Chromium."""
    return {"base": reader_site_url, "browser": chromium, "book": reader_build[0].book}


def _nodes(book):
    return {node.id: node for node in book.map_nodes}


def _later(book, node_id):
    return [n.id for n in book.map_nodes if node_id in n.after]


def _sample(book):
    """A node with arrows both in and out, so highlighting can be checked both ways."""
    for node in book.map_nodes:
        if node.after and _later(book, node.id):
            return node
    pytest.fail("no map node has both earlier and later nodes")


def _open(site, lang, *, width=1280, height=800, **options):
    context, page = open_page(
        site, f"{lang}/{PAGE}.html", viewport={"width": width, "height": height}, **options
    )
    if options.get("java_script_enabled", True):
        _come_near(page)
    return context, page, errors_in(page)


def _come_near(page):
    """Scroll to the map as a reader does: it is built when they come within half a screen."""
    page.locator("[data-devmap]").evaluate("el => el.scrollIntoView({block: 'start'})")
    page.wait_for_selector("[data-devmap].is-enhanced", timeout=5000)
    page.wait_for_timeout(100)  # its first frame scrolls it to the busiest years and draws the arrows


def _panel_shows(page, node, lang):
    panel = page.locator("[data-devmap-panel]")
    assert panel.get_attribute("aria-live") == "polite"

    def shown(field: str) -> str:  # English is set with typographic quotes (render/typography.py)
        return panel.locator(f"[data-field={field}]").inner_text().strip().replace("\u2019", "'")

    assert shown("title") == node.title[lang]
    assert panel.locator("[data-field=year]").inner_text().strip() == str(node.year)
    assert shown("solved") == node.solved[lang]
    assert shown("left") == node.left[lang]
    cited = panel.locator("[data-field=cites] a.cite").evaluate_all("links => links.map(a => a.dataset.cite)")
    assert cited == list(node.cites)
    assert panel.locator("[id]").count() == 0, "the panel copies citations without their ids"


def _sideways(page):
    return page.evaluate(
        "() => [document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]"
    )


@pytest.mark.parametrize("lang", LANGS)
def test_readable_list_without_javascript(site, lang):
    book = site["book"]
    nodes = _nodes(book)
    assert len(nodes) >= 10 and len(book.map_routes) >= 3  # the fixture's 14 on 3 (the Atlas: 40+ on 6)
    context, page, _ = _open(site, lang, java_script_enabled=False)
    try:
        assert page.locator(".devmap-stage").count() == 0
        assert page.locator("[data-devmap-list]").is_visible()
        render_everything(page)  # the text of blocks far from the screen is read as laid out
        assert ARROWS[lang] in page.locator(".devmap-legend").inner_text()
        routes = page.locator(".devmap-route")
        assert routes.count() == len(book.map_routes)
        for index, route in enumerate(book.map_routes):
            section = routes.nth(index)
            assert section.locator("h3").inner_text().startswith(route.title[lang])
            assert section.locator(".devmap-route-summary").inner_text().strip() == route.summary[lang]
            assert section.locator("ol > li").count() == sum(1 for n in nodes.values() if n.route == route.id)
        items = page.locator("ol.devmap-nodes > li[id^='map-']")
        assert items.count() == len(nodes)
        ids = items.evaluate_all("items => items.map(li => li.id)")
        assert len(set(ids)) == len(ids)
        sample = _sample(book)
        item = page.locator(f"#map-{sample.id}")
        assert sample.title[lang] in item.locator("summary").inner_text()
        item.locator("summary").click()  # native <details>: works without script
        assert item.locator("[data-field=solved]").is_visible()
        assert item.locator("[data-field=solved]").inner_text().strip() == sample.solved[lang]
        assert item.locator("[data-field=left]").inner_text().strip() == sample.left[lang]
        assert item.locator("[data-field=year]").inner_text().strip() == str(sample.year)
        assert item.locator("[data-field=cites] a.cite").count() == len(sample.cites)
        earlier = item.locator("[data-field=after] a").evaluate_all(
            "links => links.map(a => a.getAttribute('href'))"
        )
        assert earlier == [f"#map-{a}" for a in sample.after]
        width, client = _sideways(page)
        assert width <= client
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_idle_browser_builds_the_map_after_the_load_so_the_page_keeps_its_length(site, lang):
    """Review 31-k: the map's readable list folded away only as the reader came near, and the page
    lost 3,094 px (390 px) under the scrollbar. Once the page has loaded and the browser is idle,
    the map's code is fetched and the map built without the reader scrolling; the page's length
    then holds."""
    context = site["browser"].new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    try:
        page.goto(f"{site['base']}{lang}/{PAGE}.html", wait_until="load")
        page.wait_for_selector("[data-devmap].is-enhanced", state="attached", timeout=5000)
        timing = page.evaluate(
            """() => ({load: performance.getEntriesByType('navigation')[0].loadEventStart,
                 map: performance.getEntriesByType('resource').filter(r => r.name.endsWith('/devmap.js')).map(r => r.startTime),
                 y: scrollY})"""
        )
        assert timing["y"] == 0 and timing["map"] and min(timing["map"]) >= timing["load"], timing
        page.wait_for_timeout(300)
        length = page.evaluate("document.documentElement.scrollHeight")
        page.mouse.wheel(0, length)
        page.wait_for_timeout(300)
        assert page.evaluate("document.documentElement.scrollHeight") == length, "the length held"
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_map_is_built_when_the_reader_comes_near_or_the_address_names_a_node(site, lang):
    """The first load of a phone does not pay for the map below its first screen: the readable list
    stands there until the reader scrolls within half a screen, and the map's code is fetched only
    then (devmap.js was 5.7 KB gzip of zh/tf-map.html's first load, which had 361 B left of its
    budget); an address naming a node builds it at once and shows that node."""
    context = site["browser"].new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.add_init_script(FIRST_LOAD_HELD)  # the idle browser would build it without the reader
    fetched = []
    page.on("request", lambda request: fetched.append(request.url.rsplit("/", 1)[-1]))
    try:
        page.goto(f"{site['base']}{lang}/{PAGE}.html", wait_until="load")
        page.wait_for_timeout(300)
        assert "devmap.js" not in fetched, "the map's code is not part of the first load"
        root = page.locator("[data-devmap]")
        assert root.evaluate("el => el.getBoundingClientRect().top") > 844 * 1.5, (
            "the map starts below the first screen and a half"
        )
        assert (
            page.locator(".devmap-stage").count() == 0
            and root.get_attribute("class").count("is-enhanced") == 0
        )
        page.evaluate(
            "(y) => window.scrollTo(0, y)",
            root.evaluate("el => el.getBoundingClientRect().top + scrollY - 844 * 1.4"),
        )
        page.wait_for_selector("[data-devmap].is-enhanced", timeout=5000)
        assert fetched.count("devmap.js") == 1, fetched
        assert page.locator(".devmap-chip").count() == len(site["book"].map_nodes)
        sample = _sample(site["book"])
        page.close()
        page = context.new_page()  # a new visit, not a jump within the page already built
        page.goto(f"{site['base']}{lang}/{PAGE}.html#map-{sample.id}", wait_until="load")
        page.wait_for_selector("[data-devmap].is-enhanced", timeout=5000)
        chip = page.locator(f".devmap-chip[data-node='{sample.id}']")
        assert chip.get_attribute("aria-pressed") == "true", "the node the address names is selected"
        page.wait_for_timeout(200)
        box = chip.bounding_box()
        assert 0 <= box["y"] <= 844 and 0 <= box["x"] <= 390, f"and in view: {box}"
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_keyboard_selects_a_node(site, lang):
    book = site["book"]
    sample = _sample(book)
    context, page, errors = _open(site, lang)
    try:
        assert page.locator("[data-devmap-list]").is_hidden()
        chips = page.locator(".devmap-chip")
        assert chips.count() == len(book.map_nodes)
        assert page.locator(".devmap-chip[tabindex='0']").count() == 1, "one node is in the tab order"
        chip = page.locator(f".devmap-chip[data-node='{sample.id}']")
        chip.focus()
        page.keyboard.press("Enter")
        assert chip.get_attribute("aria-pressed") == "true"
        _panel_shows(page, sample, lang)
        assert page.locator(".devmap-edge.is-in").count() == len(sample.after)
        assert page.locator(".devmap-edge.is-out").count() == len(_later(book, sample.id))
        # arrow keys move along the lane in time; Space selects
        lane = {n.id for n in book.map_nodes if n.route == sample.route}
        assert len(lane) > 1
        page.keyboard.press("Home")
        first = page.evaluate("() => document.activeElement.dataset.node")
        assert first == page.evaluate(
            "() => document.activeElement.closest('.devmap-lane').querySelector('.devmap-chip').dataset.node"
        )
        page.keyboard.press("ArrowRight")
        moved = page.evaluate("() => document.activeElement.dataset.node")
        assert moved in lane and moved != first
        page.keyboard.press(" ")
        _panel_shows(page, _nodes(book)[moved], lang)
        page.keyboard.press("ArrowDown")
        below = page.evaluate("() => document.activeElement.dataset.node")
        assert _nodes(book)[below].route != sample.route
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_click_and_panel_links_select_nodes(site, lang):
    book = site["book"]
    sample = _sample(book)
    context, page, errors = _open(site, lang)
    try:
        page.locator(f".devmap-chip[data-node='{sample.id}']").click()
        _panel_shows(page, sample, lang)
        # the panel's "evolved from" buttons walk backwards along the arrows
        earlier = _nodes(book)[sample.after[0]]
        page.locator(f"[data-devmap-panel] [data-field=after] [data-node='{earlier.id}']").click()
        _panel_shows(page, earlier, lang)
        assert page.evaluate("() => document.activeElement.dataset.node") == earlier.id
        # the list view shows the no-script list again
        page.locator(".devmap-view").nth(1).click()
        assert page.locator("[data-devmap-list]").is_visible()
        assert page.locator(".devmap-mapbox").is_hidden()
        page.locator(".devmap-view").nth(0).click()
        assert page.locator(".devmap-mapbox").is_visible()
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_touch_and_no_sideways_scroll_at_390(site, lang):
    book = site["book"]
    sample = _sample(book)
    context, page, errors = _open(site, lang, width=390, height=844, has_touch=True, is_mobile=True)
    try:
        width, client = _sideways(page)
        assert width <= client, f"document scrolls sideways at 390 px: {width} > {client}"
        box = page.locator(".devmap-scroll")
        assert box.evaluate("el => el.scrollWidth > el.clientWidth"), "the map scrolls inside its own box"
        chip = page.locator(f".devmap-chip[data-node='{sample.id}']")
        chip.scroll_into_view_if_needed()
        chip.tap()
        _panel_shows(page, sample, lang)
        width, client = _sideways(page)
        assert width <= client, f"document scrolls sideways at 390 px after selecting: {width} > {client}"
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_tap_closes_the_details_and_the_node_keeps_the_focus(site, lang):
    """Review 31-q #1: on a phone only Escape closed the details, and the sheet stayed over the map.
    A 44 px button in the panel closes them: the selection clears, and the node has the focus."""
    sample = _sample(site["book"])
    context, page, errors = _open(site, lang, width=390, height=844, has_touch=True, is_mobile=True)
    try:
        chip = page.locator(f".devmap-chip[data-node='{sample.id}']")
        chip.scroll_into_view_if_needed()
        chip.tap()
        close = page.locator(".devmap-panel-close")
        box = close.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, box
        assert close.get_attribute("aria-label"), "the button says what it does"
        close.tap()
        assert page.locator(".devmap.has-selection").count() == 0, "the selection is cleared"
        assert chip.get_attribute("aria-pressed") == "false"
        assert page.evaluate("document.activeElement.dataset.node") == sample.id, "the node keeps the focus"
        assert not errors, errors
    finally:
        context.close()


def _years(book):
    years = sorted({n.year for n in book.map_nodes})
    return list(range(years[0], years[-1] + 1)), {y for y in range(years[0], years[-1] + 1)} - {
        n.year for n in book.map_nodes
    }


@pytest.mark.parametrize("width, height", [(390, 844), (1280, 800)])
def test_every_year_is_on_the_axis_and_a_year_without_nodes_is_a_visible_gap(site, width, height):
    book = site["book"]
    every, empty = _years(book)
    assert empty, "the map's data skips a year (the point of this test)"
    context, page, errors = _open(site, "en", width=width, height=height)
    try:
        heads = page.locator(".devmap-year-head").evaluate_all(
            "heads => heads.map(h => [+h.dataset.year, h.classList.contains('is-gap'), h.getBoundingClientRect().width])"
        )
        assert [year for year, _, _ in heads] == every, "one column per calendar year, none skipped"
        assert {year for year, gap, _ in heads if gap} == empty
        widths = {gap: [w for _, g, w in heads if g == gap] for gap in (True, False)}
        assert max(widths[True]) < min(widths[False]), (
            "a gap year is narrower than a year with nodes, but present"
        )
        misplaced = page.evaluate("""() => {
          const heads = Object.fromEntries([...document.querySelectorAll('.devmap-year-head')].map(h => [h.dataset.year, h.getBoundingClientRect()]));
          return [...document.querySelectorAll('.devmap-chip')].filter(c => {
            const b = c.getBoundingClientRect(), h = heads[c.textContent.slice(0, 4)];
            return !h || b.left < h.left - 1 || b.right > h.right + 1; }).map(c => c.dataset.node);
        }""")
        assert misplaced == [], f"nodes outside their year's column: {misplaced}"
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_at_390_the_map_scrolls_only_sideways_shows_every_lane_and_opens_where_the_nodes_are(site, lang):
    book = site["book"]
    context, page, errors = _open(site, lang, width=390, height=844, has_touch=True, is_mobile=True)
    try:
        box = page.locator(".devmap-scroll")
        state = box.evaluate("""el => {
          const r = el.getBoundingClientRect();
          const lanes = [...el.querySelectorAll('.devmap-lane')].map(l => l.getBoundingClientRect());
          const visible = [...el.querySelectorAll('.devmap-chip')].filter(c => {
            const b = c.getBoundingClientRect(); return b.right > r.left && b.left < r.right; }).length;
          return {vertical: el.scrollHeight - el.clientHeight, lanes: lanes.length,
                  inside: lanes.every(l => l.top >= r.top - 1 && l.bottom <= r.bottom + 1), left: el.scrollLeft, visible,
                  columns: [...el.querySelectorAll('.devmap-year-head:not(.is-gap)')].filter(h => {
                    const b = h.getBoundingClientRect(); return b.left >= r.left - 1 && b.right <= r.right + 1; }).length};
        }""")
        assert state["vertical"] <= 1, (
            "the map box never scrolls up and down: the page is the one vertical axis"
        )
        assert state["lanes"] == len(book.map_routes) and state["inside"], "every lane is inside the box"
        assert state["columns"] >= 2, f"at least two whole year columns fit on a phone: {state}"
        assert state["left"] > 0, "the map does not open on its sparse first years"
        at_start = box.evaluate("""el => { const keep = el.scrollLeft; el.scrollLeft = 0; const r = el.getBoundingClientRect();
          const n = [...el.querySelectorAll('.devmap-chip')].filter(c => { const b = c.getBoundingClientRect();
            return b.right > r.left && b.left < r.right; }).length; el.scrollLeft = keep; return n; }""")
        assert state["visible"] > at_start, (
            f"it opens where more nodes are ({state['visible']} in view, {at_start} at the start)"
        )
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width, height", [(390, 844), (1280, 800)], ids=["phone", "desk"])
def test_a_chosen_node_and_its_details_are_on_screen_together(site, lang, width, height):
    """Review 31-n #6: on a desk the details covered the node just clicked (one reading of the
    panel's edge, taken before it had its full height)."""
    book = site["book"]
    touch = width < 500
    context, page, errors = _open(site, lang, width=width, height=height, has_touch=touch, is_mobile=touch)
    try:
        for node in (book.map_nodes[3], _sample(book), book.map_nodes[-1]):
            chip = page.locator(f".devmap-chip[data-node='{node.id}']")
            chip.scroll_into_view_if_needed()
            # the worst place to tap: just above where the details panel sits (the bottom edge at first)
            page.evaluate(
                """(id) => {
              const c = document.querySelector(`.devmap-chip[data-node='${id}']`).getBoundingClientRect();
              const pinned = document.querySelector('.devmap.has-selection [data-devmap-panel]');
              const edge = pinned ? pinned.getBoundingClientRect().top : innerHeight;
              window.scrollBy(0, c.bottom - edge + 4);
            }""",
                node.id,
            )
            chip.tap() if touch else chip.click()
            _panel_shows(page, node, lang)
            page.wait_for_timeout(100)  # the frames in which the page settles
            chip_box, panel_box = chip.bounding_box(), page.locator("[data-devmap-panel]").bounding_box()
            assert panel_box["y"] >= 0 and panel_box["y"] + panel_box["height"] <= height + 1, (
                "the details are on screen"
            )
            assert 0 <= chip_box["y"] and chip_box["y"] + chip_box["height"] <= panel_box["y"] + 1, (
                f"the node stays in view above its details: node {chip_box}, panel {panel_box}"
            )
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_at_390_the_map_box_fades_its_edges_and_says_it_scrolls_sideways(site, lang):
    """Review 31-g #3: a canvas three screens wide cropped in its box, with nothing to say it goes on.
    Like a wide table's, the map's frame fades an edge with more beyond it and marks it with a ⇆."""
    context, page, errors = _open(site, lang, width=390, height=844, has_touch=True, is_mobile=True)
    cue = """el => { const box = el.querySelector('.devmap-scroll');
      const end = getComputedStyle(el, '::after'), start = getComputedStyle(el, '::before');
      return {more: box.getAttribute('data-more'), left: box.scrollLeft, room: box.scrollWidth - box.clientWidth,
              end: end.content, endWidth: parseFloat(end.width) || 0, endBg: end.backgroundImage,
              endPad: parseFloat(end.paddingTop) || 0, years: el.querySelector('.devmap-axis').getBoundingClientRect().height,
              start: start.content, startWidth: parseFloat(start.width) || 0}; }"""
    try:
        frame = page.locator(".devmap-mapbox")
        seen = frame.evaluate(cue)
        assert seen["room"] > 300 and seen["more"] == "both", seen  # it opens on its busiest years
        assert "⇆" in seen["end"] and seen["endWidth"] >= 30 and "gradient" in seen["endBg"], seen
        # review 31-t #6: in the row of years, the ⇆ covered the year cut at the edge
        assert seen["endPad"] >= seen["years"], seen
        assert seen["start"] not in ("none", "normal") and seen["startWidth"] > 0, "the start edge fades too"
        page.locator(".devmap-scroll").evaluate("el => { el.scrollLeft = el.scrollWidth; }")
        page.wait_for_function("() => document.querySelector('.devmap-scroll').dataset.more === 'start'")
        seen = frame.evaluate(cue)
        assert seen["end"] in ("none", "normal"), "scrolled to its end, nothing covers that end"
        assert "⇆" in seen["start"], seen
        page.locator(".devmap-scroll").evaluate("el => { el.scrollLeft = 0; }")
        page.wait_for_function("() => document.querySelector('.devmap-scroll').dataset.more === 'end'")
        assert "⇆" in frame.evaluate(cue)["end"]
        assert not errors, errors
    finally:
        context.close()


def _luminance(rgb):
    def channel(c):
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a, b):
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1280])
def test_a_selected_nodes_arrows_are_at_least_3_to_1_against_the_lanes(site, scheme, width):
    """Review 31-g #3: the arrows were 1.2 px hairlines at opacity .28 (about 1.5:1), hard to follow.
    The arrows a reader follows, those of the node they chose, are at least 3:1 against every
    lane's background (Review 31-p #6 (1) made the others a faint texture: see the test below)."""
    options = {"has_touch": True, "is_mobile": True} if width == 390 else {}
    context, page, errors = _open(site, "en", width=width, height=844, color_scheme=scheme, **options)
    try:
        page.locator(f".devmap-chip[data-node='{_sample(site['book']).id}']").evaluate("el => el.click()")
        for kind in ("is-in", "is-out"):
            _strong_arrow(page, kind, scheme, width)
        assert not errors, errors
    finally:
        context.close()


def _strong_arrow(page, kind, scheme, width):
    seen = page.evaluate(
        """(kind) => {
          const rgb = s => (s.match(/[\\d.]+/g) || []).slice(0, 4).map(Number);
          const edge = document.querySelector('.devmap-edge.' + kind), style = getComputedStyle(edge);
          let alpha = 1;
          for (let el = edge; el && el.tagName.toLowerCase() !== 'div'; el = el.parentElement) alpha *= parseFloat(getComputedStyle(el).opacity);
          const stroke = rgb(style.stroke);
          if (stroke.length === 4) alpha *= stroke[3];
          return {stroke: stroke.slice(0, 3), alpha, width: parseFloat(style.strokeWidth),
                  lanes: [...new Set([...document.querySelectorAll('.devmap-lane')].map(l => getComputedStyle(l).backgroundColor))].map(rgb)};
        }""",
        kind,
    )
    assert seen["width"] >= 1.75, f"the arrows are {seen['width']} px lines"
    for lane in seen["lanes"]:
        shown = [
            seen["alpha"] * s + (1 - seen["alpha"]) * b for s, b in zip(seen["stroke"], lane[:3], strict=True)
        ]
        ratio = _contrast(shown, lane[:3])
        assert ratio >= 3, f"a {kind} arrow is {ratio:.2f}:1 against a lane ({scheme}, {width} px)"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1280])
def test_before_a_choice_the_arrows_are_faint_and_lie_under_the_nodes_and_lane_titles(site, scheme, width):
    """Review 31-p #6 (1): before anything was chosen every arrow was drawn dark at full strength, across
    the lane titles, and the map read as a tangle. Unchosen, the arrows are thin and faint, and the
    nodes, the lane titles and the row of years are opaque and stacked above the arrows' layer."""
    options = {"has_touch": True, "is_mobile": True} if width == 390 else {}
    context, page, errors = _open(site, "en", width=width, height=844, color_scheme=scheme, **options)
    try:
        seen = page.evaluate(
            """() => {
          const z = el => { const s = getComputedStyle(el); return s.position === 'static' ? null : (parseInt(s.zIndex, 10) || 0); };
          const opaque = el => { const c = getComputedStyle(el).backgroundColor.match(/[\\d.]+/g).map(Number);
            return c.length === 3 || c[3] === 1; };
          const edges = [...document.querySelectorAll('.devmap-edge')].map(e => {
            const s = getComputedStyle(e); return [parseFloat(s.opacity), parseFloat(s.strokeWidth)]; });
          const above = sel => [...document.querySelectorAll(sel)].map(el => [el.className, z(el), opaque(el)]);
          return {edges, layer: z(document.querySelector('.devmap-arrows')),
                  over: above('.devmap-chip').concat(above('.devmap-axis'),
                    above(matchMedia('(max-width: 600px)').matches ? '.devmap-lane-title' : '.devmap-lane-head'))};
        }"""
        )
        assert seen["edges"], "the map draws its arrows"
        loud = [e for e in seen["edges"] if e[0] > 0.4 or e[1] > 1.5]
        assert not loud, f"unchosen arrows are faint (opacity <= .4) and thin (<= 1.5 px): {loud[:3]}"
        under = [o for o in seen["over"] if o[1] is None or o[1] <= seen["layer"] or not o[2]]
        assert not under, f"opaque and above the arrows ({scheme}, {width} px): {under[:3]}"
        page.locator(f".devmap-chip[data-node='{_sample(site['book']).id}']").evaluate("el => el.click()")
        strong = page.locator(".devmap-edge.is-out").evaluate("e => parseFloat(getComputedStyle(e).opacity)")
        assert strong == 1, "the chosen node's arrows are drawn at full strength"
        assert not errors, errors
    finally:
        context.close()


PAGER = {"zh": ("更早：{years}", "更晚：{years}"), "en": ("earlier: {years}", "later: {years}")}
HIDDEN_YEARS = """(el, side) => {
  const box = el.getBoundingClientRect(), inset = el.querySelector('.devmap-corner').getBoundingClientRect().width;
  const years = [...el.querySelectorAll('.devmap-year-head:not(.is-gap)')].filter(h => {
    const r = h.getBoundingClientRect();
    return side === 'earlier' ? r.left < box.left + inset - 1 : r.left >= box.left + inset - 1 && r.right > box.right + 1;
  }).map(h => h.dataset.year);
  return years.length ? (years.length > 1 ? years[0] + '\\u2013' + years[years.length - 1] : years[0]) : '';
}"""


@pytest.mark.parametrize("lang", LANGS)
def test_at_1280_the_map_takes_the_width_and_names_the_years_out_of_view_on_buttons(site, lang):
    """Review 31-p #6 (2): at 1280 px the map's box stopped short of its column, cut the last year under
    a fade and opened on the busy years with a small ⇆ the only sign of the earlier ones. The map
    takes its column's whole width; two buttons above it name the years out of view on each side
    and, from the keyboard too, go there; one with nothing more on its side is hidden and hands the
    focus to the other."""
    context, page, errors = _open(site, lang, width=1280, height=800)
    try:
        room = page.evaluate("""() => { const main = document.querySelector('.layout > .page');
          const pad = parseFloat(getComputedStyle(main).paddingRight);
          return [main.parentElement.getBoundingClientRect().right - parseFloat(getComputedStyle(main.parentElement).paddingRight) - pad,
                  document.querySelector('.devmap-mapbox').getBoundingClientRect().right]; }""")
        assert room[1] >= room[0] - 1, f"the map reaches the end of its column: {room}"
        scroll = page.locator(".devmap-scroll")
        assert scroll.evaluate("el => el.scrollWidth > el.clientWidth"), (
            "the fixture's map is wider than a desk"
        )
        earlier, later = page.locator(".devmap-page.is-earlier"), page.locator(".devmap-page.is-later")
        for _ in range(2):  # at the start; then scrolled by the reader
            for button, side, words in (
                (earlier, "earlier", PAGER[lang][0]),
                (later, "later", PAGER[lang][1]),
            ):
                years = scroll.evaluate(HIDDEN_YEARS, side)
                page.wait_for_function(
                    "([el, shown]) => el.hidden === !shown", arg=[button.element_handle(), bool(years)]
                )
                if years:
                    assert button.inner_text().replace("\n", "").strip("←→ ") == words.format(years=years)
            scroll.evaluate("el => { el.scrollLeft = 0; }")
        assert earlier.is_hidden() and later.is_visible(), "at its start only the later years are named"
        later.focus()
        seen = []
        for _ in range(10):
            if later.is_hidden():
                break
            before = scroll.evaluate("el => el.scrollLeft")
            first = scroll.evaluate(HIDDEN_YEARS, "later").split("\u2013")[0]
            page.keyboard.press("Enter")
            page.wait_for_function("([el, x]) => el.scrollLeft > x", arg=[scroll.element_handle(), before])
            seen.append(first)
            assert first not in scroll.evaluate(HIDDEN_YEARS, "later"), (
                "the first year beyond the edge is now shown"
            )
            # the button says what is left once the scroll has settled: read before that (a busy
            # machine), the last page's button was still shown and Enter on it moved nothing
            page.wait_for_function(
                "([el, shown]) => el.hidden === !shown",
                arg=[later.element_handle(), bool(scroll.evaluate(HIDDEN_YEARS, "later"))],
            )
        assert later.is_hidden() and scroll.evaluate(
            "el => el.scrollLeft + el.clientWidth >= el.scrollWidth - 1"
        )
        assert page.evaluate("() => document.activeElement.classList.contains('is-earlier')"), (
            "the focus went to the other button"
        )
        page.keyboard.press(" ")
        page.wait_for_function("() => !document.querySelector('.devmap-page.is-later').hidden")
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_at_390_the_details_leave_the_node_and_its_arrows_in_view(site, lang, scheme):
    """Review 31-p #6 (3): on a phone the details covered over half the screen and the chosen node's
    arrows ran on under them. The sheet is at most 40 % of the window and scrolls inside; the node
    and the nodes its arrows lead to (their near edges, where the arrows end) stand above it, in the
    map's box (the nodes it follows too, where they fit: here they lie three years back)."""
    book = site["book"]
    context, page, errors = _open(
        site, lang, width=390, height=844, has_touch=True, is_mobile=True, color_scheme=scheme
    )
    # a node whose arrows reach other lanes and other years: the hard case on a narrow screen
    node = next(
        n
        for n in book.map_nodes
        if len(n.after) + len(_later(book, n.id)) >= 2
        and any(_nodes(book)[x].route != n.route for x in [*n.after, *_later(book, n.id)])
    )
    try:
        chip = page.locator(f".devmap-chip[data-node='{node.id}']")
        chip.scroll_into_view_if_needed()
        page.evaluate(
            "(y) => window.scrollBy(0, y)",
            chip.evaluate("c => c.getBoundingClientRect().bottom - innerHeight + 60"),
        )
        chip.tap()
        _panel_shows(page, node, lang)
        page.wait_for_timeout(150)
        seen = page.evaluate(
            """() => {
          const panel = document.querySelector('[data-devmap-panel]'), p = panel.getBoundingClientRect();
          const box = document.querySelector('.devmap-scroll').getBoundingClientRect();
          const head = document.querySelector('.site-header').getBoundingClientRect().bottom;
          const own = document.querySelector('.devmap-chip.is-selected').getBoundingClientRect();
          const off = [...document.querySelectorAll('.devmap-chip.is-selected, .devmap-chip.is-after')].filter(c => {
            const r = c.getBoundingClientRect();
            const near = r.left >= own.right ? [r.left, r.left + 24] : r.right <= own.left ? [r.right - 24, r.right] : [r.left, r.right];
            return r.top < head || r.bottom > p.top || near[0] < box.left || near[1] > box.right;
          }).map(c => c.dataset.node);
          return {share: p.height / innerHeight, scrolls: getComputedStyle(panel).overflowY, off};
        }"""
        )
        assert seen["share"] <= 0.41, f"the details take {seen['share']:.0%} of the window"
        assert seen["scrolls"] in ("auto", "scroll"), "and scroll inside"
        assert seen["off"] == [], f"out of view or under the details: {seen['off']}"
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize(("lang", "width"), [("en", 390), ("zh", 1280)])
def test_the_year_the_map_opens_on_stands_clear_of_the_edges_fade(site, lang, width):
    """Review 31-r #6: the map opened with its first year right at the lane titles, where the fade
    that says there are earlier years washed out that year's nodes. The year it opens on, and the
    year a press of "later" brings in, begins past the fade."""
    context, page, errors = _open(site, lang, width=width, height=900)
    try:
        scroll = page.locator(".devmap-scroll")
        first_clear = """(el) => {
          const box = el.getBoundingClientRect();
          const corner = el.querySelector('.devmap-corner');
          const inset = corner ? corner.getBoundingClientRect().width : 0;
          const fade = 2.5 * parseFloat(getComputedStyle(document.documentElement).fontSize);
          const heads = [...el.querySelectorAll('.devmap-year-head')].map((h) => h.getBoundingClientRect().left);
          const first = heads.find((left) => left >= box.left + inset - 1);
          return {more: el.getAttribute('data-more'), gap: first - (box.left + inset), fade};
        }"""
        seen = scroll.evaluate(first_clear)
        assert seen["more"] in ("start", "both"), seen  # it opens past earlier years: the fade is there
        assert seen["gap"] >= seen["fade"] - 2, seen
        later = page.locator(".devmap-page.is-later")
        if later.is_visible():
            before = scroll.evaluate("el => el.scrollLeft")
            later.click()
            page.wait_for_function("([el, x]) => el.scrollLeft > x", arg=[scroll.element_handle(), before])
            seen = scroll.evaluate(first_clear)
            assert seen["gap"] >= seen["fade"] - 2 or seen["more"] == "start", seen
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_on_a_phone_every_lane_names_the_years_of_its_nodes(site, lang):
    """Review 31-u #2: on a phone the row of years scrolled away by the later lanes, which became a
    grid of chips with no time. Each cell holding nodes names its year above them there (and the
    chips' text is 13 px); at a desk's width the row of years stands over every lane instead."""
    context, page, errors = _open(site, lang, width=390, height=844, has_touch=True, is_mobile=True)
    try:
        cells = page.eval_on_selector_all(
            ".devmap-cell",
            """cells => cells.map(cell => [cell.querySelectorAll('.devmap-chip').length,
                 getComputedStyle(cell, '::before').content, cell.closest('.devmap-lane') ? 1 : 0,
                 parseFloat(getComputedStyle(cell.querySelector('.devmap-chip') || cell).fontSize)])""",
        )
        shown = [content.strip('"') for chips, content, _lane, _px in cells if chips]
        assert shown and all(re.fullmatch(r"\d{4}", year) for year in shown), shown[:5]
        assert all(px >= 13 for chips, _c, _l, px in cells if chips), "chips' text at 13 px or more"
        assert all(content in ("none", "normal") for chips, content, _l, _px in cells if not chips)
        assert errors == []
    finally:
        context.close()
    context, page, _errors = _open(site, lang)
    try:
        content = page.eval_on_selector(
            ".devmap-cell:has(.devmap-chip)", "c => getComputedStyle(c, '::before').content"
        )
        assert content in ("none", "normal"), "at a desk's width the row of years names them"
    finally:
        context.close()
