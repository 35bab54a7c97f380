"""One pass over a rendered HTML page: ids, links, scripts, attributes and prose text.
Every static gate reads this index instead of re-parsing the page its own way."""
from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict
    classes: frozenset
    text_start: int  # offset in the prose text when the element opened


@dataclass
class HtmlIndex:
    ids: set = field(default_factory=set)
    links: list = field(default_factory=list)  # (href, attrs)
    scripts: list = field(default_factory=list)  # (src or None, inline body)
    handler_attrs: list = field(default_factory=list)  # (tag, attribute)
    style_attrs: int = 0
    csp: str | None = None
    elements: list = field(default_factory=list)  # Element, in document order
    prose_text: str = ""  # text inside <article class="prose">, excluding question cards
    html_lang: str = ""


class _Indexer(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.index = HtmlIndex()
        self.stack: list[tuple[str, frozenset]] = []
        self.text: list[str] = []
        self.length = 0
        self.script: list[str] | None = None
        self.script_src = None

    def _in(self, class_name: str) -> bool:
        return any(class_name in classes for _, classes in self.stack)

    def handle_starttag(self, tag, attrs):
        attributes = {k: (v or "") for k, v in attrs}
        classes = frozenset(attributes.get("class", "").split())
        if "id" in attributes:
            self.index.ids.add(attributes["id"])
        if tag == "html":
            self.index.html_lang = attributes.get("lang", "")
        if tag == "a" and "href" in attributes:
            self.index.links.append((attributes["href"], attributes))
        if tag == "meta" and attributes.get("http-equiv", "").lower() == "content-security-policy":
            self.index.csp = attributes.get("content", "")
        for name in attributes:
            if name.startswith("on"):
                self.index.handler_attrs.append((tag, name))
        if "style" in attributes:
            self.index.style_attrs += 1
        if tag == "script":
            self.script, self.script_src = [], attributes.get("src")
        self.index.elements.append(Element(tag, attributes, classes, self.length))
        if tag not in VOID:
            self.stack.append((tag, classes))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag == "script" and self.script is not None:
            self.index.scripts.append((self.script_src, "".join(self.script)))
            self.script = None
        for position in range(len(self.stack) - 1, -1, -1):
            if self.stack[position][0] == tag:
                del self.stack[position:]
                break

    def handle_data(self, data):
        if self.script is not None:
            self.script.append(data)
            return
        if self._in("prose") and not self._in("qcards") and not self._in("figure-box"):
            self.text.append(data)
            self.length += len(data)


def index_html(html: str) -> HtmlIndex:
    parser = _Indexer()
    parser.feed(html)
    parser.close()
    parser.index.prose_text = "".join(parser.text)
    return parser.index
