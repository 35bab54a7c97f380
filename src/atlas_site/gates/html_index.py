"""One pass over a rendered HTML page for what only HTML can show: ids, links, scripts, the CSP,
handler and style attributes, and how much claim markup the renderer made. What a page holds (sections,
uses, terms, figures) the gates read from the parse index and the render manifest instead. The pages are our
own renderer's output, so a tag scanner suffices (and is ~10x faster than html.parser).

The gates keep the index of every page until they finish (the links gate looks up other pages'
ids), so it holds only the facts they read, never a page's tags or attribute dicts, and its
strings are interned: the same href or id on many pages is one string for the whole build."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from html import unescape

TAG = re.compile(r"<([a-zA-Z][\w:-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?)*)\s*/?>")
ATTR = re.compile(r"([^\s=>/]+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+)))?")
SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.S | re.I)
SVG = re.compile(r"<svg\b.*?</svg>", re.S)
ID = re.compile(r"\sid=\"([^\"]*)\"")
# tags whose attributes a gate reads; every other tag only contributes its id, handlers and style
INTERESTING = re.compile(r"^(?:a|meta|script)$|class=\"[^\"]*\b(?:claim|badge-claim|claim-setting)\b")


CLAIM_CLASSES = ("claim", "badge-claim", "claim-setting")  # the markup the claims gate counts


@dataclass(slots=True)
class Link:
    href: str
    rel: str  # the rel attribute, "" without one
    lang_switch: bool  # the header's language switch (data-lang-switch)


@dataclass
class HtmlIndex:
    ids: set = field(default_factory=set)
    links: list = field(default_factory=list)  # Link, in document order
    scripts: list = field(default_factory=list)  # (src or None, inline body)
    data_blocks: list = field(default_factory=list)  # the bodies of <script type="application/ld+json">
    handler_attrs: list = field(default_factory=list)  # (tag, attribute)
    style_attrs: int = 0
    csp: str | None = None
    claim_markup: dict = field(default_factory=dict)  # class of CLAIM_CLASSES -> how many elements carry it


def _attributes(text: str) -> dict:
    attrs = {}
    for match in ATTR.finditer(text):
        value = next((v for v in match.groups()[1:] if v is not None), "")
        attrs[sys.intern(match.group(1).lower())] = unescape(
            value
        )  # one copy of "href", "class", … for a book
    return attrs


def _attribute_names(text: str) -> list[str]:
    """The names of a tag's attributes; a value is skipped whole, so an escaped `"><svg onload=…>`
    inside one is text, not a handler."""
    return [match.group(1).lower() for match in ATTR.finditer(text)]


def _security(tag: str, names: list[str], index: HtmlIndex) -> None:
    index.handler_attrs += [(tag, name) for name in names if name.startswith("on")]
    index.style_attrs += names.count("style")


def index_html(html: str) -> HtmlIndex:
    index = HtmlIndex()
    # inline SVG figures hold thousands of drawing tags: only the security rules look inside them
    for svg in SVG.finditer(html):
        for match in TAG.finditer(svg.group(0)):
            if match.group(2):
                _security(match.group(1).lower(), _attribute_names(match.group(2)), index)
    outside = SVG.sub(lambda m: "<svg>" + " " * (len(m.group(0)) - 11) + "</svg>", html)  # same offsets
    index.ids.update(map(sys.intern, ID.findall(outside)))
    for match in TAG.finditer(outside):
        tag = match.group(1).lower()
        raw = match.group(2)
        if not INTERESTING.search(tag) and not INTERESTING.search(raw):
            if raw:
                _security(tag, _attribute_names(raw), index)
            continue
        attrs = _attributes(raw)
        if tag == "a" and "href" in attrs:
            index.links.append(
                Link(sys.intern(attrs["href"]), sys.intern(attrs.get("rel", "")), "data-lang-switch" in attrs)
            )
        elif tag == "meta" and attrs.get("http-equiv", "").lower() == "content-security-policy":
            index.csp = sys.intern(attrs.get("content", ""))
        _security(tag, list(attrs), index)
        classes = attrs.get("class", "").split()
        for name in CLAIM_CLASSES:
            if name in classes:
                index.claim_markup[name] = index.claim_markup.get(name, 0) + 1
    for match in SCRIPT.finditer(html):
        attrs = _attributes(match.group(1))
        src = attrs.get("src")
        if attrs.get("type") == "application/ld+json" and src is None:  # data a browser never runs
            index.data_blocks.append(match.group(2))
            continue
        index.scripts.append((sys.intern(src) if src is not None else None, match.group(2)))
    return index
