"""What a section is for translation tracking, and what its fingerprint covers.

A section is an h2 or h3 with its id, from its heading line up to the next h2 or h3 of the page:
an h2's own text stops where its first h3 starts, so every line of a page belongs to exactly one
section and an edit marks exactly the section it is in (h4 and below stay inside their section).
The page's title and short title, and any text before its first heading, form the section TOP.

The fingerprint covers the section's source text as written, heading and directives included
({{claim:…}}, [@r42], ::: blocks), with every whitespace character removed: re-wrapping a
paragraph, re-indenting or adding blank lines is not an edit; changing one character is."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from ..diagnostics import SourceLocation

TOP = ""  # the section id of a page's opening (the parse index's section before the first heading)
SPACE = re.compile(r"\s+")


def fingerprint(text: str) -> str:
    return hashlib.sha256(SPACE.sub("", text).encode("utf-8")).hexdigest()[:16]


def shown(section_id: str) -> str:
    """How a section is named to people (and in the lock): its id, or (top)."""
    return section_id or "(top)"


@dataclass(frozen=True)
class Line:
    path: str
    number: int  # 1-based line in the file
    text: str


@dataclass(frozen=True)
class SectionText:
    page: str
    lang: str
    id: str
    location: SourceLocation  # the heading (the page's first line for TOP)
    lines: tuple[Line, ...]

    @property
    def text(self) -> str:
        """The source text, without the blank lines around it."""
        return "\n".join(line.text for line in self.trimmed())

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.text)

    def trimmed(self) -> list[Line]:
        lines = list(self.lines)
        while lines and not lines[0].text.strip():
            lines.pop(0)
        while lines and not lines[-1].text.strip():
            lines.pop()
        return lines

    def location_of(self, index: int) -> SourceLocation:
        """Where the `index`-th line of `text` is (the page's first line for the title)."""
        lines = self.trimmed()
        line = lines[min(index, len(lines) - 1)] if lines else None
        return (
            SourceLocation(line.path, line.number, 1) if line is not None and line.number else self.location
        )


def page_sections(parsed) -> dict[str, SectionText]:
    """Every section of one parsed page, in page order, keyed by id (TOP first)."""
    page = parsed.page
    starts = {(s.location.path, s.location.line): s for s in parsed.sections}
    origin = page.origin
    # the title is part of the opening: a changed title is a translation change too
    title = [Line(origin.path, 0, f"title: {page.meta.title}")]
    if page.meta.short_title:
        title.append(Line(origin.path, 0, f"short_title: {page.meta.short_title}"))
    collected: dict[str, list[Line]] = {TOP: title}
    where: dict[str, SourceLocation] = {TOP: origin}
    current = TOP
    for part in page.parts:
        for index, text in enumerate(part.body.split("\n")):
            number = part.body_line + index
            heading = starts.get((part.path, number))
            if heading is not None:
                current = heading.id
                where.setdefault(current, heading.location)
                collected.setdefault(current, [])  # a repeated id (reported elsewhere) keeps every line
            collected[current].append(Line(part.path, number, text))
    return {
        key: SectionText(page.id, page.lang, key, where[key], tuple(lines))
        for key, lines in collected.items()
    }
