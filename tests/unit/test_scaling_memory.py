"""What a build holds once its pages are rendered: the parts that grow with the number of pages
(issue 19, peak memory at 50x). Structural checks on the real book, never timings."""
from __future__ import annotations

import gc

from markdown_it.token import Token

from atlas_site.gates.html_index import CLAIM_CLASSES, index_html


def _reachable(root, kind: type, limit: int = 2_000_000) -> int:
    """How many objects of `kind` can be reached from `root` (a walk of referents, which must end
    before `limit` objects: a walk cut short would prove nothing)."""
    seen, queue, found = {id(root)}, [root], 0
    while queue and len(seen) < limit:
        item = queue.pop()
        if isinstance(item, kind):
            found += 1
        for child in gc.get_referents(item):
            if id(child) not in seen and not isinstance(child, type):
                seen.add(id(child))
                queue.append(child)
    assert not queue, f"more than {limit} objects reachable: the walk was cut short"
    return found


def test_the_page_index_keeps_no_parse_tokens(real_book):
    """Tokens are the largest thing per page: the index the gates read holds none of them."""
    assert real_book.parsed
    assert _reachable(real_book.parsed, Token) == 0


def test_the_page_index_knows_every_image_where_it_was_written(real_book):
    """The images gate reads the index (the tokens are gone by then): each image with its file:line:col."""
    from atlas_site.markdown import make_parser
    from atlas_site.render.markdown_rules import install_rules
    from atlas_site.resolve.pages import parse_page

    md = make_parser()
    install_rules(md)
    page = real_book.book.pages[0]
    part = page.parts[0]
    edited = page.model_copy(update={"parts": (part.model_copy(update={"body": part.body + "\n\nSee ![a chart](img/x.svg) here.\n"}),)
                                                + tuple(page.parts[1:])})
    images = parse_page(edited, md).images
    assert [src for src, _ in images] == ["img/x.svg"]
    where = images[0][1]
    assert (where.path, where.col) == (part.path, 14)  # at its "](" as the other gates locate it
    assert where.line == part.body_line + part.body.count("\n") + 2


def test_html_index_keeps_only_claim_markup_as_elements():
    html = ('<p><a href="x.html" class="claim-link">x</a><span class="claim" data-claim="c1">3×</span>'
            '<span class="badge badge-claim">author-reported</span><meta name="x" content="y"></p>')
    index = index_html(html)
    assert [e.tag for e in index.elements] == ["span", "span"]
    assert all(e.classes & CLAIM_CLASSES for e in index.elements)
    assert [href for href, _ in index.links] == ["x.html"]
