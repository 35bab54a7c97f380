"""One pass over a rendered HTML page for what only HTML can show: ids, links, scripts, the CSP,
handler and style attributes, and the claim markup the renderer made. What a page holds (sections,
uses, terms, figures) the gates read from the parse index and the render manifest instead. The pages are our
own renderer's output, so a tag scanner suffices (and is ~10x faster than html.parser)."""
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


CLAIM_CLASSES = frozenset({"claim", "badge-claim", "claim-setting"})  # the elements the claims gate reads


@dataclass(slots=True)
class Element:
    tag: str
    attrs: dict
    classes: frozenset


@dataclass
class HtmlIndex:
    ids: set = field(default_factory=set)
    links: list = field(default_factory=list)  # (href, attrs)
    scripts: list = field(default_factory=list)  # (src or None, inline body)
    handler_attrs: list = field(default_factory=list)  # (tag, attribute)
    style_attrs: int = 0
    csp: str | None = None
    elements: list = field(default_factory=list)  # Element of the claim markup, in document order


def _attributes(text: str) -> dict:
    attrs = {}
    for match in ATTR.finditer(text):
        value = next((v for v in match.groups()[1:] if v is not None), "")
        attrs[sys.intern(match.group(1).lower())] = unescape(value)  # one copy of "href", "class", … for a book
    return attrs


def _attribute_names(text: str) -> list[str]:
    """The names of a tag's attributes; a value is skipped whole, so an escaped `"><svg onload=…>`
    inside one is text, not a handler."""
    return [match.group(1).lower() for match in ATTR.finditer(text)]


def _security(tag: str, names: list[str], index: "HtmlIndex") -> None:
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
    index.ids.update(ID.findall(outside))
    for match in TAG.finditer(outside):
        tag = match.group(1).lower()
        raw = match.group(2)
        if not INTERESTING.search(tag) and not INTERESTING.search(raw):
            if raw:
                _security(tag, _attribute_names(raw), index)
            continue
        attrs = _attributes(raw)
        classes = frozenset(attrs.get("class", "").split())
        if tag == "a" and "href" in attrs:
            index.links.append((attrs["href"], attrs))
        elif tag == "meta" and attrs.get("http-equiv", "").lower() == "content-security-policy":
            index.csp = attrs.get("content", "")
        _security(tag, list(attrs), index)
        if classes & CLAIM_CLASSES:  # every page's links and meta tags are read above, not kept twice
            index.elements.append(Element(tag, attrs, classes))
    for match in SCRIPT.finditer(html):
        attrs = _attributes(match.group(1))
        index.scripts.append((attrs.get("src"), match.group(2)))
    return index
