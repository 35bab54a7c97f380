"""Reader experience in Chromium: search in both languages, citation cards, dark mode, print,
no-script fallbacks, table-of-contents highlight, and the figure contrast check. (axe-core and text
contrast on every page, in both colour schemes, are the accessibility gate of `check --browser`, which
scripts/test.sh runs on the whole book.) On the reader's fixture book (tests/projects/reader)."""

from __future__ import annotations

import re

import pytest

from atlas_site.gates.browser import render_everything
from atlas_site.gates.figure_layout import figure_contrast_problems
from conftest import LAPTOP, PHONE, SETTLED, open_page


def _open(browser, site_url: str, path: str, **options):
    """(context, page): the fixture book's `path` in a tab as a new context with these options gives it."""
    return open_page({"browser": browser, "base": site_url}, path, **options)


SEARCHES = [
    ("zh", "分页"),
    ("zh", "前缀"),
    ("zh", "批处理"),
    ("en", "goodput"),
    ("en", "batching"),
    ("en", "KV cache"),
]


@pytest.fixture(scope="module")
def site_url(reader_site_url):
    return reader_site_url  # built with the search index


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_search_finds_sections_in_its_language(browser, site_url, lang):
    """Each query typed into the same page's box in turn (the index loads once, as for a reader
    who searches again)."""
    from atlas_site.gates.search import results_shown

    context, page = _open(browser, site_url, f"{lang}/ch1.html")
    for query in [query for query_lang, query in SEARCHES if query_lang == lang]:
        page.fill("#search-input", query)
        results_shown(page, query)
        links = page.eval_on_selector_all(
            ".search-link", "els => els.map(a => [a.getAttribute('href'), a.textContent])"
        )
        assert links, f"{query}: no results"
        assert all(f"/{lang}/" in href for href, _ in links), (
            f"{query}: results from the other language: {links}"
        )
        assert any("#" in href for href, _ in links), f"{query}: results do not point at sections: {links}"
        excerpts = page.inner_text(".search-results")
        assert query.lower().split()[0] in excerpts.lower(), query
    context.close()


def test_citation_card_by_keyboard_and_escape(browser, site_url):
    context, page = _open(browser, site_url, "en/ch1.html", **LAPTOP)
    cite = page.locator(".claim a.cite").first
    cite.focus()
    card = page.locator("#cite-card")
    card.wait_for(state="visible", timeout=5000)  # the card data is fetched on the first focus
    text = card.inner_text()
    assert "paper" in text or "documentation" in text or "benchmark" in text
    assert "setting" in text.lower(), "a claim's citation card shows the claim's setting"
    assert card.locator("a.cite-card-link").get_attribute("href").startswith("bibliography.html#src-")
    page.keyboard.press("Escape")
    assert card.is_hidden()
    context.close()


def test_citation_card_on_a_phone_never_covers_the_line_being_read(browser, site_url):
    context, page = _open(
        browser,
        site_url,
        "zh/ch1.html",
        **PHONE,
    )
    cite = page.locator("a.cite").nth(3)
    cite.scroll_into_view_if_needed()
    cite.tap()
    card = page.locator("#cite-card")
    card.wait_for(state="visible", timeout=5000)
    assert page.url.endswith("zh/ch1.html"), "the first tap opens the card instead of leaving the page"
    link_box, card_box = cite.bounding_box(), card.bounding_box()
    assert (
        card_box["y"] >= link_box["y"] + link_box["height"]
        or card_box["y"] + card_box["height"] <= link_box["y"]
    )
    context.close()


def test_without_script_a_citation_is_a_plain_link(browser, site_url):
    context, page = _open(browser, site_url, "en/ch1.html", java_script_enabled=False)
    href = page.locator("a.cite").first.get_attribute("href")
    assert re.match(r"bibliography\.html#src-[a-z0-9-]+$", href)
    assert page.locator(".lab-static").first.is_visible(), "labs show their worked example without script"
    assert page.locator("[data-search]").is_hidden(), "the search box needs script and stays hidden"
    context.close()


