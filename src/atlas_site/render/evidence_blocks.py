"""Quiet labels for blocks dense with teaching numbers. A paragraph (a list item's text is one) or
a table that holds several worked-example numbers of one kind labels them once: each such number
keeps a light marker (a dotted underline) and words for screen readers ("(teaching assumption)"),
and the block carries one note naming the label — at the paragraph's end, in the table's caption.
A number of another kind in the same block, and every claim, keeps its own visible label.

The markup is what the settings gate reads (gates/claims.py): a quiet number names its note
(`data-note`), the note carries the same label (`data-label`) on the same page.

In the same block a long unit (several words: "yuan per million qualified output tokens") is
written once: a later number with the same unit shows the bare number, as `{{ex:…|bare}}` does."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from html import escape

QUIET_FROM = 2  # numbers of one kind in one block from which the block is labelled once
NOTE_PREFIX = "evn-"  # the notes' ids: evn-1, evn-2, ... in page order


@dataclass
class EvidenceBlock:
    where: str  # "paragraph" or "table"
    quiet: str | None = None  # the label key of the numbers labelled once, for the block
    note_id: str = ""
    mixed: bool = False  # other labelled numbers (another kind, a claim) share the block
    units: set = field(default_factory=set)  # long units already written in the block


def _directives(children) -> list:
    return [c for c in children or [] if c.type in ("directive", "cite")]


def open_block(state, inline_tokens: list, where: str) -> None:
    """Start a block before its text is rendered: which kind of number, if any, it labels once."""
    if state.block is not None:  # a block inside a block (never in markdown): the outer one holds
        return
    labels: list[str] = []
    claims = 0
    for inline in inline_tokens:
        for child in _directives(inline.children):
            kind = child.meta.get("kind")
            if kind == "ex":
                example_id, _, output = str(child.meta.get("arg", "")).partition(".")
                example = state.book.examples.get(example_id)
                if example is not None:
                    labels.append(example.label_key_of(output))
            elif kind == "claim":
                claims += 1
    block = EvidenceBlock(where)
    counts = Counter(labels)
    if counts:
        label, most = counts.most_common(1)[0]  # ties: the kind that comes first
        if most >= QUIET_FROM:
            state.notes_made += 1
            block.quiet, block.note_id = label, f"{NOTE_PREFIX}{state.notes_made}"
            block.mixed = claims > 0 or len(counts) > 1
    state.block = block


def close_block(state, where: str) -> EvidenceBlock | None:
    block = state.block
    if block is None or block.where != where:
        return None
    state.block = None
    return block


def note(state, block: EvidenceBlock | None) -> str:
    """The block's one label: a line at the end of a paragraph, a caption above a table."""
    if block is None or block.quiet is None:
        return ""
    key = f"evidence_note_{block.where}" + ("_mixed" if block.mixed else "")
    before, _, after = state.ui(key).partition("{label}")
    badge = f'<span class="badge badge-ex" data-pagefind-ignore>{escape(state.ui(block.quiet))}</span>'
    tag = "caption" if block.where == "table" else "span"
    lead = "" if tag == "caption" else " "
    return (
        f'{lead}<{tag} class="evidence-note" id="{block.note_id}" data-label="{block.quiet}" data-pagefind-ignore>'
        f"{escape(before)}{badge}{escape(after)}</{tag}>"
    )


def long_unit(unit: str) -> bool:
    """A unit of several words, written once per block; a percentage or a multiplier (14.4%,
    1.73×, 0.25× original size) and a one-word unit (12 slots) stay on every number."""
    unit = unit.strip()
    return " " in unit and not unit.startswith(("%", "×"))
