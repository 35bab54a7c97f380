"""Quiet labels for blocks dense with teaching numbers. A paragraph (a list item's text is one) or
a table that holds several worked-example numbers of one kind labels them once: each such number
keeps a light marker (a dotted underline), and the block carries one note naming the label — at the
paragraph's end, in the table's caption — which is also the one label a screen reader reads and
the editions print (review 30-f #11: words hidden after each number repeated it up to eight times).
A number of another kind in the same block, and every claim, keeps its own visible label.

The markup is what the settings gate reads (gates/claims.py): a quiet number names its note
(`data-note`), the note carries the same label (`data-label`) on the same page.

In the same sentence a long unit (several words: "yuan per million qualified output tokens") is
written once: a later number with the same unit shows the bare number, as `{{ex:…|bare}}` does; the
next sentence says it again (render/markdown_rules.py forgets the units at a sentence's end).

Claims that follow one another in a paragraph, of one kind and resting on the same works (Preble's
average and P99 latency, the DeepSeek-V4 report's four estimates), form a group: each value keeps
its label (a number is never read without it: reviews 30-w #5, 30-y #5), the citation is written
once, after the last of them, and a setting shared by neighbours of the group (the same words and
the same verification date) once, after the last that shares it. Each value
still links to its row of the numbers page and opens its card (setting, label, sources). A plain
citation between two claims ends the group, and so does the end of a sentence (a label after the
next sentence's claim was read as that claim's alone: review 30-h #1). The settings gate reads the groups (gates/claims.py:
every claim of a group is labelled and covered by a setting)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from html import escape

QUIET_FROM = 2  # numbers of one kind in one block from which the block is labelled once
NOTE_PREFIX = "evn-"  # the notes' ids: evn-1, evn-2, ... in page order
# the end of a sentence in the text between two claims (a period, ! or ? before a space or the
# text's end; a Chinese full stop, ！ or ？)
SENTENCE_END = re.compile(r"[.!?](?:\s|$)|[。！？]")
GROUP_PREFIX = "cg-"  # the claim groups' ids: cg-1, cg-2, ... in page order


@dataclass
class EvidenceBlock:
    where: str  # "paragraph" or "table"
    quiet: str | None = None  # the label key of the numbers labelled once, for the block
    note_id: str = ""
    mixed: bool = False  # other labelled numbers (another kind, a claim) share the block
    units: set = field(default_factory=set)  # long units already written in the block
    claims: list = field(default_factory=list)  # ClaimPlace of each claim, in order (a paragraph's)
    groups: dict = field(default_factory=dict)  # group id -> its claims, in order
    leads: bool = False  # the note opens the paragraph (its text ends in a colon: what follows is its own)


@dataclass
class ClaimPlace:
    """How one claim of a paragraph is written: alone (group None) or as a member of a group."""

    group: str | None = None  # the group's id (data-group), shared by its members
    covers: tuple = ()  # ids whose shared setting is written after this claim (empty: none here)
    last: bool = True  # the group's last member: its label and citation follow


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
    if where == "paragraph":
        block.claims, block.groups = _claim_places(state, inline_tokens)
    counts = Counter(labels)
    if counts:
        label, most = counts.most_common(1)[0]  # ties: the kind that comes first
        if most >= QUIET_FROM:
            state.notes_made += 1
            block.quiet, block.note_id = label, f"{NOTE_PREFIX}{state.notes_made}"
            block.mixed = claims > 0 or len(counts) > 1
    state.block = block


def _claim_places(state, inline_tokens: list) -> tuple[list[ClaimPlace], dict]:
    """Group a paragraph's claims (see the module's docstring): how each is written, in rendering
    order, and each group's claims."""
    book, lang = state.book, state.lang
    runs: list[list] = [[]]
    for inline in inline_tokens:
        for child in inline.children or []:
            if child.type == "text" and SENTENCE_END.search(child.content) and runs[-1]:
                runs.append([])  # a group ends with its sentence: its label is read beside it
                continue
            if child.type not in ("directive", "cite"):
                continue
            if child.type == "cite":
                runs.append([])  # a citation of its own between claims ends a group
                continue
            if child.meta.get("kind") != "claim":
                continue
            claim = book.claims.get(str(child.meta.get("arg", "")))
            run = runs[-1]
            if claim is None or (
                run and (run[-1] is None or _group_key(book, run[-1]) != _group_key(book, claim))
            ):
                runs.append(run := [])
            run.append(claim)
    places: list[ClaimPlace] = []
    groups: dict = {}
    for run in runs:
        if len(run) < 2 or run[0] is None:
            places += [ClaimPlace() for _ in run]
            continue
        state.groups_made += 1
        group = f"{GROUP_PREFIX}{state.groups_made}"
        groups[group] = run
        for index, claim in enumerate(run):
            last = index == len(run) - 1
            shared = not last and _setting_key(run[index + 1], lang) == _setting_key(claim, lang)
            covers: tuple = ()
            if not shared:  # the last of the neighbours that share this setting writes it
                first = index
                while first > 0 and _setting_key(run[first - 1], lang) == _setting_key(claim, lang):
                    first -= 1
                covers = tuple(c.id for c in run[first : index + 1])
            places.append(ClaimPlace(group, covers, last))
    return places, groups


def _group_key(book, claim) -> tuple:
    """Claims of one kind resting on the same works (n61 and [n61, r28] are one work) group."""
    works = {w.key for n in claim.source if (w := book.registry.work_of(n)) is not None}
    return claim.label_key, frozenset(works)


def _setting_key(claim, lang: str) -> tuple:
    return claim.setting[lang], claim.verified


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
    space = "" if tag == "caption" else " "
    return (
        ("" if block.leads else space)
        + f'<{tag} class="evidence-note" id="{block.note_id}" data-label="{block.quiet}" data-pagefind-ignore>'
        f"{escape(before)}{badge}{escape(after)}</{tag}>" + (space if block.leads else "")
    )


def long_unit(unit: str) -> bool:
    """A unit of several words, written once per block; a percentage or a multiplier (14.4%,
    1.73×, 0.25× original size) and a one-word unit (12 slots) stay on every number."""
    unit = unit.strip()
    return " " in unit and not unit.startswith(("%", "×"))
