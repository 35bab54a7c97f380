"""What `serve` tells an open page after a rebuild: which of its sections changed (the page
patches them in place) or that it must reload (anything outside the article changed: navigation,
the table of contents, assets). Computed from the previous and the new in-memory site, so the
files on disk are never touched."""

from __future__ import annotations

import re

from .output import Output

ARTICLE_START = re.compile(rb"<article\b[^>]*>")
ARTICLE_END = b"</article>"
SECTION_HEADING = re.compile(rb'<h2 id="([^"]+)"')  # every h2 of an article opens a section

RELOAD = "reload"
# data a page fetches lazily (the preview cards' texts): when only it changed the page refreshes it
# instead of reloading, since a patched section may quote what it holds
REFRESHABLE = re.compile(r"assets/previews-[^/]+\.js")


def _article(html: bytes) -> tuple[bytes, bytes, bytes] | None:
    """(before the article's content, the content, after it), or None for a page without one."""
    start = ARTICLE_START.search(html)
    if not start or html.count(b"<article") != 1:
        return None
    end = html.find(ARTICLE_END, start.end())
    if end < 0:
        return None
    return html[: start.end()], html[start.end() : end], html[end:]


def _sections(body: bytes) -> list[tuple[str, bytes]]:
    """The article content cut at each section heading: [(section id, its markup)], the markup
    before the first heading under the id ""."""
    cuts = [(m.start(), m.group(1).decode("utf-8")) for m in SECTION_HEADING.finditer(body)]
    starts = [0] + [at for at, _ in cuts]
    ids = [""] + [section for _, section in cuts]
    ends = starts[1:] + [len(body)]
    return [(section, body[a:b]) for section, a, b in zip(ids, starts, ends, strict=False)]


def page_change(old: bytes, new: bytes) -> str | list[dict]:
    """RELOAD, or the changed sections [{"id", "old", "new"}] (markup as our renderer wrote it)."""
    before, after = _article(old), _article(new)
    if before is None or after is None or before[0] != after[0] or before[2] != after[2]:
        return RELOAD
    old_sections, new_sections = _sections(before[1]), _sections(after[1])
    if [s for s, _ in old_sections] != [s for s, _ in new_sections]:
        return RELOAD  # a section added, removed or renamed: the table of contents changed too
    return [
        {"id": section, "old": a.decode("utf-8"), "new": b.decode("utf-8")}
        for (section, a), (_, b) in zip(old_sections, new_sections, strict=False)
        if a != b
    ]


def site_changes(old: Output | None, new: Output) -> dict:
    """{"reload": True} when something every page may use changed (an asset, or no previous site
    to compare with); else {"reload": False, "pages": {path: RELOAD | [changed sections]}} for the
    HTML pages whose bytes changed, and "refresh": [the lazily fetched data files that changed]."""
    if old is None:
        return {"reload": True}
    paths = set(old.paths()) | set(new.paths())
    pages: dict[str, str | list] = {}
    refresh = []
    for path in sorted(paths):
        if path in old and path in new and old[path] == new[path]:
            continue
        if path in old and path in new and REFRESHABLE.fullmatch(path):
            refresh.append(path)
        elif not path.endswith(".html"):
            return {"reload": True}
        else:
            pages[path] = page_change(old[path], new[path]) if path in old and path in new else RELOAD
    return {"reload": False, "pages": pages, "refresh": refresh}
