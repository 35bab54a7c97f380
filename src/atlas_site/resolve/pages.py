"""Parse each page's parts into tokens and index what the page holds: its sections, every use of a
directive with the section it sits in and its file:line:col. This index is what the reference
checks, the renderer's cache keys and the gates read. The page's text in reading order (every run
of prose with its place) is made again when a rule reads it (`reading_order`), never kept: held for
every page until the gates finish, it was most of what the index held (~1.3 MiB per copy of the book)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt

from ..cache import BuildCache, NoCache, Versioned, digest
from ..diagnostics import Diagnostic, SourceLocation
from ..directives import REGISTRY
from ..markdown.syntax import inline_location
from ..model import Book, Page


@dataclass(frozen=True, slots=True)
class Use:
    kind: str  # a directive name (cite, claim, ex, term, figure, labs, misconception, …) or "link"
    key: str  # its argument: a ledger number, an id, "id.output", "a,b" or a link target
    section: str  # the innermost section it sits in ("" before the first heading)
    location: SourceLocation
    in_block: str = ""  # "misconception:m07" when inside a marked block
    text: str | None = None  # shown text: {{term:id|text}}

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(self.key.split(",")) if self.key else ()


@dataclass(frozen=True, slots=True)
class Section:
    id: str
    level: int
    title: str
    location: SourceLocation
    parent: str = ""  # the h2 an h3 sits under


@dataclass(frozen=True, slots=True)
class Event:
    """One piece of the page in reading order: a run of prose text, or a directive use."""

    location: SourceLocation
    text: str = ""
    use: Use | None = None
    linked: bool = False  # the text of a link: it names its target (a section, a glossary entry)


@dataclass
class ParsedPage:
    page: Page
    sections: list = field(default_factory=list)
    uses: list = field(default_factory=list)
    images: list = field(default_factory=list)  # (src, SourceLocation) of every image in the prose
    problems: list = field(default_factory=list)  # syntax problems found while indexing

    def uses_of(self, kind: str) -> list[Use]:
        return [u for u in self.uses if u.kind == kind]

    def section(self, section_id: str) -> Section | None:
        return next((s for s in self.sections if s.id == section_id), None)

    def figure_numbers(self) -> dict[str, int]:
        """Figure id -> its number on the page: figures are numbered by the order they are placed,
        known before rendering, so prose may refer to a figure that comes later ({{figref:id}})."""
        numbers: dict[str, int] = {}
        for use in self.uses_of("figure"):
            numbers.setdefault(use.key, len(numbers) + 1)
        return numbers

    def within(self, section_id: str, target: str) -> bool:
        """Is `section_id` the section `target` or one of its subsections?"""
        if section_id == target:
            return True
        section = self.section(section_id)
        return section is not None and section.parent == target


def _where(part, line0: int, col: int = 1) -> SourceLocation:
    return SourceLocation(part.path, part.body_line + line0, col)


class _Indexer:
    """Walks one page's tokens once, part by part."""

    def __init__(self, parsed: ParsedPage, events: list | None = None):
        self.parsed = parsed
        self.events = events  # the page in reading order, when asked for (Event)
        self.section = ""
        self.h2 = ""
        self.blocks: list[str] = []

    def add_use(self, part, kind, key, line0, col, text=None) -> None:
        use = Use(
            kind, key, self.section, _where(part, line0, col), self.blocks[-1] if self.blocks else "", text
        )
        self.parsed.uses.append(use)
        if self.events is not None:
            self.events.append(Event(use.location, use=use))

    def problem(self, part, line0, col, code, message, hint="") -> None:
        self.parsed.problems.append(Diagnostic(_where(part, line0, col), code, message, hint))

    def part(self, part, tokens) -> None:
        lines = part.body.split("\n")
        for index, token in enumerate(tokens):
            if token.type == "heading_open":
                self.heading(part, token, tokens[index + 1])
            elif token.type.startswith("container_") and token.type.endswith("_open"):
                self.container(part, token, lines)
            elif token.type.startswith("container_") and token.type.endswith("_close"):
                if self.blocks:
                    self.blocks.pop()
            elif token.type == "directive_block":
                self.directive(part, token.meta)
            elif (
                token.type == "paragraph_open"
                and token.map
                and lines[token.map[0]].lstrip().startswith(":::")
            ):
                name = lines[token.map[0]].strip()[3:].strip().split(" ")[0]
                self.problem(
                    part,
                    token.map[0],
                    1,
                    "block.unknown",
                    f"unknown block '::: {name}'",
                    f"one of {', '.join(REGISTRY.of_form('container'))}",
                )
            elif token.type == "inline":
                self.inline(part, token, lines)

    def heading(self, part, token, inline) -> None:
        location = _where(part, token.map[0])
        heading_id = token.attrGet("id")
        if token.tag not in ("h2", "h3"):
            return
        if not heading_id:
            self.problem(
                part,
                token.map[0],
                1,
                "heading.no-id",
                f"heading '{inline.content}' has no language-neutral id",
                "end it with {#some-id}",
            )
            return
        self.section = str(heading_id)
        if token.tag == "h2":
            self.h2 = self.section
        self.parsed.sections.append(
            Section(
                self.section,
                int(token.tag[1]),
                inline.content,
                location,
                self.h2 if token.tag == "h3" else "",
            )
        )

    def container(self, part, token, lines) -> None:
        name, _, arg = token.info.strip().partition(" ")
        arg = arg.strip()
        start, end = token.map
        closed = end < len(lines) and lines[end].strip().startswith(":::")  # map ends at the closing marker
        if not closed:  # markdown-it closes it at the end of the file: everything after would vanish into it
            self.problem(
                part,
                start,
                1,
                "block.unclosed",
                f"'::: {name}' block is never closed",
                "end the block with a line holding only ':::'",
            )
        self.blocks.append(f"{name}:{arg}")
        self.add_use(part, name, arg, start, 1)
        self.check_argument(part, name, arg, start, 1)

    def directive(self, part, meta) -> None:
        self.add_use(part, meta["kind"], meta["arg"], meta["line"], meta["col"], meta.get("text"))
        self.check_argument(part, meta["kind"], meta["arg"], meta["line"], meta["col"])

    def check_argument(self, part, name, arg, line0, col) -> None:
        directive = REGISTRY.get(name)
        if directive is None:
            return  # reported by the reference check with a "did you mean"
        problem = directive.argument_problem(arg)
        if problem:
            self.problem(part, line0, col, "directive.argument", problem, f"write {directive.example}")

    def image(self, part, token, child) -> None:
        src = str(child.attrGet("src") or "")
        self.parsed.images.append((src, _image_location(part, token, src)))

    def unfinished_directives(self, part, token, text: str, offset: int, lines: list[str]) -> None:
        """`{{name…` left in the text is a directive the parser could not read: a reader would see it
        raw. In a table row a bare '|' ends the cell, which cuts {{term:id|text}} in two."""
        for match in UNFINISHED_DIRECTIVE.finditer(text):
            line0, col = inline_location(token, offset + match.start(), lines)
            in_table = line0 < len(lines) and lines[line0].lstrip().startswith("|")
            self.problem(
                part,
                line0,
                col,
                "directive.unfinished",
                f"'{match.group(0)}' does not end with '}}}}': a reader would see it as raw text",
                "in a table row write the '|' of {{term:id|text}} as '\\|' (a bare '|' ends the cell)"
                if in_table
                else "close it with '}}', or write {{name:argument}} as the directive list shows",
            )

    def inline(self, part, token, lines: list[str]) -> None:
        position = 0  # where the previous child's text was found in the inline's source
        linked = 0  # depth of the links the child stands in
        for child in token.children or []:
            if child.type == "cite":
                for key in child.meta["keys"]:
                    self.add_use(part, "cite", key, child.meta["line"], child.meta["col"])
                position = child.meta["pos"]
            elif child.type == "directive":
                meta = child.meta
                directive = REGISTRY.get(meta["kind"])
                if directive is not None and directive.form != "inline":
                    self.problem(
                        part,
                        meta["line"],
                        meta["col"],
                        "directive.misplaced",
                        f"'{{{{{meta['kind']}}}}}' is a block directive: it stands alone as its own paragraph",
                        "put it on a line of its own with blank lines around it",
                    )
                self.directive(part, meta)
                position = meta["pos"]
            elif child.type == "image" and token.map:
                self.image(part, token, child)
            elif child.type == "link_open":
                href = str(child.attrGet("href") or "")
                found = token.content.find("](", position)
                line0, col = inline_location(token, found + 2 if found >= 0 else position, lines)
                self.add_use(part, "link", href, line0, col, _quoted_title(token, found, href))
                linked += 1
            elif child.type == "link_close":
                linked -= 1
            elif child.type in ("text", "code_inline") and child.content.strip():
                found = token.content.find(child.content, position)  # the next link is looked for after it
                if child.type == "text":
                    self.unfinished_directives(
                        part, token, child.content, found if found >= 0 else position, lines
                    )
                if self.events is not None:
                    line0, col = inline_location(token, found if found >= 0 else position, lines)
                    self.events.append(Event(_where(part, line0, col), text=child.content, linked=linked > 0))
                if found >= 0:
                    position = found + len(child.content)


