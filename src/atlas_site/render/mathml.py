"""LaTeX -> MathML that can hold nothing but mathematics.

latex2mathml copies some of its input into the markup as is: `\\text{<script>…}` becomes a
<script> element, `\\href{javascript:…}` an href (a link no gate sees), `\\style{…}` a style
attribute. So its output is rebuilt here from a list of MathML elements and presentation
attributes; any other element keeps only its text, any other attribute is dropped, and every text
and value is escaped again. The result is also compact: HTML puts <math> in its namespace without
an xmlns attribute, and a symbol is written as its own character rather than a numeric reference
(markup characters stay escaped)."""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape
from html.parser import HTMLParser

from latex2mathml.converter import convert as latex_to_mathml

MARKUP = frozenset("\"&'<>")  # characters that stay references
ELEMENTS = frozenset(
    """math mrow mi mn mo ms mtext mspace msub msup msubsup mfrac msqrt mroot mstyle mtable mtr mtd
    mlabeledtr munder mover munderover mpadded mphantom menclose mmultiscripts mprescripts none merror semantics
    annotation mfenced maligngroup malignmark""".split()
)
ATTRIBUTES = frozenset(
    """display mathvariant mathsize mathcolor mathbackground stretchy fence separator separators
    accent accentunder lspace rspace minsize maxsize largeop movablelimits symmetric form linethickness columnalign
    rowalign columnspacing rowspacing columnlines rowlines frame framespacing displaystyle scriptlevel width height
    depth notation align equalrows equalcolumns side bevelled numalign denomalign voffset open close encoding
    rowspan columnspan""".split()
)


class _Rebuild(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)  # character references are kept as written
        self.out: list[str] = []
        self.open: list[str] = []

    def _tag(self, tag: str, attrs, closed: bool) -> None:
        if tag not in ELEMENTS:
            return
        kept = "".join(f' {name}="{escape(value or "")}"' for name, value in attrs if name in ATTRIBUTES)
        self.out.append(f"<{tag}{kept}{' /' if closed else ''}>")
        if not closed:
            self.open.append(tag)

    def handle_starttag(self, tag, attrs):
        self._tag(tag, attrs, closed=False)

    def handle_startendtag(self, tag, attrs):
        self._tag(tag, attrs, closed=True)

    def handle_endtag(self, tag):
        if tag in ELEMENTS and tag in self.open:
            while self.open:
                name = self.open.pop()
                self.out.append(f"</{name}>")
                if name == tag:
                    break

    def handle_data(self, data):
        self.out.append(escape(data, quote=False))

    def handle_charref(self, name):
        hexadecimal = name[:1] in "xX"
        digits = name[1:] if hexadecimal else name
        try:
            code = int(digits, 16 if hexadecimal else 10)
            symbol = chr(code) if 0x20 <= code and not 0xD800 <= code <= 0xDFFF else None
        except ValueError:
            self.out.append(escape(f"&#{name};", quote=False))
            return
        self.out.append(symbol if symbol and symbol not in MARKUP else f"&#{name};")

    def handle_entityref(self, name):
        self.out.append(f"&{name};" if name.isalnum() else escape(f"&{name};", quote=False))

    def result(self) -> str:
        self.close()
        return "".join(self.out) + "".join(f"</{name}>" for name in reversed(self.open))


def safe_mathml(markup: str) -> str:
    """MathML markup rebuilt from the allowed elements and attributes only."""
    builder = _Rebuild()
    builder.feed(markup)
    return builder.result()


@lru_cache(maxsize=4096)  # a pure function: an edited part converts only the formulas it did not have before
def to_mathml(source: str, display: bool) -> str:
    """LaTeX -> safe MathML with the source as its text alternative. Raises on LaTeX the converter
    cannot read (the caller shows the source instead)."""
    mathml = safe_mathml(latex_to_mathml(source, display="block" if display else "inline"))
    return mathml.replace("<math ", f'<math alttext="{escape(source)}" ', 1)


# a formula in a short ledger text (a glossary definition): $…$, as in the prose
DOLLARS = re.compile(r"\$([^$\n]+)\$")


def text_with_formulas(text: str) -> str:
    """A plain text with $…$ formulas as HTML: the text escaped, each formula as inline MathML (the
    glossary page renders its definitions as the chapters render theirs)."""
    parts, last = [], 0
    for found in DOLLARS.finditer(text):
        parts.append(escape(text[last : found.start()], quote=False))
        try:
            parts.append(f'<span class="math">{to_mathml(found.group(1), False)}</span>')
        except Exception:  # LaTeX the converter cannot read: its source, as written
            parts.append(escape(found.group(0), quote=False))
        last = found.end()
    parts.append(escape(text[last:], quote=False))
    return "".join(parts)


def formulas_as_source(text: str) -> str:
    """The same text where it stays plain (a tooltip, a preview card): each formula as plain text a
    reader can read (cards.js sets "t_first", "H_kv" and "t_{i-1}" with subscripts)."""
    return DOLLARS.sub(lambda found: formula_as_text(found.group(1)), text)


