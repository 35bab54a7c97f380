"""Reading across the two languages, in Chromium: the language switch lands on the paragraph being
read (not only its section's top), and side-by-side reading shows each paragraph with its twin,
beside it on a wide screen and under it on a phone, remembered from page to page (issue 31). On the
reader's fixture book (tests/projects/reader): its chapter's long sections and its tutorial page's."""

from __future__ import annotations

import pytest

from conftest import SETTLED, SHOWN_AS_READ, TWO_FRAMES
from conftest import open_page as _open

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
OTHER = {"zh": "en", "en": "zh"}
# the long sections of the chapter and of the tutorial, and a paragraph late in each
LONG = [
    ("ch1", "q3.9"),
    ("ch1", "q4.8"),
    ("tut-basics", "review.10"),
    ("tut-basics", "costs.5"),
]


@pytest.fixture(scope="module")
def site(reader_site):
    return reader_site


def _read(page, key):
    """Scroll by hand so paragraph `key` is the first whose top is below the header (again until
    it stays: blocks above it are laid out at their real height as they come near)."""
    for _ in range(8):
        off = page.evaluate(
            """(key) => {
          const block = document.querySelector(`[data-para="${key}"]`);
          const header = document.querySelector('.site-header').getBoundingClientRect().bottom;
          const off = block.getBoundingClientRect().top - header - 4;
          window.scrollBy(0, off);
          return off;
        }""",
            key,
        )
        page.wait_for_timeout(150)
        if abs(off) < 2:
            return


def _top_of(page, key):
    return page.evaluate(
        '(key) => document.querySelector(`[data-para="${key}"]`).getBoundingClientRect().top', key
    )


def _settled_top_of(page, key, seconds: float = 5.0):
    """Where the paragraph rests once the page has settled: the same top over half a second (on a
    loaded machine the blocks above may still be laid out 300 ms after the load, and the page puts
    the paragraph back in place after each; a reader sees where it rests, a test that measured
    mid-way failed on a busy CI machine: the Atlas's en q12.9 at -815 px)."""
    tops = [_top_of(page, key)]
    for _ in range(int(seconds / 0.25)):
        page.wait_for_timeout(250)
        tops.append(_top_of(page, key))
        if len(tops) >= 3 and max(tops[-3:]) - min(tops[-3:]) < 1:
            break
    return tops[-1]


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("page_id, key", LONG)
def test_language_switch_lands_on_the_paragraph_being_read(site, lang, page_id, key):
    context, page = _open(site, f"{lang}/{page_id}.html", **PHONE)
    try:
        _read(page, key)
        switch = page.locator("[data-lang-switch]")
        switch.tap()
        page.wait_for_url(f"**/{OTHER[lang]}/{page_id}.html?para=*")
        page.wait_for_load_state("load")
        top = _settled_top_of(page, key)
        height = page.evaluate("innerHeight")
        assert 0 <= top < height, f"{OTHER[lang]} paragraph {key} is {top} px from the top of the window"
    finally:
        context.close()


def test_switch_falls_back_by_proportion_when_counts_differ(site):
    """A twin section with another count of paragraphs: paragraph 12 of 24 lands on paragraph 6
    of the twin's 12."""
    context, page = _open(site, "en/ch1.html?para=q3.12&of=24#q3", **PHONE)
    try:
        page.wait_for_timeout(300)
        top = _top_of(page, "q3.6")
        assert 0 <= top < page.evaluate("innerHeight"), f"paragraph 6 of 12 is at {top}"
    finally:
        context.close()


