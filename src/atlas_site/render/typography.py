"""A page's text as its language sets it, done once on the rendered main part (base.html.j2's
`typeset`) and on the text of its cards, whatever wrote it (prose, a ledger record, a template):

- Chinese: no ASCII space beside full-width punctuation and a lone em dash between Chinese
  characters as —— (cjk_spacing.py), a range of numbers with – ("2025—2026 年": 2025–2026);
  the same dash rule in a tooltip (`title`), which a CJK font otherwise shows as a single
  stroke that reads as 一 ("草稿—验证" beside "草稿——验证" in the text);
- a Latin-script language with typographic quotes of its own (QUOTES: English “…” ‘…’, German
  „…“ ‚…‘): the straight quotes of its text become curly ones, an apostrophe ’;
- every language: a variable written as an identifier outside math (`BW_eff`, `H_kv`, `t_first`,
  `C_good`, `t_{i−1}`) is set as its symbol, BW<sub>eff</sub>, the way the chapters' formulas and
  the glossary's names set it.

Code, preformatted text, math, SVG, scripts and styles keep what they hold; attribute values stay as
written (a tooltip's dash in Chinese aside); a quotation mark is judged by the visible characters
either side of it across inline tags (`"<em>fast</em>"`), and a block element ends the run."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape

from markupsafe import Markup

from .cjk_spacing import CJK_DASH, _pieces, chinese, tidy

# (opening double, closing double, opening single, closing single); the apostrophe is ’ in each
QUOTES = {"en": ("“", "”", "‘", "’"), "de": ("„", "“", "‚", "‘")}
APOSTROPHE = "’"
# a quotation mark after one of these (or at the start of a run) opens a quotation
OPENS_AFTER = frozenset("([{<—–-/‐“‘„‚«‹")
# the units of a text: an escaped quotation mark counts as the mark, any other entity as a letter
UNIT = re.compile(r"&(?:quot|#34|#x22|apos|#39|#x27);|&#?\w+;|.", re.S | re.I)
AS_QUOTE = {"&quot;": '"', "&#34;": '"', "&#x22;": '"', "&apos;": "'", "&#39;": "'", "&#x27;": "'"}
# a variable named like a program's identifier: one letter, or a capital and up to three letters
# (BW, TPOT), then _ and a subscript of up to six letters or digits, or {…} (t_{i−1}); not a word
# of a name such as exact_match or io_uring, not a piece of a path, an address or a formula
IDENTIFIER = re.compile(
    r"(?<![\w\\$/.#@&;:=?%+*^_{-])([A-Za-z]|[A-Z][A-Za-z]{1,3})_(?:\{([^{}\s<&]{1,8})\}|([A-Za-z0-9]{1,6}))(?![\w{(])"
)
TITLE = re.compile(r'(\stitle=")([^"]*)(")')


def quote_marks(html_lang: str) -> tuple[str, str, str, str] | None:
    return QUOTES.get(html_lang.split("-")[0].lower())


def _units(text: str) -> list[str]:
    return UNIT.findall(text)


def _char(unit: str) -> str:
    if unit in AS_QUOTE or unit.lower() in AS_QUOTE:
        return AS_QUOTE.get(unit, AS_QUOTE.get(unit.lower(), unit))
    return unescape(unit) if unit.startswith("&") and len(unit) > 1 else unit


def _mark(quote: str, left: str, right: str, marks) -> str:
    opening = left == "" or left.isspace() or left in OPENS_AFTER
    if quote == '"':
        return marks[0] if opening and right and not right.isspace() else marks[1]
    if left.isalnum() and right.isalnum():
        return APOSTROPHE  # don't, V3.2's
    if opening:
        # '90s, 'tis: an elision at the start of a word; otherwise a single quotation opens
        return APOSTROPHE if right.isdigit() else marks[2]
    return marks[3]


def _neighbour(pieces, start: int, step: int) -> str:
    """The visible character next to pieces[start - step] within the run, whitespace included:
    "" at a block boundary, "x" for a formula or code (a word of the run)."""
    index = start
    while 0 <= index < len(pieces):
        piece = pieces[index]
        if piece.kind == "block":
            return ""
        if piece.kind == "text" and piece.text:
            units = _units(piece.text)
            return _char(units[0] if step > 0 else units[-1])
        if piece.kind == "raw" and piece.text.strip() and not piece.text.startswith("<"):
            return "x"
        index += step
    return ""


def curl_quotes(html: str, marks) -> str:
    """The page with the straight quotation marks and apostrophes of its text made typographic."""
    pieces = list(_pieces(html))
    for index, piece in enumerate(pieces):
        if piece.kind != "text" or not any(
            q in piece.text for q in ('"', "'", "&quot;", "&#3", "&#x2", "&apos;")
        ):
            continue
        units = _units(piece.text)
        chars = [_char(u) for u in units]
        out = []
        for i, unit in enumerate(units):
            quote = chars[i]
            if quote not in ('"', "'") or (len(unit) > 1 and unit.lower() not in AS_QUOTE):
                out.append(unit)
                continue
            left = chars[i - 1] if i else _neighbour(pieces, index - 1, -1)
            right = chars[i + 1] if i + 1 < len(chars) else _neighbour(pieces, index + 1, 1)
            out.append(_mark(quote, left, right, marks))
        piece.text = "".join(out)
    return "".join(piece.text for piece in pieces)


def straight_quotes(html: str) -> int:
    """How many straight quotation marks the page's text still shows (a gate's count, a test's)."""
    return sum(
        sum(1 for u in _units(p.text) if _char(u) in ('"', "'") and (len(u) == 1 or u.lower() in AS_QUOTE))
        for p in _pieces(html)
        if p.kind == "text"
    )