# the commands a short formula of a definition uses, as the characters they print
PLAIN_COMMANDS = {
    "times": "×", "cdot": "·", "sum": "Σ", "max": "max", "min": "min", "approx": "≈", "leq": "≤",
    "geq": "≥", "lceil": "⌈", "rceil": "⌉", "lfloor": "⌊", "rfloor": "⌋", "left": "", "right": "",
}  # fmt: skip
TEXT_COMMAND = re.compile(r"\\(?:text|mathrm)\{([^{}]*)\}")
COMMAND = re.compile(r"\\([A-Za-z]+)|\\[ ,;:!]")
SIMPLE_SCRIPT = re.compile(r"_\{([A-Za-z0-9]+)\}")
POWER = re.compile(r"\^\{([^{}]*)\}")


def formula_as_text(source: str) -> str:
    """A formula's LaTeX as plain text: "t_{\\text{first}} - t_{\\text{arrive}}" as "t_first −
    t_arrive": words out of \\text, a command as its sign, a power in brackets, a true minus sign."""
    text = TEXT_COMMAND.sub(r"\1", source)
    text = COMMAND.sub(lambda m: PLAIN_COMMANDS.get(m.group(1), m.group(1)) if m.group(1) else " ", text)
    text = POWER.sub(r"^(\1)", SIMPLE_SCRIPT.sub(r"_\1", text))
    text = re.sub(r"([⌈⌊]) | ([⌉⌋])", lambda m: m.group(1) or m.group(2), text.replace("-", "−"))
    return re.sub(r" {2,}", " ", text).strip()


# A display formula a phone cannot show on one line breaks before its top-level relations and
# plus or minus signs (MathML line breaking is not in the browsers): each piece is a formula of its
# own, in a row that wraps, so "expected benefit ≈ P(hit again) × … − storage − write − fetch"
# stacks on a phone and stays one line on a desk. A piece still too long breaks again before its
# top-level × or ·; a list of formulas set apart by \qquad breaks after each. A short formula stays whole.
RELATIONS = re.compile(
    r"\\(?:approx|leq?|geq?|neq?|pm|mp|sim|propto|equiv|gtrsim|lesssim)(?![A-Za-z])|[=+\-<>]"
)
PRODUCTS = re.compile(r"\\(?:times|cdot)(?![A-Za-z])")
GAPS = re.compile(r"\\qquad(?![A-Za-z])")  # the break comes after it: it ends its line unseen
OPENERS, CLOSERS = "{([", "})]"
WIDE = 44  # the width of the formula as read (commands and braces left out; a Chinese character twice) that fits a phone's line


def _read_length(source: str) -> int:
    plain = re.sub(r"\\[A-Za-z]+|[{}_^\\]", "", source)
    return sum(2 if "\u2e80" <= char <= "\u9fff" else 1 for char in plain)


def _split(source: str, breaks: re.Pattern, after: bool = False) -> list[str]:
    """`source` cut before (or after) each top-level match of `breaks`: outside braces, brackets and
    \\left…\\right, never at a sign that is unary (after an operator, an opening, ^ or _)."""
    pieces, start, depth, index = [], 0, 0, 0
    previous = ""
    while index < len(source):
        char = source[index]
        if source.startswith("\\left", index) and not source[index + 5 : index + 6].isalpha():
            depth, index, previous = depth + 1, index + 6, "("  # \left and its delimiter
            continue
        if source.startswith("\\right", index) and not source[index + 6 : index + 7].isalpha():
            depth, index, previous = max(0, depth - 1), index + 7, ")"
            continue
        if char == "\\" and index + 1 < len(source) and not source[index + 1].isalpha():
            index, previous = index + 2, ")"  # an escaped brace, bracket or space
            continue
        if char in OPENERS:
            depth += 1
        elif char in CLOSERS:
            depth = max(0, depth - 1)
        elif depth == 0 and (found := breaks.match(source, index)):
            cut = found.end() if after else index
            if (after or (previous and previous not in "=+-<>,(^_&")) and start < cut < len(source):
                pieces.append(source[start:cut].strip())
                start = cut
            index, previous = found.end(), "="
            continue
        elif char == "\\":  # a command: read whole, so its letters are not taken for anything
            name = re.match(r"\\[A-Za-z]+", source[index:])
            if name:
                index, previous = index + len(name.group(0)), "x"
                continue
        if not char.isspace():
            previous = char
        index += 1
    pieces.append(source[start:].strip())
    # a piece that ended in a spacing command ("\ ") loses it with its space: no lone backslash
    return [piece.removesuffix("\\").strip() for piece in pieces if piece.removesuffix("\\").strip()]


def opens_with_operator(piece: str) -> bool:
    return bool(RELATIONS.match(piece) or PRODUCTS.match(piece))


def display_pieces(source: str) -> list[str]:
    """The formula's pieces, each from one top-level break to the next (the first keeps its left
    side): [source] when it is short or has no such break."""
    if _read_length(source) <= WIDE:
        return [source]
    pieces = []
    for listed in _split(source, GAPS, after=True):
        for piece in _split(listed, RELATIONS) if _read_length(listed) > WIDE else [listed]:
            pieces += _split(piece, PRODUCTS) if _read_length(piece) > WIDE else [piece]
    # a piece that cannot fit a phone's line either would only wrap to a line of its own and scroll
    # there: such a formula stays whole (and scrolls, saying so)
    if len(pieces) < 2 or any(_read_length(piece) > WIDE for piece in pieces):
        return [source]
    return pieces