def _no_overflow(page):
    return page.evaluate("document.documentElement.scrollWidth <= innerWidth")


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size, beside", [(LAPTOP, True), (PHONE, False)])
def test_side_by_side_reading(site, lang, size, beside):
    context, page = _open(site, f"{lang}/ch1.html", **size)
    try:
        # one switch in view: the page's own on a phone, the contents' beside the text on a desk
        toggle = page.locator("[data-parallel-also]" if beside else "[data-parallel-toggle]")
        assert toggle.is_visible()
        assert toggle.text_content() == {"zh": "对照阅读", "en": "Read side by side"}[lang]
        assert toggle.get_attribute("aria-label").startswith(toggle.text_content())
        figures = page.locator("article .figure").count()
        toggle.focus()
        page.keyboard.press("Enter")  # keyboard operable
        page.wait_for_selector("article.is-parallel .twin")
        assert toggle.get_attribute("aria-pressed") == "true"
        ours = page.locator("article [data-para]").count()
        twins = page.locator("article .twin").count()
        assert twins == ours, f"{twins} twin paragraphs for {ours}"
        other = OTHER[lang]
        assert page.locator(f"article .twin[lang^='{other}']").count() == twins
        assert page.locator("article .figure").count() == figures, "figures appear once"
        assert page.locator("article .twin script, article .twin img, article .twin svg").count() == 0
        _read(page, "q3.2")
        mine = page.locator("[data-para='q3.2']").bounding_box()
        twin = page.locator(".twin[data-twin='q3.2']").bounding_box()
        if beside:
            assert abs(twin["y"] - mine["y"]) < 2 and twin["x"] > mine["x"] + mine["width"], (mine, twin)
        else:
            assert twin["y"] >= mine["y"] + mine["height"] - 1 and abs(twin["x"] - mine["x"]) < 20, (
                mine,
                twin,
            )
        assert _no_overflow(page), "the page scrolls sideways"
        # the status line says where the twins are, also on the next page the choice follows to
        where = {
            ("zh", True): "英文对应段落显示在每段右侧。",
            ("zh", False): "英文对应段落显示在每段下方。",
            ("en", True): "The Chinese text is shown beside each paragraph.",
            ("en", False): "The Chinese text is shown under each paragraph.",
        }[(lang, beside)]
        assert page.locator("[data-parallel-status]").text_content() == where
        page.goto(site["base"] + f"{lang}/tut-basics.html", wait_until="load")
        page.wait_for_selector("article.is-parallel .twin")
        assert page.locator("[data-parallel-toggle]").get_attribute("aria-pressed") == "true"
        assert page.locator("[data-parallel-status]").text_content() == where
        assert page.locator("article .twin").count() == page.locator("article [data-para]").count()
        assert _no_overflow(page)
        page.locator(".parallel-toggle:visible").click()
        assert page.locator("article .twin:visible").count() == 0
        assert page.locator("[data-parallel-status]").text_content() == ""
        page.goto(site["base"] + f"{lang}/ch1.html", wait_until="load")
        page.wait_for_timeout(300)
        assert page.locator("article .twin").count() == 0, "turned off, it stays off"
    finally:
        context.close()


@pytest.mark.parametrize("size", [PHONE, LAPTOP])
def test_side_by_side_is_within_reach_mid_chapter_and_keeps_the_paragraph(site, size):
    """Review 31-d #1: the switch stood only at the top of the page, thousands of px above a reader
    mid-section. The contents repeat it (beside the text on a desk, behind the header's contents
    button on a phone); it turns the twins on with the paragraph being read where it was, and
    both switches say so."""
    context, page = _open(site, "en/ch1.html", **size)
    try:
        _read(page, "q3.2")
        if size is PHONE:
            assert page.locator("[data-parallel-toggle]").bounding_box()["y"] < -1000, (
                "the top switch is far above"
            )
        if size is PHONE:
            page.locator("[data-toc-toggle]").tap()
        also = page.locator("[data-parallel-also]")
        assert also.is_visible() and also.text_content() == "Read side by side"
        before = _settled_top_of(page, "q3.2")
        also.click()
        page.wait_for_selector("article.is-parallel .twin")
        assert also.get_attribute("aria-pressed") == "true"
        assert page.locator("[data-parallel-toggle]").get_attribute("aria-pressed") == "true"
        if size is PHONE:  # the contents close by themselves, and show the twins under them
            page.locator("#toc").wait_for(state="hidden")  # review 31-i #14: no word the panel stood over
            assert page.locator("[data-toc-toggle]").get_attribute("aria-expanded") == "false"
        # where it rests: on a loaded machine the twins' blocks are laid out after they appear, and the
        # page puts the paragraph back after each (a CI run with three workers measured it mid-way)
        assert abs(_settled_top_of(page, "q3.2") - before) < 2
        also.click() if size is LAPTOP else page.locator("[data-parallel-toggle]").evaluate("b => b.click()")
        assert page.locator("article .twin:visible").count() == 0
        assert also.get_attribute("aria-pressed") == "false"
        # on again, the twins already fetched (review 31-m #3: then nothing kept the paragraph;
        # on a phone it went from 535 to 933 px, below the screen)
        again = _settled_top_of(page, "q3.2")
        page.locator("[data-parallel-toggle]").evaluate("b => b.click()")
        assert abs(_settled_top_of(page, "q3.2") - again) < 2
    finally:
        context.close()


