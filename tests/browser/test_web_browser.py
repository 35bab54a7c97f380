"""The reader's first second in Chromium: layout shift and our own scripts' work on the first load of
Chapter 14, pointer target sizes (WCAG 2.2 §2.5.8), preview cards by mouse, keyboard and touch,
the numbers page with and without script, the language chooser, and the search query set.

What is asserted is what is deterministic without CPU throttling: the layout shift of the first load
(which depends on the order things are laid out, not on speed) and, through the Long Animation Frames
API, that none of our own scripts runs for 50 ms or more at startup. Long tasks under 4x CPU
throttling, and Lighthouse, belong to the benchmark (scripts/bench.py --lighthouse)."""

from __future__ import annotations

import re

import pytest
from search_queries import CROSS, QUERIES, wanted

from atlas_site.gates import browser as browser_gates
from atlas_site.gates.browser import render_everything

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


@pytest.fixture(scope="module")
def site(real_build):
    return real_build[1]  # the real book built once per run, with the search index


# -- first load ---------------------------------------------------------------------------------
OBSERVE = """
window.__shifts = 0; window.__shifted = []; window.__frames = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) {
  window.__shifts += e.value;  // every shift: the touch emulation marks early ones as after input, and Lighthouse counts them
  window.__shifted.push(...e.sources.map(s => s.node && s.node.nodeType === 1 ? s.node.tagName + '#' + s.node.id : '?')); } })
  .observe({type: 'layout-shift', buffered: true});
new PerformanceObserver(list => { for (const e of list.getEntries()) window.__frames.push(
  e.scripts.map(s => [s.sourceURL || s.invoker || '', Math.round(s.forcedStyleAndLayoutDuration)])); })
  .observe({type: 'long-animation-frame', buffered: true});
"""


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_first_load_of_chapter_14_does_not_shift_and_our_scripts_force_no_layout(browser, base, lang, device):
    context = browser.new_context(**(PHONE if device == "phone" else DESKTOP))
    page = context.new_page()
    page.add_init_script(OBSERVE)
    page.goto(base + f"{lang}/ch14.html", wait_until="load")
    page.wait_for_timeout(1500)  # the deferred scripts have run and the header tools are shown
    assert page.locator("[data-search]").is_visible() and page.locator("[data-theme-toggle]").is_visible()
    shift = page.evaluate("window.__shifts")
    assert shift < 0.02, (
        f"cumulative layout shift {shift:.3f} on the first load: {page.evaluate('window.__shifted')}"
    )
    # How long a script runs depends on how busy the machine is (the benchmark's Lighthouse runs time
    # it); whether it forces the browser to lay out the page early does not: none of ours may.
    frames = page.evaluate("window.__frames")
    ours = [(url, ms) for frame in frames for url, ms in frame if "/assets/" in url and ms > 0]
    assert ours == [], f"our scripts forced style and layout at startup: {ours}"
    context.close()


# The labs' inputs in page order: as text while the page loads (label, default), and as controls
# once the lab code has made them (label, what the control shows).
LAB_INPUT_TEXT = """() => [...document.querySelectorAll('[data-lab-static] > div')].map(row =>
  [row.querySelector('dt').textContent.trim(), row.querySelector('dd').textContent.trim()])"""
LAB_CONTROLS = """() => [...document.querySelectorAll('.labs .lab-field')].map(field => {
  const control = field.querySelector('[data-param]:not([type=range])');
  const shown = control.tagName === 'SELECT' ? control.selectedOptions[0].textContent
              : control.type === 'checkbox' ? control.checked : control.value;
  return [field.querySelector('label').textContent.trim(), shown];
})"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_lab_controls_wait_for_the_reader_and_their_text_shows_the_defaults(browser, base, lang):
    """Every <input> and <select> the parser makes builds its own inner tree, and Chromium's form
    scan at DOMContentLoaded lays them all out, skipped far below or not: Chapter 14's 70 lab
    inputs made that its longest task. So the first load holds no lab control; each input shows
    its default as text until the reader comes near the labs, and then the same default."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(base + f"{lang}/ch14.html", wait_until="load")
    page.wait_for_timeout(500)
    assert page.locator(".labs input, .labs select").count() == 0
    text = page.evaluate(LAB_INPUT_TEXT)
    assert len(text) >= 40 and all(label and value for label, value in text)
    page.locator("[data-lab-scripts]").scroll_into_view_if_needed()
    page.wait_for_function("() => !document.querySelector('.labs [data-lab]:not(.lab-js)')", timeout=15000)
    assert page.locator("[data-lab-static]").count() == 0
    controls = page.evaluate(LAB_CONTROLS)
    assert [label for label, _ in controls] == [label for label, _ in text]
    for (label, value), (_, shown) in zip(text, controls, strict=False):
        if isinstance(shown, bool):  # a checkbox: its text is the language's yes or no
            assert value == ({"zh": "是", "en": "yes"} if shown else {"zh": "否", "en": "no"})[lang], label
        else:
            assert value == shown, label
    context.close()


