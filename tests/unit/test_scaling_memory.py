"""What a build holds once its pages are rendered: the parts that grow with the number of pages
(issue 19, peak memory at 50x). Structural checks on the reader's fixture book (a chapter split into
parts, claims, figures, a lab), never timings."""

from __future__ import annotations

import gc

from markdown_it.token import Token

from atlas_site.gates.html_index import index_html


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


def test_the_page_index_keeps_no_parse_tokens(reader_build):
    """Tokens are the largest thing per page: the index the gates read holds none of them."""
    parsed = reader_build[0].parsed
    assert parsed
    assert _reachable(parsed, Token) == 0


def test_the_page_index_keeps_no_text_runs_and_the_reading_order_is_made_again(reader_build):
    """The page's text in reading order is read by one rule on a few pages: made from the tokens
    when asked, equal in its uses to the index, never held for every page."""
    from atlas_site.markdown import make_parser
    from atlas_site.resolve.pages import Event, part_tokens, reading_order

    assert _reachable(reader_build[0].parsed, Event) == 0
    parsed = reader_build[0].parsed[("en", "ch1")]
    events = reading_order(parsed.page, part_tokens(make_parser()))
    assert [e.use for e in events if e.use is not None] == parsed.uses
    texts = [e for e in events if e.use is None]
    assert texts and all(e.text.strip() and e.location.path.startswith("content/en/ch1/") for e in texts)
    assert [(e.location.path, e.location.line) for e in events] == sorted(
        (e.location.path, e.location.line) for e in events
    )


def test_the_page_index_knows_every_image_where_it_was_written(reader_build):
    """The images gate reads the index (the tokens are gone by then): each image with its file:line:col."""
    from atlas_site.markdown import make_parser
    from atlas_site.render.markdown_rules import install_rules
    from atlas_site.resolve.pages import parse_page

    md = make_parser()
    install_rules(md)
    page = reader_build[0].book.pages[0]
    part = page.parts[0]
    edited = page.model_copy(
        update={
            "parts": (part.model_copy(update={"body": part.body + "\n\nSee ![a chart](img/x.svg) here.\n"}),)
            + tuple(page.parts[1:])
        }
    )
    images = parse_page(edited, md).images
    assert [src for src, _ in images] == ["img/x.svg"]
    where = images[0][1]
    assert (where.path, where.col) == (part.path, 14)  # at its "](" as the other gates locate it
    assert where.line == part.body_line + part.body.count("\n") + 2


def test_html_index_keeps_only_the_facts_the_gates_read():
    html = (
        '<p><a href="x.html" class="claim-link" title="t">x</a><span class="claim" data-claim="c1">3×</span>'
        '<span class="badge badge-claim">author-reported</span><meta name="x" content="y"></p>'
    )
    index = index_html(html)
    assert index.claim_markup == {
        "claim": 1,
        "badge-claim": 1,
    }  # counted by exact class: "claim-link" is none
    assert [(link.href, link.rel, link.lang_switch) for link in index.links] == [("x.html", "", False)]


def test_the_same_href_or_id_on_two_pages_is_one_string():
    """A big book repeats its hrefs and ids on every page (navigation, citations, copies of a
    section): the indexes the gates keep until they finish share them."""
    first, second = (
        index_html(f'<h2 id="{"q" + "1"}"><a href="{"bibliography.html#src-" + "x"}">x</a></h2>')
        for _ in range(2)
    )
    assert first.links[0].href is second.links[0].href
    assert next(iter(first.ids)) is next(iter(second.ids))


def test_the_gates_index_of_a_real_page_holds_no_tag_attributes(reader_build):
    """Of each page the gates keep only what they read: no attribute dict of any tag (the claim
    markup is one small count per class)."""
    for path in ("zh/ch1.html", "en/bibliography.html"):
        index = index_html(reader_build[0].output.text(path))
        assert index.links and index.claim_markup.keys() <= {"claim", "badge-claim", "claim-setting"}
        assert _reachable(index, dict) == 1  # the counts themselves
