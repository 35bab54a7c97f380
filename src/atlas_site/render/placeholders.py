"""How tall a paragraph of prose is before the browser lays it out. A long page skips the blocks far
from the screen (content-visibility, web.css) and holds each at a placeholder height until it
comes near. One height for every block (24rem) made Chapter 14's zh/ch14-memory.html 18,986 px
tall at 1280 px on the first load and 11,115 px once laid out: the scrollbar and the reading
place jumped as the reader came near (review 31-i #5).

Each top-level paragraph carries its length in text units (`data-u`: a Chinese character is one,
any other character half, about the width each takes), and the stylesheet turns units into a
height for the width it is read at. The estimate errs tall (the fit's mean plus 1.5 standard
deviations, on the Atlas's 346 paragraphs at 390 and 1280 px): a paragraph measured unseen stays
inside its placeholder, not over the next block's links."""

from __future__ import annotations

import re
from html import unescape

# a paragraph of the prose itself: markdown_rules._block_open numbers the top-level ones only
PROSE_PARAGRAPH = re.compile(r'<p data-para="([^"]*)">(.*?)</p>', re.S)
TAG = re.compile(r"<[^>]+>")
HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
SPACE = re.compile(r"\s+")


def text_units(html: str) -> int:
    """The width of a block's text in units of one Chinese character."""
    text = SPACE.sub("", unescape(TAG.sub("", html)))
    han = len(HAN.findall(text))
    return round(han + (len(text) - han) / 2)


def with_lengths(html: str) -> str:
    """`html` with each prose paragraph's length in text units (data-u) for its placeholder."""
    return PROSE_PARAGRAPH.sub(
        lambda m: f'<p data-para="{m.group(1)}" data-u="{text_units(m.group(2))}">{m.group(2)}</p>', html
    )