def _image_location(part, token, src: str) -> SourceLocation:
    """Where an image is written: at its `](src` when found, else at its paragraph's line."""
    at = token.content.find(f"]({src}") if src else -1
    before = token.content[:at] if at >= 0 else ""
    col = len(before) - (before.rfind("\n") + 1) + 1 if at >= 0 else 1
    return SourceLocation(part.path, part.body_line + token.map[0] + before.count("\n"), col)


# a link set in quotation marks names its target by title: “[机群](#q17)”一节, the "[Fleet](#q17)"
# section; so does one a section word stands beside: the section [Fleet](#q17)
QUOTES = {"“": "”", '"': '"', "‘": "’", "「": "」", "『": "』"}
SECTION_WORDS = ("section ", "Section ", "Abschnitt ")


def _quoted_title(token, found: int, href: str) -> str | None:
    """The text of the link whose `](` is at `found`, when it names a section by its title."""
    if found < 0:
        return None
    start = token.content.rfind("[", 0, found)
    end = found + 2 + len(href)
    if start <= 0 or token.content[end : end + 1] != ")":
        return None
    opening, closing = token.content[start - 1], token.content[end + 1 : end + 2]
    named = token.content[:start].endswith(SECTION_WORDS) or token.content[end + 1 :].startswith(" section")
    if QUOTES.get(opening) != closing and not named:
        return None
    return token.content[start + 1 : found]


