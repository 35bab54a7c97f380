"""Prose as a contributor wrote it, with directives, code, math and URLs masked out,
line by line with file:line, and whether each line sits inside a marked block."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..diagnostics import SourceLocation
from ..model import Page

_MASKS = [
    re.compile(r"\{\{[^{}]*\}\}"),  # {{claim:…}} {{ex:…}} {{term:…}} and block directives
    re.compile(r"`[^`]*`"),  # inline code
    re.compile(r"\$\$.*?\$\$|\$[^$]*\$"),  # math
    re.compile(r"\]\([^)]*\)"),  # link targets
    re.compile(r"\[@[^\]]*\]"),  # citations
    re.compile(r"\{#[^}]*\}"),  # heading ids
]
BLOCK_OPEN = re.compile(r"^\s*:::\s*([a-z]+)\s*(\S*)")
BLOCK_CLOSE = re.compile(r"^\s*:::\s*$")


@dataclass(frozen=True)
class ProseLine:
    location: SourceLocation
    text: str  # masked: same length as the source line, masked spans blanked
    raw: str  # the line as written (its citations, for one)
    block: str  # "misconception:m07" inside a marked block, else ""
    section: str


def _mask(line: str) -> str:
    for pattern in _MASKS:
        line = pattern.sub(lambda m: " " * len(m.group(0)), line)
    return line


def prose_lines(page: Page):
    section = ""
    for part in page.parts:
        block = ""
        fenced = False
        math_block = False
        for offset, line in enumerate(part.body.split("\n")):
            location = SourceLocation(part.path, part.body_line + offset, 1)
            stripped = line.strip()
            if stripped.startswith("```") or stripped.startswith("~~~"):
                fenced = not fenced
                continue
            if stripped == "$$":
                math_block = not math_block
                continue
            if fenced or math_block:
                continue
            heading = re.match(r"^#{2,3}\s.*\{#([A-Za-z0-9_-]+)\}\s*$", line)
            if heading:
                section = heading.group(1)
            opened = BLOCK_OPEN.match(line)
            if opened:
                block = f"{opened.group(1)}:{opened.group(2)}"
                continue
            if BLOCK_CLOSE.match(line):
                block = ""
                continue
            yield ProseLine(location, _mask(line), line, block, section)


def column_of(match: re.Match) -> int:
    return match.start() + 1
