"""BibTeX -> one raw record per entry, with its line; every syntax problem reported.

Values are read as written ({…} or "…" or a bare number): a bare word is a BibTeX macro, which the
registry never uses, so an undefined one cannot silently become a title; and text left between
entries that holds a `field = value` means a brace closed an entry early (`title = {X}},`), which
would otherwise drop the fields after it without a word."""

from __future__ import annotations

import logging
import re

import bibtexparser

from ..diagnostics import Diagnostic, SourceLocation

logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)  # we report every failed block ourselves

STRAY_FIELD = re.compile(r"^\s*,?\s*([A-Za-z][\w-]*)\s*=", re.M)
NUMBER = re.compile(r"^\d+$")
# Fields read as prose, whose TeX dashes are typeset as BibTeX would (`--` en dash, `---` em dash:
# "Prefill--Decode" printed its hyphens, review 30-q D9); an address or identifier keeps them.
PROSE_FIELDS = frozenset(
    {"title", "booktitle", "journal", "publisher", "series", "organization", "institution"}
)


def _typeset_dashes(text: str) -> str:
    return text.replace("---", "\u2014").replace("--", "\u2013")


def _enclosed(value: str) -> str | None:
    """The text of a braced or quoted value, or None when the value is anything else (a macro,
    a concatenation with #)."""
    if len(value) >= 2 and value[0] == "{" and value[-1] == "}":
        depth = 0
        for index, char in enumerate(value):
            depth += {"{": 1, "}": -1}.get(char, 0)
            if depth == 0 and index != len(value) - 1:
                return None  # `{a} # {b}`: the first group closes before the end
        return value[1:-1]
    if len(value) >= 2 and value[0] == '"' and value[-1] == '"' and '"' not in value[1:-1]:
        return value[1:-1]
    return value if NUMBER.match(value) else None


def _line(block) -> int:
    """A block's 1-based first line (bibtexparser counts from 0 and types it optional)."""
    return (block.start_line or 0) + 1


def parse_bibtex(path: str, text: str) -> tuple[list[tuple[dict, SourceLocation]], list[Diagnostic]]:
    library = bibtexparser.parse_string(text, parse_stack=[])
    records: list[tuple[dict, SourceLocation]] = []
    problems: list[Diagnostic] = []
    for entry in library.entries:
        record = {"key": entry.key, "entry_type": entry.entry_type.lower()}
        for field in entry.fields:
            value = _enclosed(field.value.strip())
            if value is None:
                problems.append(
                    Diagnostic(
                        SourceLocation(path, _line(field), 1),
                        "bib.macro",
                        f"'{entry.key}': {field.key} = {field.value.strip()[:60]} is not text in braces (an undefined BibTeX macro?)",
                        "write the value in braces: " + field.key + " = {…}",
                    )
                )
                value = field.value.strip()  # kept as written, so no follow-on "missing title"
            if field.key.lower() in PROSE_FIELDS:
                value = _typeset_dashes(value)
            record[field.key.lower()] = value
        records.append((record, SourceLocation(path, _line(entry), 1)))
    previous = sorted((_line(entry), entry.key) for entry in library.entries)
    for comment in library.comments:
        raw = comment.raw or ""
        stray = STRAY_FIELD.search(raw)
        if stray and type(comment).__name__ == "ImplicitComment":
            line = _line(comment) + raw[: stray.start(1)].count("\n")
            before = [key for start, key in previous if start < _line(comment)]
            after = f" closed entry '{before[-1]}' early" if before else " is outside any entry"
            problems.append(
                Diagnostic(
                    SourceLocation(path, line, 1),
                    "bib.stray-field",
                    f"field '{stray.group(1)}' is outside any entry: a '}}' too many{after}",
                    "check the braces of the field before it; every field of an entry is kept inside its @type{…}",
                )
            )
    for block in library.failed_blocks:
        location = SourceLocation(path, _line(block), 1)
        name = type(block).__name__
        if name == "DuplicateBlockKeyBlock":
            problems.append(
                Diagnostic(
                    location, "bib.duplicate-key", f"duplicate BibTeX key '{getattr(block, 'key', '?')}'"
                )
            )
        else:
            error = getattr(block, "error", None)
            reason = getattr(error, "abort_reason", None) or str(error or "") or "cannot parse this block"
            reason = reason.strip().splitlines()[0]
            problems.append(Diagnostic(location, "bib.syntax", f"invalid BibTeX: {reason}"))
    return records, problems