def test_render_everything_reports_labs_whose_code_never_loads(browser, base, monkeypatch):
    """The gates measure the labs' controls only once the lab code has made them: when it cannot
    load, render_everything says so (the page walk reports it) rather than measuring the text."""
    monkeypatch.setattr(
        browser_gates, "NEAR_SECONDS", 2
    )  # the code is refused: waiting 15 s shows nothing more
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.route("**/assets/labs/**", lambda route: route.abort())
    page.goto(base + "en/ch14.html", wait_until="load")
    problems = render_everything(page)
    assert len(problems) == 1 and problems[0].startswith("lab code did not load"), problems
    assert page.locator("[data-lab-static]").count() > 0
    context.close()


def test_without_script_the_labs_show_their_defaults_as_text(browser, base):
    context = browser.new_context(java_script_enabled=False, **PHONE)
    page = context.new_page()
    page.goto(base + "zh/ch14.html")
    render_everything(page)  # script off: lays out the skipped blocks only
    first = page.locator("[data-lab-static]").first
    first.scroll_into_view_if_needed()
    assert first.is_visible() and first.locator("dd").count() >= 5
    assert page.locator(".lab-nojs").first.is_visible()
    assert page.locator(".labs input, .labs select").count() == 0
    context.close()


SKIPPED = """() => [...document.querySelectorAll('[data-skippable] > *')]
  .filter(el => getComputedStyle(el).contentVisibility === 'auto').length"""
# each sideways-scrolling box: is it skippable itself (it would not scroll), is the block that holds
# it (its frame, or a note the frame sits in), or is it a table too long for a skipped frame?
SCROLL_BOXES = """() => [...document.querySelectorAll('.math-block, .table-scroll')].map(box => [
  getComputedStyle(box).contentVisibility === 'auto',
  getComputedStyle(box.closest('[data-skippable] > *')).contentVisibility === 'auto',
  box.parentElement.matches('.tall') && box.querySelectorAll('tr').length > 8])"""


