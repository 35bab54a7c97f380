"""The inline syntax of the book, as token rules for markdown-it.

    [@n27; @r64]                 citation of ledger numbers
    {{claim:id}} {{ex:id.out}}   claim / computed teaching number
    {{term:id}} {{term:id|text}} glossary term
    {{figure:id}} {{labs:a,b}} … block directives when alone in a paragraph
(directives/ declares them all; this module only finds them in the text)
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from ..directives import REGISTRY

CITE = re.compile(r"\[@([A-Za-z0-9_-]+)((?:\s*;\s*@[A-Za-z0-9_-]+)*)\]")
# any {{name:arg|text}}: which names exist, and what argument each takes, is the registry's business
DIRECTIVE = re.compile(r"\{\{([a-z-]+)(?::([A-Za-z0-9_.,-]+))?(?:\|([^{}|]+))?\}\}")
BLOCK_DIRECTIVES = frozenset(REGISTRY.of_form("block"))
# markdown-it's text rule stops only at these; '{' is added so directives can start mid-text
_TERMINATORS = "\n!#$%&*+-:<=>@[\\]^_`{}~"
_RUN = re.compile(
    "[^" + re.escape(_TERMINATORS) + "]+"
)  # a run of plain text, found by the regex engine, not char by char


def _text(state: StateInline, silent: bool) -> bool:
    run = _RUN.match(state.src, state.pos, state.posMax)
    if run is None:
        return False
    pos = run.end()
    if not silent:
        state.pending += state.src[state.pos : pos]
    state.pos = pos
    return True


def _cite(state: StateInline, silent: bool) -> bool:
    if not state.src.startswith("[@", state.pos):
        return False
    match = CITE.match(state.src, state.pos)
    if not match:
        return False
    if not silent:
        token = state.push("cite", "", 0)
        token.meta = {"keys": re.findall(r"@([A-Za-z0-9_-]+)", match.group(0)), "pos": state.pos}
    state.pos = match.end()
    return True


def _directive(state: StateInline, silent: bool) -> bool:
    if not state.src.startswith("{{", state.pos):
        return False
    match = DIRECTIVE.match(state.src, state.pos)
    if not match:
        return False
    if not silent:
        token = state.push("directive", "", 0)
        kind, arg, text = match.groups()
        token.meta = {"kind": kind, "arg": arg or "", "text": text, "pos": state.pos, "raw": match.group(0)}
    state.pos = match.end()
    return True


def _promote_block_directives(state) -> None:
    """A paragraph holding only a block directive becomes one `directive_block` token."""
    tokens = state.tokens
    result = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.type == "paragraph_open" and index + 2 < len(tokens):
            inline = tokens[index + 1]
            children = [
                c for c in (inline.children or []) if not (c.type == "text" and not c.content.strip())
            ]
            if (
                len(children) == 1
                and children[0].type == "directive"
                and children[0].meta["kind"] in BLOCK_DIRECTIVES
            ):
                block = Token("directive_block", "", 0)
                block.meta = dict(children[0].meta)
                block.map = token.map
                result.append(block)
                index += 3
                continue
        result.append(token)
        index += 1
    state.tokens[:] = result


def inline_location(token, offset: int, source_lines: list[str]) -> tuple[int, int]:
    """0-based line and 1-based column in the source of a character offset into an inline token's
    content. The content of a list item, a table cell or a quotation starts after its marker
    ("- ", "| ", "> ") on its source line, so the column is found on that line, not counted from
    the content's own start."""
    before = token.content[:offset]
    line = token.map[0] + before.count("\n")
    col = len(before) - (before.rfind("\n") + 1) + 1
    content_line = token.content.split("\n")[before.count("\n")]
    source_line = source_lines[line] if line < len(source_lines) else ""
    at = source_line.find(content_line) if content_line.strip() else -1
    return line, col + at if at > 0 else col


def _locate_inline(state) -> None:
    """Give every citation/directive token the 0-based line and 1-based column it sits on."""
    lines = state.src.split("\n")
    for token in state.tokens:
        if token.type == "directive_block":
            token.meta.update(line=token.map[0], col=1)
        if token.type != "inline" or not token.map:
            continue
        for child in token.children or []:
            if child.type in ("cite", "directive"):
                child.meta["line"], child.meta["col"] = inline_location(token, child.meta["pos"], lines)


HEADING_ID = re.compile(r"\s*\{#([A-Za-z0-9_-]+)\}\s*$")


def _heading_ids(state) -> None:
    """`## Title {#q1}` -> <h2 id="q1">; the id is language-neutral, so twins share it."""
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        inline = tokens[index + 1]
        children = inline.children or []
        if children and children[-1].type == "text":
            match = HEADING_ID.search(children[-1].content)
            if match:
                token.attrSet("id", match.group(1))
                children[-1].content = children[-1].content[: match.start()]
                inline.content = HEADING_ID.sub("", inline.content)


def syntax_plugin(md: MarkdownIt) -> None:
    md.inline.ruler.at("text", _text)
    md.inline.ruler.before("link", "cite", _cite)
    md.inline.ruler.before("link", "directive", _directive)
    md.core.ruler.push("heading_ids", _heading_ids)
    md.core.ruler.push("locate_inline", _locate_inline)
    md.core.ruler.push("block_directives", _promote_block_directives)
