"""A split chapter's pages show the strip of its parts under the title, as a series' pages show
theirs: made from the split's own pages (their headings), this page marked, the others linked; on
the opening page under its question cards (the first screen is theirs: book.yaml first_screen)."""

from __future__ import annotations

import re

from test_split import book, built  # noqa: F401 (the split fixture book)


def _strip(html: str) -> str:
    found = re.search(r'<nav class="series series-parts" aria-label="([^"]*)"[^>]*>(.*?)</nav>', html, re.S)
    assert found, "no parts strip"
    return found.group(0)


def test_every_part_page_shows_the_strip_of_parts_at_its_top(book):  # noqa: F811
    site = built(book)
    for lang, names in (("en", ("More",)), ("zh", ("更多",))):
        first = (site / lang / "ch14.html").read_text(encoding="utf-8")
        second = (site / lang / "ch14-more.html").read_text(encoding="utf-8")
        for page, here in ((first, 0), (second, 1)):
            strip = _strip(page)
            items = re.findall(r"<li>(.*?)</li>", strip)
            assert len(items) == 2, items  # both parts, in order
            assert 'aria-current="page"' in items[here] and "href" not in items[here]
            other = items[1 - here]
            assert re.search(r'href="ch14(-more)?\.html"', other), other
            if here:  # at the top: under the title, before the page's tools and its text
                assert page.index("</h1>") < page.index(strip) < page.index('<div class="page-tools">')
                assert page.index(strip) < page.index('<article class="prose"')
            else:  # the opening: right under its question cards, which keep the first screen
                assert page.index('class="qcards-toggle"') < page.index(strip) < page.index('id="q1"')
        assert names[0] in _strip(first)
        # a landmark of its own name: the contents beside it are "In this chapter"
        label = re.search(r'<nav class="series series-parts" aria-label="([^"]*)"', first).group(1)
        contents = re.search(r'<nav class="toc"[^>]*aria-label="([^"]*)"', first).group(1)
        assert label and label != contents, (label, contents)