def test_dark_mode_follows_the_system_and_the_toggle_persists(browser, site_url):
    context, page = _open(browser, site_url, "en/ch1.html", color_scheme="dark")
    background = lambda: page.evaluate("getComputedStyle(document.body).backgroundColor")
    dark = background()
    page.click("[data-theme-toggle]")
    light = background()
    assert dark != light
    page.reload()
    assert background() == light, "the choice survives a reload"
    figure_ink = page.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--c-state').trim()"
    )
    assert figure_ink, "figures read their colours from the theme's custom properties"
    context.close()


@pytest.mark.parametrize("system", ["dark", "light"])
def test_the_theme_button_says_its_state_and_leads_back_to_the_system(browser, site_url, system):
    """Review 31-p #9: once pressed, the button only swapped dark and light, so a reader could never
    return to following the system, and its name ("Toggle dark/light") never said which scheme
    showed. A second press now follows the system again, and the name says the state."""
    other = "light" if system == "dark" else "dark"
    context, page = _open(browser, site_url, "en/ch1.html", color_scheme=system)
    button = page.locator("[data-theme-toggle]")
    stored = "() => localStorage.getItem('atlas-theme')"
    first = button.get_attribute("aria-label")
    assert first.lower().startswith(system) and "system" in first, first
    glyph = "el => getComputedStyle(el, '::before').content"
    icon = button.evaluate(glyph)
    button.click()
    assert button.evaluate(glyph) != icon, "the icon shows the scheme on screen (review 31-q #8)"
    chosen = button.get_attribute("aria-label")
    assert chosen.lower().startswith(other) and page.evaluate(stored) == other, chosen
    assert button.get_attribute("aria-pressed") is None, "the name says the state; no pressed state beside it"
    button.click()
    assert page.evaluate(stored) is None, "the second press forgets the choice"
    assert page.evaluate("document.documentElement.hasAttribute('data-theme')") is False
    assert button.get_attribute("aria-label") == first
    context.close()


def test_print_to_pdf_gives_clean_pages(browser, site_url):
    context, page = _open(browser, site_url, "en/ch1.html")
    page.emulate_media(media="print")
    assert page.locator(".site-header").is_hidden()
    assert page.locator(".lab-static").first.is_visible()
    assert page.locator("figure.figure svg").first.is_visible()
    # review 31-j #13: the legend of the labels is printed, open or not; the screen's page lists are not
    assert page.locator(".badge-key dl").is_visible(), "the labels' legend is on paper"
    assert page.locator(".series").count() and page.locator(".series").first.is_hidden()
    pdf = page.pdf(format="A4")
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    # the whole page, not its first screen: the fixture's chapter page prints on 7 A4 pages (the Atlas's
    # whole Chapter 14 on more than 10)
    assert pdf.startswith(b"%PDF") and pages > 5, pages
    # on paper a link cannot be followed: the bibliography prints each work's address after its link
    page.goto(site_url + "en/bibliography.html")
    page.emulate_media(media="print")
    link = page.locator("main a.external").first
    after = link.evaluate("a => getComputedStyle(a, '::after').content")
    assert after == f'" <{link.get_attribute("href")}>"', after
    page.emulate_media(media="screen")
    assert link.evaluate("a => getComputedStyle(a, '::after').content") == "none", (
        "the address is for paper only"
    )
    context.close()


