"""The box a wide formula or table scrolls sideways in. It is focusable, so a keyboard can scroll
it, and it sits in a frame of its own: a long page skips the blocks far from the screen
(content-visibility, web.css), and Chromium will not scroll a box that is itself skippable, so the
frame is what gets skipped. Before frames, Chapter 14's formulas and tables were laid out on the
first load wherever they were: about half of its first layouts' time.

A skipped frame is held 24rem tall. A table longer than that would spill out of it when measured
unseen, over the next blocks' links (Lighthouse's target-size audit measures the first load), so
a table of more rows than `SKIPPABLE_ROWS` keeps a frame that is never skipped (`tall`)."""

from __future__ import annotations

SKIPPABLE_ROWS = 8  # rows of two wrapped lines at 390 px still fit 24rem


def scroll_box_open(kind: str, rows: int = 0) -> str:
    """`kind` is the box's class: math-block or table-scroll; `rows` a table's, header included."""
    tall = " tall" if rows > SKIPPABLE_ROWS else ""
    return f'<div class="scroll-frame {kind}-frame{tall}"><div class="{kind}" tabindex="0">'


SCROLL_BOX_CLOSE = "</div></div>\n"