@pytest.mark.parametrize("path", ["zh/ch14.html", "en/tf-overview.html"])
def test_long_pages_skip_the_blocks_far_from_the_screen_but_never_a_heading(browser, base, path):
    """The first paint's saving: blocks far below are skipped (content-visibility), headings never
    (anchors and the contents need their places), a formula or table through its frame (a skippable
    box would not scroll); the gates' render_everything lays out all."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(base + path, wait_until="load")
    assert page.evaluate(SKIPPED) > 20, "the stylesheet skips no block on the first load"
    assert (
        page.evaluate(
            "() => [...document.querySelectorAll('[data-skippable] > :is(h2, h3)')]"
            ".filter(h => getComputedStyle(h).contentVisibility === 'auto').length"
        )
        == 0
    )
    # formulas and tables were laid out wherever they were: half of Chapter 14's first layouts
    boxes = page.evaluate(SCROLL_BOXES)
    assert [box for box in boxes if box[0] or not (box[1] or box[2])] == []
    assert sum(held for _, held, _ in boxes) >= 10
    assert render_everything(page) == []
    assert page.evaluate(SKIPPED) == 0
    page.close()


# -- preview cards ------------------------------------------------------------------------------
def _reveal(locator):
    """Scroll to it the way a reader does, and let the page settle."""
    locator.evaluate("el => el.scrollIntoView({block: 'center'})")
    locator.page.wait_for_timeout(100)
    return locator


def _card(page):
    card = page.locator("#cite-card")
    card.wait_for(state="visible", timeout=5000)
    return card


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_previews_by_mouse_show_section_figure_term_and_claim(browser, base, lang):
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    page.goto(base + f"{lang}/ch14.html")
    cases = [
        (".prose p a[href='#q3']", "KV"),
        ("a.figref[data-figref='serving-stack']", None),
        ("a.term[data-term='mla']", "MLA"),
        ("a.claim-link", None),
    ]
    for selector, expected in cases:
        link = page.locator(selector).first
        _reveal(link).hover()
        card = _card(page)
        text = card.inner_text()
        assert text.strip(), selector
        if expected:
            assert expected in text, (selector, text)
        box, window = card.bounding_box(), page.viewport_size
        assert (
            0 <= box["x"]
            and box["x"] + box["width"] <= window["width"]
            and 0 <= box["y"]
            and box["y"] + box["height"] <= window["height"]
        ), f"{selector}: card off screen {box}"
        page.mouse.move(2, 400)
        page.wait_for_timeout(450)
        assert card.is_hidden(), f"{selector}: card stays after the pointer leaves"
    claim = page.locator("a.claim-link").first
    _reveal(claim).hover()
    text = _card(page).inner_text()
    caution = "注意" if lang == "zh" else "Caution"
    assert caution in text and ("设置" in text or "setting" in text), text
    assert _card(page).locator("a.cite-card-link").get_attribute("href").startswith("numbers.html#claim-")
    term = page.locator("a.term[data-term='moe']").first
    _reveal(term).hover()
    text = _card(page).inner_text()
    assert ("mixture of experts" in text) if lang == "zh" else ("混合专家" in text), (
        "the other language's term"
    )
    assert _card(page).locator("a.cite-card-link").get_attribute("href") == "glossary.html#term-moe"
    figure = page.locator("a.figref").first
    _reveal(figure).hover()
    assert (
        ("结构示意" in _card(page).inner_text())
        if lang == "zh"
        else ("structural sketch" in _card(page).inner_text())
    )
    context.close()


def test_a_card_near_the_bottom_of_the_window_opens_above_the_link(browser, base):
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    page.goto(base + "en/ch14.html")
    link = page.locator("a.claim-link").nth(2)
    _reveal(link)
    box = link.bounding_box()
    page.mouse.wheel(0, box["y"] - 760)  # the link on the window's last lines
    page.wait_for_timeout(200)
    link.hover()
    card_box, link_box = _card(page).bounding_box(), link.bounding_box()
    assert card_box["y"] + card_box["height"] <= 800, "the card stays inside the window"
    assert card_box["y"] + card_box["height"] <= link_box["y"] + 1, "above the link, not over it"
    context.close()


def test_previews_by_keyboard_and_escape(browser, base):
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    page.goto(base + "zh/ch14.html")
    page.locator("a.figref").first.focus()
    card = _card(page)
    assert "图" in card.inner_text()
    assert page.locator("a.figref").first.get_attribute("aria-describedby") == "cite-card"
    page.keyboard.press("Escape")
    assert card.is_hidden()
    page.locator(".prose p a[href='#q3']").first.focus()
    assert "KV" in _card(page).inner_text()
    context.close()


def test_previews_by_touch_open_first_and_follow_second(browser, base):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(base + "en/ch14.html")
    link = page.locator("a.term[data-term='moe']").first
    _reveal(link).tap()
    card = _card(page)
    assert page.url.endswith("en/ch14.html"), "the first tap opens the card"
    link_box, card_box = link.bounding_box(), card.bounding_box()
    assert (
        card_box["y"] >= link_box["y"] + link_box["height"]
        or card_box["y"] + card_box["height"] <= link_box["y"]
    ), "docked clear of the line"
    page.locator("h1").tap()
    assert card.is_hidden(), "a tap elsewhere closes it"
    section = page.locator(".prose p a[href='#q18']").first
    _reveal(section).tap()
    _card(page)
    section.tap()
    page.wait_for_timeout(300)
    assert page.url.endswith("#q18"), "the second tap follows the link"
    context.close()


def test_without_script_previews_are_ordinary_links(browser, base):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(base + "en/ch14.html")
    assert page.locator("a.figref").first.get_attribute("href").startswith("#fig-")
    assert page.locator("a.claim-link").first.get_attribute("href").startswith("numbers.html#claim-")
    page.locator("a.claim-link").first.click()
    page.wait_for_load_state("load")  # the numbers page, not the chapter still unloading (a busy CI)
    assert re.search(r"numbers\.html#claim-[a-z0-9-]+$", page.url)
    assert page.locator("tr:target").count() == 1, "the claim's value lands on its row"
    context.close()


# -- numbers page -------------------------------------------------------------------------------
def test_numbers_page_filters_and_sorts_and_is_complete_without_script(browser, base):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(base + "en/numbers.html")
    # the claims' table (data-numbers) is what the filter and the sort buttons work on; the worked
    # examples' table below it is a plain list
    total = page.locator("[data-numbers] tbody tr").count()
    assert total > 40 and page.locator("[data-numbers] tbody tr:visible").count() == total
    assert page.locator("[data-numbers-tools]").is_hidden()
    context.close()
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(base + "en/numbers.html")
    page.fill("#numbers-filter", "DistServe goodput")
    shown = page.locator("[data-numbers] tbody tr:visible")
    assert 0 < shown.count() < total and all("distserve" in t.lower() for t in shown.all_inner_texts())
    assert page.locator("[data-numbers-count]").inner_text().startswith(f"{shown.count()} of {total}")
    page.fill("#numbers-filter", "")
    header = page.locator("th", has=page.locator("button.sort-button")).first
    header.locator("button").focus()
    page.keyboard.press("Enter")
    assert header.get_attribute("aria-sort") == "ascending"
    values = [
        float(v)
        for v in page.locator("[data-numbers] tbody tr td:first-child").evaluate_all(
            "cells => cells.map(c => c.dataset.value)"
        )
    ]
    assert values == sorted(values)
    page.keyboard.press("Enter")
    assert header.get_attribute("aria-sort") == "descending"
    page.close()


# -- language chooser ---------------------------------------------------------------------------
def test_the_chooser_remembers_the_language_without_a_loop(browser, base, site):
    for root in (base, (site / "index.html").as_uri().rsplit("/", 1)[0] + "/"):
        context = browser.new_context()
        page = context.new_page()
        page.goto(root + "index.html")
        assert page.url.endswith("index.html"), "nothing chosen yet: the chooser stays"
        page.locator("a[data-choose-lang='en']").click()
        page.wait_for_url(re.compile(r"en/index\.html$"))
        page.goto(root + "index.html")
        page.wait_for_url(re.compile(r"en/index\.html$"))
        page.locator("a[href='../index.html#choose']").click()
        page.wait_for_timeout(300)
        assert page.url.endswith("index.html#choose"), (
            "the home's own link to the chooser is not bounced back"
        )
        page.locator("a[data-choose-lang='zh']").click()
        page.goto(root + "index.html")
        page.wait_for_url(re.compile(r"zh/index\.html$"))
        context.close()


# -- landing on a section ------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("target", ["ch14#history", "ch14#open-questions", "tf-overview#protocol"])
def test_a_link_to_a_late_section_still_shows_it_after_the_content_above_settles(browser, base, lang, target):
    """issue 31 #3: on a phone, #history landed 991 px short: the labs above it start when the reader
    comes near them and grow after the browser has landed. The class: content above the target
    changes height after the jump; the target stays where it landed until the reader scrolls."""
    page_id, section = target.split("#")
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(base + f"{lang}/{page_id}.html#{section}")
    page.wait_for_timeout(3000)  # the labs near the target have started, the blocks around it are laid out
    top, rest = page.evaluate(
        """id => { const el = document.getElementById(id);
      return [el.getBoundingClientRect().top, parseFloat(getComputedStyle(el).scrollMarginTop)]; }""",
        section,
    )
    context.close()
    assert abs(top - rest) <= 2, f"{target} sits at {top:.0f} px, not {rest:.0f} px below the top"


# -- search ----------------------------------------------------------------------------------------
# issue 31: >= 95 % of the query set in the top three, per language (before: zh 41/52, en 40/48 with
# Pagefind 1.5 and the earlier ranking)
MINIMUM_SHARE = 0.95


def _normalised(query):
    return re.sub(
        r"\s+",
        " ",
        re.sub(
            r"([\u3400-\u9fff])([A-Za-z0-9])|([A-Za-z0-9])([\u3400-\u9fff])",
            lambda m: " ".join(g for g in m.groups() if g),
            query,
        ),
    ).strip()


def _top_three(page, query):
    page.fill("#search-input", query)
    page.wait_for_function(
        "q => document.querySelector('[data-search-results]').getAttribute('data-query') === q",
        arg=_normalised(query),
        timeout=30000,
    )
    return page.eval_on_selector_all(
        ".search-link", "els => els.slice(0, 3).map(a => a.getAttribute('href'))"
    )


def _section(href):
    return href.rsplit("/", 1)[-1].replace(".html", "")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_search_query_set_finds_each_section_in_the_top_three(browser, base, lang):
    page = browser.new_page()
    page.goto(base + f"{lang}/ch14.html")
    misses = []
    queries = [(q, want) for query_lang, q, want in QUERIES if query_lang == lang]
    seen = {}  # "首token延迟" is searched as "首 token 延迟": the box shows that search already
    for query, want in queries:
        top = seen.get(_normalised(query)) or seen.setdefault(_normalised(query), _top_three(page, query))
        assert all(f"/{lang}/" in href for href in top), f"{query}: results from the other language {top}"
        if not any(_section(href) in wanted(want) for href in top):
            misses.append(f"{query} -> {want} (got {[_section(h) for h in top]})")
    hits = len(queries) - len(misses)
    print(f"search {lang}: {hits}/{len(queries)} in the top three; misses: {misses}")
    assert hits >= MINIMUM_SHARE * len(queries), (
        f"{lang}: {hits}/{len(queries)} in the top three; misses: {misses}"
    )
    page.close()


@pytest.mark.parametrize("lang, query, want", CROSS)
def test_a_query_in_the_other_language_offers_that_languages_results(browser, base, lang, query, want):
    """A Chinese query on an English page shows the Chinese sections, saying which language they are in."""
    page = browser.new_page()
    page.goto(base + f"{lang}/ch14.html")
    top = _top_three(page, query)
    other = "zh" if lang == "en" else "en"
    assert top and all(f"/{other}/" in href for href in top), top
    assert any(_section(href) in wanted(want) for href in top), top
    assert page.locator(".search-result[lang] a[hreflang]").count() > 0, "each result says its language"
    assert page.locator("[data-search-status]").inner_text().startswith("Results in 中文"), page.locator(
        "[data-search-status]"
    ).inner_text()
    page.close()


def test_search_results_name_the_page_and_close(browser, base):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(base + "en/ch14.html")
    _top_three(page, "speculative decoding")
    first = page.locator(".search-result").first
    assert not first.locator(".search-link").inner_text().rstrip().endswith("#"), "no stray heading anchor"
    assert page.locator(".search-page").count() > 0, "a result names its page"
    excerpts = page.inner_text(".search-results")
    assert "author-reportedsetting" not in excerpts and "goodputauthor" not in excerpts
    page.keyboard.press("Escape")
    assert page.locator(".search-result").count() == 0
    _top_three(page, "goodput")
    # on a phone the open search is a sheet (test_phone_reader.py)
    box = page.locator(".search").bounding_box()
    assert box["height"] >= 800, box
    page.evaluate("document.querySelector('main').click()")  # a click outside it (on a desk: beside it)
    assert page.locator(".search-result").count() == 0, "a tap outside closes the results"
    page.close()


def test_following_a_result_into_the_same_page_closes_the_results(browser, base):
    """issue 31 #1: on a phone a result pointing into the open page left the results open (the header
    grew to 582 px, the page scrolled sideways to 533 px). The class: results shown while the box
    has lost focus never widen the header."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(base + "en/ch14.html")
    page.locator("#search-input").tap()
    _top_three(page, "speculative decoding")
    page.evaluate("document.activeElement.blur()")  # results open, focus elsewhere
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator(".site-header").bounding_box()["height"] < 80
    link = page.locator(".search-link[href*='/en/ch14.html#']").first
    link.tap()
    page.wait_for_function("() => location.hash.length > 1")
    assert page.locator(".search-result").count() == 0, "the results close once one is followed"
    assert page.locator(".site-header").bounding_box()["height"] < 80
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def test_search_says_it_is_working_and_keeps_its_results_in_place(browser, base):
    """issue 31 #12: the panel flickered and jumped while results arrived. Now the status says a search
    runs from the first key, the results it will replace stay where they are (dimmed) meanwhile,
    and the new ones land at the same place."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(base + "en/ch14.html")
    page.locator("#search-input").focus()
    page.keyboard.type("g")
    page.wait_for_function(
        "() => document.querySelector('[data-search-status]').textContent === 'Searching…'", timeout=1000
    )
    _top_three(page, "goodput")
    top = page.locator(".search-results").bounding_box()["y"]
    page.keyboard.type(" ttft")
    page.wait_for_selector(".search.is-busy", timeout=2000)
    assert page.locator(".search-result").count() > 0, "the earlier results stay while the next search runs"
    page.wait_for_function(
        "() => document.querySelector('[data-search-results]').getAttribute('data-query') === 'goodput ttft'",
        timeout=30000,
    )
    assert page.locator(".search-results").bounding_box()["y"] == top
    page.close()


def test_search_from_file_names_the_folder_that_was_opened(browser, site):
    page = browser.new_page()
    page.goto((site / "zh" / "ch14.html").as_uri())
    notice = page.locator("[data-search-status]")
    assert notice.is_hidden(), "the notice waits for the reader to come to the search box"
    page.locator("#search-input").focus()
    assert notice.is_visible()
    status = notice.inner_text()
    assert f"python -m http.server -d {site}" in status, status
    page.close()


def test_search_finds_only_what_the_text_holds_and_says_when_it_shows_the_best_of_more(browser, base):
    """Review of issue 31: the index answers a word it lacks with a shorter one ("xyzzyq" found the
    "x" of formulas) and a Chinese word by single characters (显存 found 缓存's 存); a result list
    cut at eight said "8 sections" as if that were all."""
    page = browser.new_page()
    page.goto(base + "en/ch14.html")
    for nonsense in ("xyzzyq", "qwerty"):
        assert _top_three(page, nonsense) == [], nonsense
        assert page.locator("[data-search-status]").inner_text() == "No results"
    _top_three(page, "token")
    status = page.locator("[data-search-status]").inner_text()
    assert re.fullmatch(r"the best 8 of \d+ sections", status), status
    assert int(status.split(" of ")[1].split()[0]) > 8
    page.goto(base + "zh/ch14.html")
    _top_three(page, "显存")
    excerpts = page.eval_on_selector_all(".search-result", "els => els.map(e => e.textContent)")
    assert excerpts and "显存" in excerpts[0], excerpts[:3]
    page.close()


def test_search_shows_more_on_request_mends_a_typo_and_highlights_each_excerpt(browser, base):
    """Review D3: results stopped at eight with no way to see more; "kv cahce" found nothing; for
    "KV 缓存" five of the top nine excerpts held no highlighted term."""
    page = browser.new_page()
    page.goto(base + "en/ch14.html")
    _top_three(page, "token")
    assert page.locator(".search-result").count() == 8
    more = page.locator(".search-more-button")
    assert more.inner_text() == "Show more results"
    more.focus()
    page.keyboard.press("Enter")  # a button: the keyboard reaches and presses it
    assert page.locator(".search-result").count() == 16
    status = page.locator("[data-search-status]")  # aria-live: the new count is announced
    assert re.fullmatch(r"the best 16 of \d+ sections", status.inner_text()), status.inner_text()
    assert page.evaluate("document.activeElement.closest('.search-result') !== null"), (
        "focus moves to the first added"
    )
    assert (
        page.evaluate(
            "[...document.querySelectorAll('.search-result')].indexOf(document.activeElement.closest('.search-result'))"
        )
        == 8
    )
    _top_three(page, "kv cahce")
    assert status.inner_text().startswith("Results for “kv cache”"), status.inner_text()
    assert page.locator(".search-result").count() > 0
    _top_three(page, "xyzzyq")
    assert status.inner_text() == "No results", "nothing one edit away: still nothing"
    page.goto(base + "zh/ch14.html")
    _top_three(page, "KV 缓存")
    marks = page.eval_on_selector_all(
        ".search-result .search-excerpt", "els => els.map(e => e.querySelectorAll('mark').length)"
    )
    assert marks and all(marks), marks
    page.close()
