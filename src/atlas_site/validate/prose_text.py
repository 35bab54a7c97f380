"""Checks of a content file's raw text that no parser would report: characters that make text
display other than it reads in the file, and nesting deeper than the renderer keeps."""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic, SourceLocation
from ..load.front_matter import MarkdownFile

# the embedding, override and isolate controls of Unicode's bidirectional algorithm ("Trojan source")
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
# markdown-it keeps 20 levels of nesting and silently flattens the rest; quotes inside lists inside
# quotes all count, so a quote is refused well before that
MAX_QUOTE_DEPTH = 12
QUOTE_MARKERS = re.compile(r"^ {0,3}((?:> ?)+)")


def prose_text_problems(doc: MarkdownFile, bidi_allowed: bool) -> list[Diagnostic]:
    problems = []
    for index, line in enumerate(doc.body.split("\n")):
        number = doc.body_line + index
        if not bidi_allowed:
            for match in BIDI.finditer(line):
                problems.append(
                    Diagnostic(
                        SourceLocation(doc.path, number, match.start() + 1),
                        "prose.bidi-control",
                        f"bidirectional control U+{ord(match.group(0)):04X}: the text may display "
                        "in another order than it reads in the file",
                        "delete it, or allow it for a right-to-left language with `bidi_controls: "
                        "true` on the language in book.yaml",
                        severity="warning",
                    )
                )
        quotes = QUOTE_MARKERS.match(line)
        depth = quotes.group(1).count(">") if quotes else 0
        if depth > MAX_QUOTE_DEPTH:
            problems.append(
                Diagnostic(
                    SourceLocation(doc.path, number, 1),
                    "prose.too-deep",
                    f"a quotation nested {depth} levels deep: the page keeps at most {MAX_QUOTE_DEPTH} "
                    "and would flatten the rest without a word",
                    "nest fewer quotations",
                )
            )
    return problems
