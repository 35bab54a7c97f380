"""Where a problem is, what it is, and how to fix it: one line per problem."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, order=True, slots=True)  # slots: a large book holds one per text run
class SourceLocation:
    path: str  # relative to the project root, forward slashes
    line: int = 0  # 1-based; 0 when the whole file is meant
    col: int = 0  # 1-based; 0 when unknown

    def __str__(self) -> str:
        if not self.line:
            return one_line(self.path)
        return f"{one_line(self.path)}:{self.line}:{self.col or 1}"

    def moved(self, col: int) -> SourceLocation:
        return SourceLocation(self.path, self.line, col)

    def shifted(self, lines: int) -> SourceLocation:
        return SourceLocation(self.path, self.line + lines if self.line else 0, self.col)


@dataclass(frozen=True, order=True)
class Diagnostic:
    location: SourceLocation
    code: str  # e.g. "cite.unknown"; `atlas-site check --explain CODE` documents it
    message: str
    hint: str = ""
    severity: str = "error"

    def __post_init__(self) -> None:
        # the test suite sets ATLAS_STRICT_CODES: a code without an --explain entry is a bug there
        if os.environ.get("ATLAS_STRICT_CODES") and _STRICT.codes and self.code not in _STRICT.known():
            raise ValueError(
                f"diagnostic code '{self.code}' has no `check --explain` entry (src/atlas_site/explain.py)"
            )

    def __str__(self) -> str:
        text = f"{self.location}: {self.severity}[{self.code}]: {one_line(self.message)}"
        return f"{text} (hint: {one_line(self.hint)})" if self.hint else text


def one_line(text: str) -> str:
    """`text` as one printable line: a newline, a tab or another control character (bidirectional
    ones included) as its escape, a byte of a file name that is not UTF-8 (a lone surrogate in
    Python) as \\xNN. A problem is always exactly one line, whatever it quotes."""
    if text.isprintable():
        return text
    shown = []
    for char in text:
        if char.isprintable():
            shown.append(char)
        elif 0xDC80 <= ord(char) <= 0xDCFF:
            shown.append(f"\\x{ord(char) - 0xDC00:02x}")
        else:
            shown.append(char.encode("unicode_escape").decode("ascii"))
    return "".join(shown)


class _StrictCodes:
    """The codes the strict mode accepts. explain.py knows them, but it sits above this module (it
    reads the rule kinds): what starts the engine (cli.main, the test suite) hands its table down."""

    def __init__(self) -> None:
        self.codes: Callable[[], Iterable[str]] | None = None
        self._known: frozenset[str] | None = None

    def known(self) -> frozenset[str]:
        if self._known is None:
            self._known = frozenset(self.codes()) if self.codes else frozenset()
        return self._known


_STRICT = _StrictCodes()


def explain_codes_from(codes: Callable[[], Iterable[str]]) -> None:
    """Check every Diagnostic's code against `codes()` (explain.codes) when ATLAS_STRICT_CODES is
    set. Installed once per process, before any build; the same table every time."""
    if _STRICT.codes is not codes:
        _STRICT.codes, _STRICT._known = codes, None


# problems in reading an input (a file that does not parse, a record that does not fit its schema)
# cause others (a reference to what that file would have defined): they are listed first
CAUSES = (
    "yaml.",
    "bib.",
    "frontmatter.",
    "file.",
    "profile.",
    "schema.",
    "ledger.",
    "strings.",
    "source.",
    "page.",
    "i18n.",
    "block.unclosed",
    "heading.",
    "directive.argument",
)


# of the causes, a file that cannot be read at all comes before what is wrong inside one
UNREADABLE_INPUT = ("file.", "yaml.syntax", "bib.syntax", "frontmatter.")


def causes_first(diagnostics) -> list[Diagnostic]:
    return sorted(
        diagnostics, key=lambda d: (not d.code.startswith(UNREADABLE_INPUT), not d.code.startswith(CAUSES), d)
    )


class AtlasError(Exception):
    """Raised when a stage cannot go on; carries every problem found so far."""

    def __init__(self, diagnostics: list[Diagnostic], suppressed: int = 0):
        self.diagnostics = causes_first(diagnostics)
        self.suppressed = suppressed
        super().__init__("\n".join(str(d) for d in self.diagnostics))


@dataclass
class Collector:
    """Gathers diagnostics across a stage so all problems are reported at once."""

    items: list[Diagnostic] = field(default_factory=list)
    suppressed: int = 0  # follow-on problems of a cause already reported, left out

    def quiet(self) -> None:
        self.suppressed += 1

    def error(self, location: SourceLocation, code: str, message: str, hint: str = "") -> None:
        self.items.append(Diagnostic(location, code, message, hint))

    def extend(self, diagnostics) -> None:
        self.items.extend(diagnostics)


def relpath(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def closest(name: str, candidates) -> str:
    """A 'did you mean' hint, or '' when nothing is close."""
    import difflib

    match = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean '{match[0]}'?" if match else ""
