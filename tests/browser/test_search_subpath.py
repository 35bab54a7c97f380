"""The search box of a site served under a sub-path (a project page: https://host/book/…), on the
reader's fixture book. Review 31-f #1: a whole-page result of the other language's merged index got
the address "/../zh/tut-basics.html" (Pagefind joined its relative bundle path into it) and its
sections "/zh/…": both 404 under /sub/. Every result is now resolved against the site's root."""

from __future__ import annotations

import http.server

import pytest

from atlas_site.gates.browser import serve_folder
from atlas_site.gates.search import results_shown, type_query

PREFIX = "/sub"


class _UnderSubPath(http.server.SimpleHTTPRequestHandler):
    """The folder served at /sub/… only: anything outside the prefix is a 404, as on a project page."""

    def translate_path(self, path):
        if not path.startswith(PREFIX + "/"):
            return "/nonexistent-outside-the-sub-path"
        return super().translate_path(path[len(PREFIX) :])

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def sub_site(reader_build, chromium):
    with serve_folder(reader_build[1], _UnderSubPath) as url:
        yield url + PREFIX.lstrip("/") + "/", chromium


def _results(page, query):
    type_query(page, query)
    results_shown(page, query)
    return page.eval_on_selector_all(
        "[data-search-results] a", "els => els.map(a => [a.textContent.trim(), a.href])"
    )


@pytest.mark.parametrize(
    "query, title",
    [
        # a Chinese query on an English page: the zh index is merged, its whole-page hit has no sections
        ("基础", "样书教程 · 基础"),
        # a section of the page's own index, and the glossary entry above it
        ("goodput", "Service metrics"),
    ],
)
def test_every_search_result_resolves_under_the_sites_sub_path(sub_site, query, title):
    base, browser = sub_site
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(base + "en/ch1.html")
        results = _results(page, query)
        assert results, query
        for text, href in results:
            assert href.startswith(base), f"{text!r} leaves the site's sub-path: {href}"
            assert "/../" not in href, href
        target = next(href for text, href in results if text == title)
        page.locator("[data-search-results] a", has_text=title).first.click()
        page.wait_for_url(target)
        status = page.request.get(target.split("#")[0]).status
        assert status == 200, f"{title!r} -> {target}: {status}"
        fragment = target.partition("#")[2]
        assert not fragment or page.locator(f"[id='{fragment}']").count() == 1, target
    finally:
        page.close()
