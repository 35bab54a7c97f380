"""Chinese typography on a rendered page: no ASCII space beside full-width punctuation.

A full-width mark (。，：（ …) carries its own blank half of the glyph, so the space a contributor
types after a run-in heading (`**痛点。** 最朴素…`), a template writes before a note (`…推算）。
<span class="evidence-note">本段数字…`) or a source line leaves before a parenthesis (`prefill
（分块预填充）`) shows as a gap twice as wide as the mark's own. Such whitespace is removed from the
page's text (between tags too: a paragraph's inline elements are one run of text; a block element
ends the run). Script, style, code, pre, math and SVG are left as written; so are attribute values.
A lone em dash between Chinese characters becomes —— (in a CJK font U+2014 alone is a thin
full-width stroke that reads as 一: 接受—拒绝 looked like 接受一拒绝). The same scanner counts what is left for the typography gate (gates/cjk_typography.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from markupsafe import Markup

# never used in Latin text: whitespace on either side of them goes
FULL_WIDTH = frozenset("，。、；：？！（）《》〈〉【】「」『』〔〕～")
# also quotation marks in Latin text: a space beside them goes only when its other side is Chinese
QUOTES = frozenset("“”")
# set between spaces on both sides, in any language
SEPARATORS = frozenset("·•|/—–→←")
# what a zh stylesheet writes before an element (site.css: :lang(zh) .claim-setting::before "（")
OPENED_BY = {"claim-setting": "（"}
BLOCKS = frozenset(
    """address article aside blockquote body br caption dd details dialog div dl dt fieldset figcaption
    figure footer form h1 h2 h3 h4 h5 h6 header hr html li main nav ol p section summary table tbody td
    tfoot th thead tr ul head title meta link button input select textarea label option img
    """.split()
)
VERBATIM = frozenset("script style code pre math svg textarea kbd samp".split())
TOKEN = re.compile(r"<!--.*?-->|<(/?)([a-zA-Z][\w:-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>|[^<]+|<", re.S)
CLASS = re.compile(r"""\bclass\s*=\s*["']([^"']*)["']""")
SPACE = re.compile(r"[ \t\r\n]+")
# a lone em dash beside Chinese: in a CJK font U+2014 is a thin full-width stroke that reads as 一
LONE_DASH = re.compile(r"(?<!—)—(?!—)")
# the same between Chinese characters or quotes, as a text written elsewhere (a ledger definition) has it
CJK_DASH = re.compile(r"(?<=[\u3400-\u9fff“”])(?<!—)—(?!—)(?=[\u3400-\u9fff“”])")


def _cjk(char: str) -> bool:
    return (
        "\u3400" <= char <= "\u9fff"
        or "\uf900" <= char <= "\ufaff"
        or char in FULL_WIDTH
        or char in QUOTES
        or "\u3000" <= char <= "\u303f"
    )


def _joins(before: str, after: str) -> bool:
    """Whether whitespace between these two visible characters is a gap to remove (not the spaces
    around a separator: "第 2 部分（共 8 部分） · 服务指标" keeps both sides of its dot alike)."""
    if before in SEPARATORS or after in SEPARATORS:
        return False
    if before in FULL_WIDTH or after in FULL_WIDTH:
        return True
    if before in QUOTES:
        return _cjk(after)
    if after in QUOTES:
        return _cjk(before)
    return False


@dataclass
class _Piece:
    text: str
    kind: str  # "text": page text to typeset; "tag": a boundary inside a run; "block": ends the run; "raw"
    opens: str = ""  # the mark a stylesheet writes before this element, if any


def _pieces(html: str) -> Iterator[_Piece]:
    verbatim: list[str] = []
    for found in TOKEN.finditer(html):
        closing, name, attributes = found.group(1), found.group(2), found.group(3)
        if name is None:
            text = found.group(0)
            if text.startswith("<!--") or verbatim:
                yield _Piece(text, "raw")
            else:
                yield _Piece(text, "text")
            continue
        tag = name.lower()
        if tag in VERBATIM and not attributes.rstrip().endswith("/"):
            if closing:
                if verbatim and verbatim[-1] == tag:
                    verbatim.pop()
            else:
                verbatim.append(tag)
            # a formula or code span reads as a word of the run: not a break, but not Chinese either
            yield _Piece(found.group(0), "block" if tag in ("pre", "script", "style") else "tag")
            continue
        if verbatim:
            yield _Piece(found.group(0), "raw")
            continue
        opens = ""
        if not closing:
            classes = CLASS.search(attributes or "")
            for name_ in classes.group(1).split() if classes else ():
                opens = OPENED_BY.get(name_, opens)
        yield _Piece(found.group(0), "block" if tag in BLOCKS else "tag", opens)


def _visible(pieces: list[_Piece], start: int, step: int, inside: str = "") -> str:
    """The first visible character from pieces[start] on (step 1) or back (step -1) within the run:
    "" at a block boundary, "x" for a formula or code (Latin-like)."""
    index = start
    while 0 <= index < len(pieces):
        piece = pieces[index]
        if piece.kind == "block":
            return ""
        if piece.kind == "text":
            text = piece.text.strip(" \t\r\n")
            if text:
                return text[0] if step > 0 else text[-1]
        elif piece.kind == "tag" and step > 0 and piece.opens:
            return piece.opens
        elif piece.kind == "raw" and piece.text.strip() and not piece.text.startswith("<"):
            return "x"
        index += step
    return ""


def _spaces(pieces: list[_Piece]) -> Iterator[tuple[int, re.Match, str, str]]:
    """Each whitespace run of the page text with the visible characters either side of it."""
    for index, piece in enumerate(pieces):
        if piece.kind != "text":
            continue
        for space in SPACE.finditer(piece.text):
            before = piece.text[: space.start()].rstrip(" \t\r\n")
            after = piece.text[space.end() :].lstrip(" \t\r\n")
            left = before[-1] if before else _visible(pieces, index - 1, -1)
            right = after[0] if after else _visible(pieces, index + 1, 1)
            yield index, space, left, right


def tidy(html: str) -> str:
    """The page with the whitespace beside full-width punctuation removed from its text."""
    pieces = list(_pieces(html))
    cuts: dict[int, list[tuple[int, int]]] = {}
    for index, space, left, right in _spaces(pieces):
        if left and right and _joins(left, right):
            cuts.setdefault(index, []).append(space.span())
    for index, spans in cuts.items():
        text = pieces[index].text
        for start, end in reversed(spans):
            text = text[:start] + text[end:]
        pieces[index].text = text
    for piece in pieces:
        if piece.kind == "text" and "—" in piece.text:
            piece.text = CJK_DASH.sub("——", piece.text)
    return "".join(piece.text for piece in pieces)


@dataclass(frozen=True)
class Finding:
    kind: str  # "space" or "dash"
    excerpt: str


def findings(html: str) -> list[Finding]:
    """What a Chinese page still has: whitespace beside full-width punctuation, and lone em dashes
    between Chinese characters (write —— for a dash, – or ～ for a range, 、 for a list)."""
    pieces = list(_pieces(html))
    found = []
    for index, space, left, right in _spaces(pieces):
        if left and right and _joins(left, right):
            text = pieces[index].text
            found.append(
                Finding("space", f"{left}{text[space.start() : space.end()]}{right}".replace("\n", "⏎"))
            )
    for piece in pieces:
        if piece.kind != "text":
            continue
        for dash in LONE_DASH.finditer(piece.text):
            left = piece.text[max(0, dash.start() - 1) : dash.start()]
            right = piece.text[dash.end() : dash.end() + 1]
            if left and right and _cjk(left) and _cjk(right):
                found.append(Finding("dash", piece.text[max(0, dash.start() - 6) : dash.end() + 6]))
    return found


def chinese(html_lang: str) -> bool:
    return html_lang.split("-")[0].lower() in ("zh", "ja")


def typesetter(html_lang: str):
    """What base.html.j2 passes a page's main part through: tidy() for Chinese, as is otherwise."""
    if not chinese(html_lang):
        return lambda markup: markup
    return lambda markup: Markup(tidy(str(markup)))
