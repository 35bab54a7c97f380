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
        # the header's title (review 31-t #3: it led to a further 404) and each language's home
        assert [path for path, _ in links] == ["index.html", "zh/index.html", "en/index.html"], links
        for path, href in links:
            assert href == f"http://book.test{prefix}{path}", (path, href)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        home = page.goto(links[1][1])
        assert home is not None and home.status == 200, links[1]
    finally:
        context.close()
