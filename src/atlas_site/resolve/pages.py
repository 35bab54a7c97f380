"""Parse each page's parts into tokens and index what every section uses."""
from __future__ import annotations

from dataclasses import dataclass, field

from markdown_it import MarkdownIt

from ..cache import BuildCache, NoCache, digest
from ..diagnostics import SourceLocation
from ..model import Book, Page


@dataclass(frozen=True)
class Use:
    kind: str  # cite | claim | ex | term | figure | labs | misconception | lineage | <block directive>
    key: str
    section: str
    location: SourceLocation
    in_block: str = ""  # "misconception:m07" when inside a marked block


@dataclass(frozen=True)
class Section:
    id: str
    level: int
    title: str
    location: SourceLocation


@dataclass
class ParsedPage:
    page: Page
    parts: list = field(default_factory=list)  # (PagePart, tokens)
    sections: list = field(default_factory=list)
    uses: list = field(default_factory=list)
    untitled: list = field(default_factory=list)  # headings without {#id}: SourceLocation

    def uses_of(self, kind: str) -> list[Use]:
        return [u for u in self.uses if u.kind == kind]


def _where(part, line0: int, col: int = 1) -> SourceLocation:
    return SourceLocation(part.path, part.body_line + line0, col)


def parse_page(page: Page, md: MarkdownIt, tokens_of=None) -> ParsedPage:
    """Tokens of every part (from `tokens_of`, which may cache them per part) and the index of
    sections and uses, with the section each use sits in."""
    tokens_of = tokens_of or (lambda part: md.parse(part.body, {}))
    parsed = ParsedPage(page)
    section = ""
    block_stack: list[str] = []
    for part in page.parts:
        tokens = tokens_of(part)
        parsed.parts.append((part, tokens))
        for index, token in enumerate(tokens):
            if token.type == "heading_open" and token.tag in ("h2", "h3"):
                location = _where(part, token.map[0])
                heading_id = token.attrGet("id")
                title = tokens[index + 1].content
                if not heading_id:
                    parsed.untitled.append((location, title))
                    continue
                section = str(heading_id)
                parsed.sections.append(Section(section, int(token.tag[1]), title, location))
            elif token.type.startswith("container_") and token.type.endswith("_open"):
                name, _, arg = token.info.strip().partition(" ")
                block_stack.append(f"{name}:{arg.strip()}")
                parsed.uses.append(Use(name, arg.strip(), section, _where(part, token.map[0])))
            elif token.type.startswith("container_") and token.type.endswith("_close"):
                if block_stack:
                    block_stack.pop()
            elif token.type == "directive_block":
                meta = token.meta
                parsed.uses.append(Use(meta["kind"], meta["arg"], section, _where(part, meta["line"]), _top(block_stack)))
            elif token.type == "inline":
                for child in token.children or []:
                    if child.type == "cite":
                        for key in child.meta["keys"]:
                            parsed.uses.append(Use("cite", key, section, _where(part, child.meta["line"], child.meta["col"]), _top(block_stack)))
                    elif child.type == "directive":
                        meta = child.meta
                        parsed.uses.append(Use(meta["kind"], meta["arg"], section, _where(part, meta["line"], meta["col"]), _top(block_stack)))
    return parsed


def _top(stack: list[str]) -> str:
    return stack[-1] if stack else ""


def parse_pages(book: Book, md: MarkdownIt, cache: BuildCache | None = None, code_version: str = "") -> dict[tuple[str, str], ParsedPage]:
    """Parse every page; a part file whose text did not change is not parsed again."""
    cache = cache or NoCache()

    def tokens_of(part):
        return cache.get("part-tokens", lambda: digest(part.body, code_version), lambda: md.parse(part.body, {}))

    return {(page.lang, page.id): parse_page(page, md, tokens_of) for page in book.pages}
