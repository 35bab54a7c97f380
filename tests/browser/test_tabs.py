"""The kept tabs the browser tests share (tests/tabs.py): a tab handed on is in the state a new
context would give it, and a tab a test changed for good is never handed on."""

from __future__ import annotations

from conftest import PHONE, open_page


def test_a_kept_tab_forgets_storage_and_loads_a_new_document_for_the_same_address(reader_site):
    context, page = open_page(reader_site, "en/ch1.html#q3", **PHONE)
    page.evaluate(
        "() => { localStorage.setItem('left', '1'); sessionStorage.setItem('left', '1'); window.__old = 1; }"
    )
    page.set_viewport_size({"width": 500, "height": 500})
    first = page
    context.close()

    context, page = open_page(reader_site, "en/ch1.html#q3", **PHONE)
    try:
        assert page is first, "the tab was kept and handed on"
        assert page.evaluate(
            "() => [localStorage.length, sessionStorage.length, window.__old === undefined]"
        ) == [
            0,
            0,
            True,
        ], "storage cleared and the same address loaded as a new document"
        assert page.viewport_size == PHONE["viewport"]
        fetched = page.evaluate(
            "() => performance.getEntriesByType('resource').filter(r => r.name.endsWith('/atlas.css'))"
            ".map(r => r.transferSize >= r.encodedBodySize && r.encodedBodySize > 0)"
        )
        assert fetched == [True], "the stylesheet came whole from the server, as in a new context (no cache)"
    finally:
        context.close()


def test_a_tab_given_a_script_or_a_listener_is_not_handed_on(reader_site):
    for spoil in (
        lambda page: page.add_init_script("window.__spoiled = 1"),
        lambda page: page.on("request", lambda request: None),
        lambda page: page.emulate_media(color_scheme="dark"),
    ):
        context, page = open_page(reader_site, "en/ch1.html", **PHONE)
        spoil(page)
        context.close()
        assert page.is_closed(), "a changed tab is closed with its context"
        context, other = open_page(reader_site, "en/ch1.html", **PHONE)
        try:
            assert other is not page
            assert other.evaluate("() => window.matchMedia('(prefers-color-scheme: dark)').matches") is False
        finally:
            context.close()


def test_a_kept_tab_takes_the_viewport_and_scheme_each_test_asks_for(reader_site):
    """Viewport, colour scheme and reduced motion are set on each lease: a tab kept from a test at
    800 px in the dark scheme is handed to the next test of the same setting otherwise, in the
    state a new context with that test's options (or none) would give it."""
    DARK = "() => [innerWidth, matchMedia('(prefers-color-scheme: dark)').matches, matchMedia('(prefers-reduced-motion: reduce)').matches]"
    context, page = open_page(
        reader_site,
        "en/ch1.html",
        viewport={"width": 800, "height": 600},
        color_scheme="dark",
        reduced_motion="reduce",
    )
    assert page.evaluate(DARK) == [800, True, True]
    first = page
    context.close()
    context, page = open_page(reader_site, "en/ch1.html")
    try:
        assert page is first, "the same tab, kept"
        assert page.viewport_size == {"width": 1280, "height": 720}
        assert page.evaluate(DARK) == [1280, False, False], "a new context's defaults again"
    finally:
        context.close()
