"""What the 404 page needs to lead a reader from a missing address to the page it probably meant
(review 31-v #1: a stale link to a section that moved to a part page, or a typed glossary.htm, ended at a page that
only offered the home pages). Made from the finished site, after the chapters are split: for each
language, every page's address and title, and every section id with the pages that hold it and
its heading. not-found.js picks the page that holds the address's #fragment (the one whose file
name is nearest the missing one when several do), else the page whose file name is nearest."""

from __future__ import annotations

import json
import re

from ..output import Output
from .previews import plain

_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
_HEADING = re.compile(r'<h([23])[^>]*\sid="([^"]+)"[^>]*>(.*?)</h\1>', re.S)
_LONGEST = 90  # characters of a heading shown as the guess's words


def _words(markup: str) -> str:
    """A title's or heading's words as a card shows them (previews.plain: no "#" anchor, no badge)."""
    text = plain(markup)
    return text if len(text) <= _LONGEST else text[: _LONGEST - 1] + "…"


def recovery_map(output: Output, languages: tuple[str, ...] | list[str]) -> str:
    """The map as compact JSON: {lang: {"pages": {path: title}, "ids": {id: [[path, heading], …]}}}."""
    found: dict[str, dict] = {lang: {"pages": {}, "ids": {}} for lang in languages}
    for path in output.html_pages():
        lang = path.split("/", 1)[0]
        if lang not in found or "/" not in path:
            continue
        page = output.text(path)
        title = _TITLE.search(page)
        # the page's title without the book's name after its last " · " (a part page's names its
        # first section and its chapter: the chapter's <h1> alone named every part alike)
        words = _words(title.group(1)).rsplit(" · ", 1)[0] if title else path
        found[lang]["pages"][path] = words
        for _level, section, heading in _HEADING.findall(page):
            if section.startswith("print-"):
                continue  # the printed page's own headings (its references), on every page
            found[lang]["ids"].setdefault(section, []).append([path, _words(heading)])
    return json.dumps(found, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
