"""The rendered HTML pages as element trees, and back as XHTML. Parsing follows the HTML standard
(html5lib), so inline SVG keeps `viewBox` and MathML its namespace; the serializer writes
polyglot markup: well-formed XML that an HTML parser reads the same way (no self-closed `<div/>`),
with attributes in source order, so the same page always gives the same bytes."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from html import escape

import html5lib

XHTML = "http://www.w3.org/1999/xhtml"
SVG = "http://www.w3.org/2000/svg"
MATHML = "http://www.w3.org/1998/Math/MathML"
XLINK = "http://www.w3.org/1999/xlink"
XML = "http://www.w3.org/XML/1998/namespace"
EPUB = "http://www.idpf.org/2007/ops"
XMLNS = "http://www.w3.org/2000/xmlns/"
PREFIXES = {XLINK: "xlink", XML: "xml", EPUB: "epub"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def parse_html(text: str) -> ET.Element:
    """A whole page or a fragment of our own HTML, as an ElementTree in namespaces."""
    return html5lib.parse(text, treebuilder="etree", namespaceHTMLElements=True)


def name(element: ET.Element) -> str:
    """The local name of an element, without its namespace."""
    tag = element.tag
    return tag.rsplit("}", 1)[1] if isinstance(tag, str) and "}" in tag else str(tag)


def namespace(element: ET.Element) -> str:
    tag = element.tag
    return tag[1:].split("}", 1)[0] if isinstance(tag, str) and tag.startswith("{") else ""


def html(tag: str, attrs: dict | None = None, text: str | None = None) -> ET.Element:
    element = ET.Element(f"{{{XHTML}}}{tag}", attrs or {})
    element.text = text
    return element


def classes(element: ET.Element) -> set[str]:
    return set((element.get("class") or "").split())


def add_class(element: ET.Element, *names: str) -> None:
    element.set("class", " ".join(sorted(classes(element) | set(names))))


def find_first(root: ET.Element, tag: str, with_class: str | None = None) -> ET.Element | None:
    for element in root.iter(f"{{{XHTML}}}{tag}"):
        if with_class is None or with_class in classes(element):
            return element
    return None


def parents(root: ET.Element) -> dict[ET.Element, ET.Element]:
    return {child: parent for parent in root.iter() for child in parent}


def remove(element: ET.Element, parent: ET.Element) -> None:
    """Take `element` out, keeping the text that followed it."""
    _keep_tail(element, parent)
    parent.remove(element)


def unwrap(element: ET.Element, parent: ET.Element) -> None:
    """Replace `element` by its content (text and children)."""
    index = list(parent).index(element)
    children = list(element)
    if element.text:
        if index == 0:
            parent.text = (parent.text or "") + element.text
        else:
            before = parent[index - 1]
            before.tail = (before.tail or "") + element.text
    last_tail = element.tail
    parent.remove(element)
    for offset, child in enumerate(children):
        parent.insert(index + offset, child)
    if last_tail:
        if children:
            children[-1].tail = (children[-1].tail or "") + last_tail
        elif index == 0:
            parent.text = (parent.text or "") + last_tail
        else:
            before = parent[index - 1]
            before.tail = (before.tail or "") + last_tail


def _keep_tail(element: ET.Element, parent: ET.Element) -> None:
    if not element.tail:
        return
    index = list(parent).index(element)
    if index == 0:
        parent.text = (parent.text or "") + element.tail
    else:
        before = parent[index - 1]
        before.tail = (before.tail or "") + element.tail


def text_of(element: ET.Element) -> str:
    return "".join(element.itertext())


def serialize(element: ET.Element, parent_namespace: str = XHTML) -> str:
    """XHTML of `element` and its descendants. A namespace is declared where it starts (the
    html, svg and math roots); the xlink, xml and epub prefixes are declared by the document."""
    out: list[str] = []
    _write(element, parent_namespace, out)
    return "".join(out)


def _write(element: ET.Element, parent_namespace: str, out: list[str]) -> None:
    if not isinstance(element.tag, str):  # a comment or processing instruction: not ours to keep
        if element.tail:
            out.append(escape(element.tail, quote=False))
        return
    own = namespace(element)
    tag = name(element)
    out.append(f"<{tag}")
    if own != parent_namespace:
        out.append(f' xmlns="{own}"')
    for key, value in element.attrib.items():
        attribute = _attribute_name(key)
        if attribute is not None:
            out.append(f' {attribute}="{escape(value, quote=True)}"')
    children = list(element)
    if own == XHTML and tag in VOID:
        out.append("/>")
    elif own != XHTML and not children and not element.text:
        out.append("/>")
    else:
        out.append(">")
        if element.text:
            out.append(escape(element.text, quote=False))
        for child in children:
            _write(child, own, out)
        out.append(f"</{tag}>")
    if element.tail:
        out.append(escape(element.tail, quote=False))


def _attribute_name(key: str) -> str | None:
    """`{ns}local` -> `prefix:local`; namespace declarations the parser kept as attributes are
    written by the serializer itself, so they are dropped here."""
    if not key.startswith("{"):
        return key
    uri, local = key[1:].split("}", 1)
    if uri == XMLNS:
        return None
    prefix = PREFIXES.get(uri)
    return f"{prefix}:{local}" if prefix else local