def _subscripts(found: re.Match) -> str:
    return f"{found.group(1)}<sub>{found.group(2) or found.group(3)}</sub>"


def set_identifiers(html: str) -> str:
    """Identifiers in the page's text (never in code, math or attributes) set as symbols."""
    pieces = list(_pieces(html))
    for piece in pieces:
        if piece.kind == "text" and "_" in piece.text:
            piece.text = " ".join(
                word if "://" in word or "www." in word else IDENTIFIER.sub(_subscripts, word)
                for word in piece.text.split(" ")
            )
    return "".join(piece.text for piece in pieces)


def identifiers(html: str) -> list[str]:
    """The identifiers a page's text still shows as written (what set_identifiers would set)."""
    return [
        found.group(0)
        for piece in _pieces(html)
        if piece.kind == "text"
        for found in IDENTIFIER.finditer(piece.text)
    ]


# a range of numbers written with an em dash ("2025—2026 年"): Chinese writes a range with – or ～
RANGE_DASH = re.compile(r"(?<=\d)—(?=\d)")


def _cjk_ranges(html: str) -> str:
    pieces = list(_pieces(html))
    for piece in pieces:
        if piece.kind == "text" and "—" in piece.text:
            piece.text = RANGE_DASH.sub("–", piece.text)
    return "".join(piece.text for piece in pieces)


def _cjk_tooltips(html: str) -> str:
    """A Chinese tooltip's lone em dash as the text sets it (——)."""
    return TITLE.sub(lambda m: m.group(1) + CJK_DASH.sub("——", m.group(2)) + m.group(3), html)


def typeset_text(text: str, html_lang: str) -> str:
    """A plain text shown to readers outside the page's HTML (a card's data), set as the page is."""
    if chinese(html_lang):
        return RANGE_DASH.sub("–", CJK_DASH.sub("——", text))
    marks = quote_marks(html_lang)
    if marks is None or ('"' not in text and "'" not in text):
        return text
    out = []
    for i, char in enumerate(text):
        if char in ('"', "'"):
            out.append(_mark(char, text[i - 1] if i else "", text[i + 1] if i + 1 < len(text) else "", marks))
        else:
            out.append(char)
    return "".join(out)


def typesetter(html_lang: str) -> Callable[[Markup], Markup]:
    """What base.html.j2 passes a page's main part through."""
    cjk = chinese(html_lang)
    marks = quote_marks(html_lang)

    def typeset(markup) -> Markup:
        html = str(markup)
        if cjk:
            html = _cjk_tooltips(_cjk_ranges(tidy(html)))
        elif marks is not None:
            html = curl_quotes(html, marks)
        return Markup(set_identifiers(html))

    return typeset