def test_the_numbers_table_prints_as_cards_with_every_cell_named(browser, site_url):
    """Review 31-m #1: an A4 page is narrower than the phone's 700 px, so the phone's cards (three
    cells of each row hidden, the row a grid) were printed under the table's seven heads. Review
    31-p #1: printed as seven columns, the cells were a few words wide and each row a page tall (56
    A4 pages for 49 rows). On paper a row is a card: every cell shown under its head's name, no
    heads row, no filter, and a card never taller than a third of the page."""
    context, page = _open(browser, site_url, "en/numbers.html", viewport={"width": 600, "height": 900})
    page.emulate_media(media="print")
    rows = page.evaluate(
        """() => [...document.querySelectorAll('.numbers-table tbody tr')].map(tr => ({
          display: getComputedStyle(tr).display, height: tr.getBoundingClientRect().height,
          cells: [...tr.children].filter(td => !td.matches('.numbers-more')).map(td => ({
            shown: getComputedStyle(td).display !== 'none' && td.getBoundingClientRect().height > 0,
            named: td.matches(':first-child') || getComputedStyle(td, '::before').content.includes(td.dataset.label)}))}))"""
    )
    heads = page.evaluate("getComputedStyle(document.querySelector('.numbers-table thead')).display")
    tools = page.evaluate("getComputedStyle(document.querySelector('.numbers-tools')).display")
    assert rows, "the fixture has numbers"
    assert all(row["display"] == "block" for row in rows), [row["display"] for row in rows]
    assert all(cell["shown"] and cell["named"] for row in rows for cell in row["cells"]), rows[0]
    assert heads == "none" and tools == "none", (heads, tools)
    assert max(row["height"] for row in rows) < 1123 / 3, "a card is a third of an A4 page at most"
    page.emulate_media(media="screen")  # on a phone-wide screen, cards
    assert (
        page.evaluate("getComputedStyle(document.querySelector('.numbers-table tbody tr')).display") == "grid"
    )
    context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("width", [768, 1280])
def test_no_cell_of_the_numbers_table_runs_into_its_neighbour(browser, site_url, width, lang):
    """Review 31-p #1: at 768 px the seven columns clipped their heads ("Sour", "Revie") and 110
    cells' contents ran into the next column; at 1280 the label's badge crossed the rule into the
    source by 5 px. At every width each cell's content stays inside the cell (cards below a desk's
    width), and no head is cut."""
    context, page = _open(browser, site_url, f"{lang}/numbers.html", viewport={"width": width, "height": 900})
    spill = page.evaluate(
        """() => { const out = [];
          for (const cell of document.querySelectorAll('.numbers-table :is(td, th)')) {
            const box = cell.getBoundingClientRect();
            if (box.width <= 1) continue;  // a head kept for screen readers only
            if (cell.scrollWidth > cell.clientWidth + 1) out.push(['clipped', cell.textContent.trim().slice(0, 30)]);
            // what is drawn: each text's glyphs and each badge's frame (a link's hit area may
            // reach past its text on purpose)
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT), drawn = [];
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              if (!node.textContent.trim() || !node.parentElement.checkVisibility()) continue;
              const range = document.createRange(); range.selectNodeContents(node); drawn.push([node.textContent, range.getBoundingClientRect()]);
            }
            for (const badge of cell.querySelectorAll('.badge')) drawn.push([badge.textContent, badge.getBoundingClientRect()]);
            for (const [text, r] of drawn)
              if (r.width && (r.right > box.right + 0.5 || r.left < box.left - 0.5)) out.push(['spills', text.trim().slice(0, 30), r.right - box.right]);
          }
          return out; }"""
    )
    context.close()
    assert spill == [], spill[:6]


# the relative luminance of a computed CSS colour: rgb(r, g, b)
LUMINANCE = """c => { const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map(v => { v /= 255;
  return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; }"""


