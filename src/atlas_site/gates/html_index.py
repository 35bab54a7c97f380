"""One pass over a rendered HTML page: ids, links, scripts, attributes and prose text.
Every static gate reads this index instead of re-parsing the page its own way. The pages are our
own renderer's output, so a tag scanner suffices (and is ~10x faster than html.parser)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import unescape

TAG = re.compile(r"<([a-zA-Z][\w:-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?)*)\s*/?>")
ATTR = re.compile(r"([^\s=>/]+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+)))?")
SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.S | re.I)
ARTICLE = re.compile(r"<article\b[^>]*\bclass=\"prose\"[^>]*>(.*?)</article>", re.S)
NOT_PROSE = re.compile(r"<ol class=\"qcards\"[^>]*>.*?</ol>|<div class=\"figure-box\">.*?</div>\n|<script\b.*?</script>", re.S)
ANY_TAG = re.compile(r"<[^>]+>")
SVG = re.compile(r"<svg\b.*?</svg>", re.S)
ID = re.compile(r"\sid=\"([^\"]*)\"")
# tags whose attributes a gate reads; every other tag only contributes its id, handlers and style
INTERESTING = re.compile(r"^(?:a|meta|html|dfn|script)$|class=\"[^\"]*\b(?:claim|badge-claim|claim-setting)\b|data-lab=|data-statement=")


@dataclass
class Element:
    tag: str
    attrs: dict
    classes: frozenset
    text_start: int = 0  # offset in the prose text (set for <dfn>, which the terms gate needs)


@dataclass
class HtmlIndex:
    ids: set = field(default_factory=set)
    links: list = field(default_factory=list)  # (href, attrs)
    scripts: list = field(default_factory=list)  # (src or None, inline body)
    handler_attrs: list = field(default_factory=list)  # (tag, attribute)
    style_attrs: int = 0
    csp: str | None = None
    elements: list = field(default_factory=list)  # Element, in document order
    prose_text: str = ""  # text inside <article class="prose">, without question cards and figures
    html_lang: str = ""


def _attributes(text: str) -> dict:
    attrs = {}
    for match in ATTR.finditer(text):
        value = next((v for v in match.groups()[1:] if v is not None), "")
        attrs[match.group(1).lower()] = unescape(value)
    return attrs


def _attribute_names(text: str) -> list[str]:
    """The names of a tag's attributes; a value is skipped whole, so an escaped `"><svg onload=…>`
    inside one is text, not a handler."""
    return [match.group(1).lower() for match in ATTR.finditer(text)]


def _security(tag: str, names: list[str], index: "HtmlIndex") -> None:
    index.handler_attrs += [(tag, name) for name in names if name.startswith("on")]
    index.style_attrs += names.count("style")


def _prose(article_html: str) -> str:
    return unescape(ANY_TAG.sub("", NOT_PROSE.sub("", article_html)))


def index_html(html: str) -> HtmlIndex:
    index = HtmlIndex()
    article = ARTICLE.search(html)
    # inline SVG figures hold thousands of drawing tags: only the security rules look inside them
    for svg in SVG.finditer(html):
        for match in TAG.finditer(svg.group(0)):
            if match.group(2):
                _security(match.group(1).lower(), _attribute_names(match.group(2)), index)
    outside = SVG.sub(lambda m: "<svg>" + " " * (len(m.group(0)) - 11) + "</svg>", html)  # same offsets
    prose_before, prose_upto = 0, article.start(1) if article else 0  # running prose length, for <dfn>
    index.ids.update(ID.findall(outside))
    for match in TAG.finditer(outside):
        tag = match.group(1).lower()
        raw = match.group(2)
        if not INTERESTING.search(tag) and not INTERESTING.search(raw):
            if raw:
                _security(tag, _attribute_names(raw), index)
            continue
        attrs = _attributes(raw)
        element = Element(tag, attrs, frozenset(attrs.get("class", "").split()))
        if tag == "html":
            index.html_lang = attrs.get("lang", "")
        elif tag == "a" and "href" in attrs:
            index.links.append((attrs["href"], attrs))
        elif tag == "meta" and attrs.get("http-equiv", "").lower() == "content-security-policy":
            index.csp = attrs.get("content", "")
        elif tag == "dfn" and article and article.start(1) <= match.start() < article.end(1):
            prose_before += len(_prose(html[prose_upto:match.start()]))
            prose_upto = match.start()
            element.text_start = prose_before
        _security(tag, list(attrs), index)
        index.elements.append(element)
    for match in SCRIPT.finditer(html):
        attrs = _attributes(match.group(1))
        index.scripts.append((attrs.get("src"), match.group(2)))
    index.prose_text = _prose(article.group(1)) if article else ""
    return index
