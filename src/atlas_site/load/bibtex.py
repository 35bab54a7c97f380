"""BibTeX -> one raw record per entry, with its line; every syntax problem reported."""
from __future__ import annotations

import logging

import bibtexparser

logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)  # we report every failed block ourselves

from ..diagnostics import Diagnostic, SourceLocation


def parse_bibtex(path: str, text: str) -> tuple[list[tuple[dict, SourceLocation]], list[Diagnostic]]:
    library = bibtexparser.parse_string(text)
    records = []
    for entry in library.entries:
        fields = {field.key.lower(): field.value for field in entry.fields}
        record = {"key": entry.key, "entry_type": entry.entry_type.lower(), **fields}
        records.append((record, SourceLocation(path, entry.start_line + 1, 1)))
    problems = []
    for block in library.failed_blocks:
        location = SourceLocation(path, block.start_line + 1, 1)
        name = type(block).__name__
        if name == "DuplicateBlockKeyBlock":
            problems.append(Diagnostic(location, "bib.duplicate-key", f"duplicate BibTeX key '{block.key}'"))
        else:
            error = getattr(block, "error", None)
            reason = getattr(error, "abort_reason", None) or str(error or "") or "cannot parse this block"
            reason = reason.strip().splitlines()[0]
            problems.append(Diagnostic(location, "bib.syntax", f"invalid BibTeX: {reason}"))
    return records, problems
