"""The box a wide formula or table scrolls sideways in. It is focusable, so a keyboard can scroll
it, and it sits in a frame of its own: a long page skips the blocks far from the screen
(content-visibility, web.css), and Chromium will not scroll a box that is itself skippable, so the
frame is what gets skipped. Before frames, Chapter 14's formulas and tables were laid out on the
first load wherever they were: about half of its first layouts' time."""
from __future__ import annotations


def scroll_box_open(kind: str) -> str:
    """`kind` is the box's class: math-block or table-scroll."""
    return f'<div class="scroll-frame {kind}-frame"><div class="{kind}" tabindex="0">'


SCROLL_BOX_CLOSE = "</div></div>\n"