UNFINISHED_DIRECTIVE = re.compile(r"\{\{[a-z-]+(?::[^\s{}|]*)?")
PART_TOKENS = "part-tokens"  # the one kind of cache entry a build asks for more than once


def part_tokens(md: MarkdownIt, cache: BuildCache | Versioned | None = None):
    """part -> its tokens, parsed again only when its text or the code changed. The index keeps no
    tokens: the renderer and the gates ask the parse stage's function again, and the build's cache
    answers (even a cold build holds this one kind, pipeline.ASKED_AGAIN: parsing every part twice
    was a third of its time)."""
    cache = cache or NoCache()
    return lambda part: cache.get(PART_TOKENS, lambda: digest(part.body), lambda: md.parse(part.body, {}))


def parse_page(page: Page, md: MarkdownIt, tokens_of=None) -> ParsedPage:
    """The index of one page, from the tokens of every part (`tokens_of` may cache them per part)."""
    tokens_of = tokens_of or part_tokens(md)
    parsed = ParsedPage(page)
    indexer = _Indexer(parsed)
    for part in page.parts:
        indexer.part(part, tokens_of(part))
    return parsed


def reading_order(page: Page, tokens_of) -> list[Event]:
    """The page as it reads: every run of prose text and every directive use, in order, each where
    it is written (the same walk as the index, from the tokens `tokens_of` gives for each part)."""
    events: list[Event] = []
    indexer = _Indexer(ParsedPage(page), events=events)
    for part in page.parts:
        indexer.part(part, tokens_of(part))
    return events


def reparse_part(old: ParsedPage, page: Page, index: int, md: MarkdownIt, tokens_of=None) -> ParsedPage:
    """`old` (the parsed `page` before part `index` changed) with only that part parsed and indexed
    again: the index of the other parts is carried over, which holds as long as the part leaves the
    same sections as before (serve's hot path checks the outline and falls back otherwise)."""
    tokens_of = tokens_of or part_tokens(md)
    edited = page.parts[index]
    earlier = {part.path for part in page.parts[:index]}
    kept = lambda items, first: [
        x for x in items if (x.location.path in earlier) == first and x.location.path != edited.path
    ]
    kept_images = lambda first: [
        (src, where)
        for src, where in old.images
        if (where.path in earlier) == first and where.path != edited.path
    ]
    parsed = ParsedPage(page)
    parsed.sections, parsed.uses, parsed.problems = (
        kept(old.sections, True),
        kept(old.uses, True),
        kept(old.problems, True),
    )
    parsed.images = kept_images(True)
    indexer = _Indexer(parsed)  # resumed where the earlier parts leave it: their last section and h2
    indexer.section = parsed.sections[-1].id if parsed.sections else ""
    indexer.h2 = next((s.id for s in reversed(parsed.sections) if s.level == 2), "")
    indexer.part(edited, tokens_of(edited))
    parsed.sections += kept(old.sections, False)
    parsed.uses += kept(old.uses, False)
    parsed.problems += kept(old.problems, False)
    parsed.images += kept_images(False)
    return parsed


def parse_pages(book: Book, md: MarkdownIt, tokens_of=None) -> dict[tuple[str, str], ParsedPage]:
    """Index every page; a part file whose text did not change is not parsed again (`tokens_of`:
    part_tokens over the build's cache)."""
    tokens_of = tokens_of or part_tokens(md)
    return {(page.lang, page.id): parse_page(page, md, tokens_of) for page in book.pages}