def test_side_by_side_from_a_file_says_why_it_cannot(reader_build, chromium):
    """Chromium refuses fetch() of file://: the reader is told to serve the site."""
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto((reader_build[1] / "en" / "ch1.html").as_uri(), wait_until="load")
        page.locator("[data-parallel-toggle]").click()
        status = page.locator("[data-parallel-status]")
        page.wait_for_function(
            "() => document.querySelector('[data-parallel-status]').textContent.includes('HTTP')"
        )
        assert page.locator("[data-parallel-toggle]").get_attribute("aria-pressed") == "false"
        assert status.is_visible() and _no_overflow(page)
        # review 31-v #6: it named "_site" whatever folder the reader had opened
        assert f"-d {reader_build[1]} and open http://localhost:8000/" in status.inner_text(), (
            status.inner_text()
        )
        # review 31-w #6: the choice was kept, and every later page tried the fetch again
        failed = []
        page.on("requestfailed", lambda request: failed.append(request.url))
        page.goto((reader_build[1] / "en" / "ch1-fleet.html").as_uri(), wait_until="load")
        page.wait_for_timeout(300)
        assert [url for url in failed if "/zh/" in url] == [], failed
        assert page.locator("[data-parallel-toggle]").first.get_attribute("aria-pressed") == "false"
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_twin_paragraph_keeps_its_evidence_labels_and_drops_what_opens_a_card(site, lang):
    """Review 31-g #2 and #10: a twin showed a claim without its "author-reported" label and a
    dead "⋯" (the card's button, copied as text), and its defined terms as italics (slanted Chinese).
    The twin keeps each label, drops the buttons and settings, and marks a term in bold."""
    context, page = _open(site, f"{lang}/ch1.html", **LAPTOP)
    try:
        page.locator("[data-parallel-also]").click()
        page.wait_for_selector("article.is-parallel .twin")
        found = page.evaluate(
            """() => {
          const twins = [...document.querySelectorAll('article .twin')];
          const text = twins.map(t => t.textContent).join(' ');
          const own = [...document.querySelectorAll('article [data-para]')];
          return {
            ownLabels: own.reduce((n, p) => n + p.querySelectorAll('.badge').length, 0),
            twinLabels: twins.reduce((n, t) => n + t.querySelectorAll('.badge').length, 0),
            dots: (text.match(/\u22ef/g) || []).length,
            buttons: twins.reduce((n, t) => n + t.querySelectorAll('button, .claim-setting').length, 0),
            terms: twins.flatMap(t => [...t.querySelectorAll('b')]).map(b => getComputedStyle(b).fontStyle),
          };
        }"""
        )
        assert found["ownLabels"] > 0 and found["twinLabels"] == found["ownLabels"], found
        assert found["dots"] == 0 and found["buttons"] == 0, found
        assert found["terms"] and set(found["terms"]) == {"normal"}, found
    finally:
        context.close()


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_side_by_side_reading_keeps_the_pages_length_while_the_reader_scrolls(site, size):
    """Review 31-k #1: with side-by-side reading on, the page's length changed at almost every step
    of a scroll (26,667-29,267 px on a phone): the twins were held at a generic placeholder and the
    paragraphs at heights measured before the columns narrowed. Once the switch has settled, the
    idle browser lays the skipped blocks out again: a second later the page is the length it has
    with every block shown as the reader sees it."""
    context, page = _open(site, "en/ch1.html", **size)
    try:
        page.evaluate("() => document.querySelector('[data-parallel-toggle]').click()")
        page.wait_for_selector("article.is-parallel .twin")
        page.wait_for_function(SETTLED, timeout=20000)
        page.evaluate(TWO_FRAMES)
        settled = page.evaluate("() => document.documentElement.scrollHeight")
        real = page.evaluate(SHOWN_AS_READ)
        # within 2 %: at 0.5 % it failed once on a busy machine (not reproduced since; its message was
        # not kept); without the second pass the page was 41-53 % too long
        assert abs(settled - real) <= 0.02 * real, (
            f"{settled} px once settled after the switch, {real} px shown"
        )
    finally:
        page.evaluate("() => localStorage.clear()")
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_twins_citation_and_term_open_their_cards_in_the_readers_language(site, lang):
    """Review 31-n #2: a twin's [N27] had lost its class, so a tap left the chapter for the other
    language's bibliography. A twin's links that open a card keep what opens it, and every link of a
    twin into the other language's pages points at the same place in the reader's."""
    context, page = _open(site, f"{lang}/ch1.html", **PHONE)
    try:
        page.locator("[data-parallel-toggle]").tap()
        page.wait_for_selector("article.is-parallel .twin")
        links = page.evaluate(
            """() => [...document.querySelectorAll('article .twin a[href]')].map(a => ({
              href: a.getAttribute('href'), cite: a.matches('a.cite[data-cite]'), term: a.matches('a.term[data-term]')}))"""
        )
        other = {"en": "zh", "zh": "en"}[lang]
        assert links and not [link for link in links if f"/{other}/" in link["href"]], links
        assert any(link["cite"] for link in links) and any(link["term"] for link in links), links
        cite = page.locator("article .twin a.cite").first
        cite.scroll_into_view_if_needed()
        cite.tap()
        page.locator("#cite-card").wait_for(state="visible", timeout=5000)
        assert page.url.endswith(f"/{lang}/ch1.html"), (
            "the first tap opens the card, it does not leave the page"
        )
        assert page.locator("#cite-card").get_attribute("lang") in (None, lang), (
            "the card is in the reader's language"
        )
    finally:
        context.close()