@pytest.mark.parametrize("dark", ["system", "toggle"])
def test_printing_from_the_dark_scheme_prints_dark_ink_on_white(browser, site_url, dark):
    """issue 31 #2: printed while the site showed the dark scheme, body text came out light grey and
    figure labels vanished (paper stays white: browsers drop backgrounds when printing)."""
    context, page = _open(
        browser, site_url, "en/ch1.html", color_scheme="dark" if dark == "system" else "light"
    )
    if dark == "toggle":
        page.click("[data-theme-toggle]")
    assert page.evaluate(f"({LUMINANCE})(getComputedStyle(document.body).color)") > 0.5, (
        "the screen shows the dark scheme"
    )
    page.emulate_media(media="print")
    ink = page.evaluate(f"({LUMINANCE})(getComputedStyle(document.body).color)")
    label = page.evaluate(
        f"({LUMINANCE})(getComputedStyle(document.querySelector('figure.figure svg text')).fill)"
    )
    caption = page.evaluate(f"({LUMINANCE})(getComputedStyle(document.querySelector('figcaption')).color)")
    context.close()
    # on white paper, 4.5:1 needs a luminance below 0.183 (dark-scheme ink is above 0.7)
    assert ink < 0.05 and label < 0.183 and caption < 0.183, (ink, label, caption)


def test_table_of_contents_highlights_the_current_section(browser, site_url):
    """Entering at a section marks it; scrolling down and back up moves the mark with the reader."""
    # a function, not an expression: Playwright would poll an expression through eval, which the CSP refuses
    current = (
        "(want) => document.querySelector(\".toc a[aria-current='true']\")?.getAttribute('href') === want"
    )
    context, page = _open(browser, site_url, "en/ch1.html#q3", **LAPTOP)
    page.wait_for_function(current, arg="#q3", timeout=5000)
    assert page.locator(".toc a[aria-current='true']").count() == 1
    # the blocks below the first screen take their laid-out heights in idle time: a scroll aimed
    # before they settle could land short of its section on a loaded machine
    page.wait_for_function(SETTLED, timeout=20000)
    for section in ("q4", "q1"):
        page.locator(f"#{section}").evaluate(
            "h => window.scrollTo(0, h.getBoundingClientRect().top + scrollY - 100)"
        )
        page.wait_for_function(current, arg=f"#{section}", timeout=5000)
        assert page.locator(".toc a[aria-current='true']").count() == 1
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_figure_contrast_check_finds_faint_text(browser, site_url, scheme):
    """The check can fail: one figure label painted near its background's colour is reported."""
    context, page = _open(
        browser,
        site_url,
        "en/ch1.html",
        color_scheme=scheme,
        **LAPTOP,
    )
    assert render_everything(page) == []
    assert figure_contrast_problems(page) == []
    label = page.evaluate("""() => { const t = document.querySelector('figure.figure svg text');
      t.style.fillOpacity = '0.1'; return t.textContent.trim(); }""")  # nearly the colour behind it
    problems = figure_contrast_problems(page)
    context.close()
    assert len(problems) == 1 and label[:20] in problems[0] and "needs 4.5:1" in problems[0], problems


def test_question_cards_show_every_mistake_at_any_width_and_remember_it(browser, site_url):
    """Compact, every card fits the first screen (book.yaml's first_screen rule); one button lays
    them out with each question and its most common mistake, on a phone too, and the next visit keeps it."""
    context, page = _open(
        browser,
        site_url,
        "en/ch1.html",
        **PHONE,
    )
    wrong = page.locator(".qcard-wrong")
    assert wrong.count() == 7 and not wrong.first.is_visible()  # the fixture's seven questions
    page.locator("[data-qcards-toggle]").tap()
    assert all(wrong.nth(i).is_visible() for i in range(7))
    assert page.locator("[data-qcards-toggle]").get_attribute("aria-pressed") == "true"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.reload()
    assert wrong.first.is_visible(), "the choice persists"
    # review 31-x #5: opened on a desk, one full-width column was 1,680 px tall and a third empty
    page.set_viewport_size({"width": 1280, "height": 800})
    columns = page.evaluate(
        "new Set([...document.querySelectorAll('.qcard')].map(c => Math.round(c.getBoundingClientRect().left))).size"
    )
    assert columns == 2, f"the open cards stand in {columns} column(s) on a desk"
    context.close()
