"""The 404 page as hosts serve it: for any missing address, at the site's root or one folder down,
on a site at a domain's root or under a sub-path (GitHub Pages: /<repository>/). Review 31-r #1:
served for /en/ch15.html the page was unstyled and both its home links led to further 404 pages.
The fixture book has no site_url, so the page cannot know its root from the book."""

from __future__ import annotations

import mimetypes

import pytest

pytestmark = pytest.mark.browser


def _host(folder, prefix: str):
    """A route handler that answers as a static host would: the file under `prefix`, else the
    site's 404.html with status 404."""

    def answer(route):
        path = route.request.url.split("://", 1)[1].split("/", 1)[1].split("?")[0].split("#")[0]
        path = "/" + path
        file = folder / path[len(prefix) :] if path.startswith(prefix) else None
        if file is not None and file.is_dir():
            file = file / "index.html"
        if file is not None and file.is_file():
            kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
            route.fulfill(status=200, body=file.read_bytes(), headers={"content-type": kind})
        else:
            body = (folder / "404.html").read_bytes()
            route.fulfill(status=404, body=body, headers={"content-type": "text/html"})

    return answer


@pytest.mark.parametrize("prefix", ["/", "/atlas/"])
@pytest.mark.parametrize("missing", ["ch15.html", "en/ch15.html", "zh/deep/ch15.html"])
def test_the_404_page_is_styled_and_its_links_lead_home_wherever_it_is_served(reader_site, prefix, missing):
    context = reader_site["browser"].new_context(viewport={"width": 390, "height": 844})
    try:
        context.route("http://book.test/**", _host(reader_site["folder"], prefix))
        page = context.new_page()
        page.goto(f"http://book.test{prefix}{missing}", wait_until="load")
        page.wait_for_function("() => document.querySelector('a[data-site-path]').href.includes('book.test')")
        styled = page.evaluate("getComputedStyle(document.querySelector('main')).maxWidth")
        assert styled not in ("", "none"), f"the page's stylesheet did not load: max-width {styled}"
        links = page.eval_on_selector_all(
            "a[data-site-path]",
            "(links) => links.map((a) => [a.getAttribute('data-site-path'), a.href])",
        )
        # the header's title (review 31-t #3: it led to a further 404) and each language's home,
        # the address's language first (review 31-v #1)
        homes = (
            ["en/index.html", "zh/index.html"]
            if missing.startswith("en/")
            else ["zh/index.html", "en/index.html"]
        )
        assert [path for path, _ in links] == ["index.html", *homes], links
        for path, href in links:
            assert href == f"http://book.test{prefix}{path}", (path, href)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        home = page.goto(links[1][1])
        assert home is not None and home.status == 200, links[1]
    finally:
        context.close()


GUESS = """() => [...document.querySelectorAll('.not-found-lang')].map((s) => [
  s.dataset.lang, ...[...s.querySelectorAll('.not-found-guess a')].map((a) => [a.getAttribute('href'), a.textContent])
])"""


@pytest.mark.parametrize(
    "missing, expected",
    [
        # a typed name: the page of the address's language nearest it, that language's block first
        ("en/ch1-fleeet.html", ["en", "ch1-fleet.html"]),
        # a stale page with a fragment: the page that holds the section now, in each language
        ("zh/ch1-kv.html#q6", ["zh", "ch1-fleet.html#q6"]),
        # a slash after the name, a second extension: the same page
        ("en/ch1-fleet/", ["en", "ch1-fleet.html"]),
        ("en/glossary.html.bak", ["en", "glossary.html"]),
        # nothing near: no guess
        ("en/zzzzzzzzzzzz.html", ["en", None]),
        # hostile: markup in the address stays text, a fragment naming Object's own keys is no section
        ("en/%3Cimg%20src=x%20onerror=alert(1)%3E.html#__proto__", ["en", None]),
        ("constructor/x.html#constructor", ["zh", None]),
    ],
)
def test_the_404_page_guesses_the_page_meant_from_the_address(reader_site, missing, expected):
    """Review 31-v #1: a stale or mistyped address ended at a page offering only the home pages,
    Chinese first even under /en/."""
    context = reader_site["browser"].new_context(viewport={"width": 390, "height": 844})
    try:
        context.route("http://book.test/**", _host(reader_site["folder"], "/"))
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"http://book.test/{missing}", wait_until="load")
        blocks = page.evaluate(GUESS)
        first, target = expected
        assert blocks[0][0] == first, f"the address's language first: {blocks}"
        for block in blocks:
            lang, guesses = block[0], block[1:]
            if target is None:
                assert guesses == [], block
                continue
            assert len(guesses) == 1, block
            href, words = guesses[0]
            assert href == f"http://book.test/{lang}/{target}", block
            assert words.strip(), "the guess is named by its title"
            published = reader_site["folder"] / lang / target.split("#")[0]
            assert published.is_file(), href
            if "#" in target:
                section = target.split("#")[1]
                assert f'id="{section}"' in published.read_text(encoding="utf-8"), (
                    "the page holds the section"
                )
        assert page.locator("main img").count() == 0 and errors == [], errors
    finally:
        context.close()
