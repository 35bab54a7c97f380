"""The development map (page tf-map) in Chromium: a readable list without JavaScript; with it, a
node selected by keyboard, click or tap shows what it solved, what it left, its year and its
citation in the details panel; the document never scrolls sideways at 390 px."""
from __future__ import annotations

import pytest

PAGE = "tf-map"
ARROWS = {"zh": "问题驱动的演进或组合", "en": "problem-driven evolution or composition"}
LANGS = ("zh", "en")


@pytest.fixture(scope="module")
def site(real_book, real_site_url, chromium):
    """The real site (built once per run) served on 127.0.0.1, and the run's Chromium."""
    return {"base": real_site_url, "browser": chromium, "book": real_book.book}


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
    context = site["browser"].new_context(viewport={"width": width, "height": height}, **options)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(f"{site['base']}{lang}/{PAGE}.html", wait_until="load")
    return context, page, errors


def _panel_shows(page, node, lang):
    panel = page.locator("[data-devmap-panel]")
    assert panel.get_attribute("aria-live") == "polite"
    assert panel.locator("[data-field=title]").inner_text().strip() == node.title[lang]
    assert panel.locator("[data-field=year]").inner_text().strip() == str(node.year)
    assert panel.locator("[data-field=solved]").inner_text().strip() == node.solved[lang]
    assert panel.locator("[data-field=left]").inner_text().strip() == node.left[lang]
    cited = panel.locator("[data-field=cites] a.cite").evaluate_all("links => links.map(a => a.dataset.cite)")
    assert cited == list(node.cites)
    assert panel.locator("[id]").count() == 0, "the panel copies citations without their ids"


def _sideways(page):
    return page.evaluate("() => [document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]")


@pytest.mark.parametrize("lang", LANGS)
def test_readable_list_without_javascript(site, lang):
    book = site["book"]
    nodes = _nodes(book)
    assert len(nodes) >= 40 and len(book.map_routes) == 6
    context, page, _ = _open(site, lang, java_script_enabled=False)
    try:
        assert page.locator(".devmap-stage").count() == 0
        assert page.locator("[data-devmap-list]").is_visible()
        assert ARROWS[lang] in page.locator(".devmap-legend").inner_text()
        routes = page.locator(".devmap-route")
        assert routes.count() == 6
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
        earlier = item.locator("[data-field=after] a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
        assert earlier == [f"#map-{a}" for a in sample.after]
        width, client = _sideways(page)
        assert width <= client
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
            "() => document.activeElement.closest('.devmap-lane').querySelector('.devmap-chip').dataset.node")
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
