"""The translation lock: a committed record of when the languages of each section were last
declared in step, without git. Two plain-text files, both written only by `atlas-site sync`:

content/translations.lock — one line per section and language, in the book's reading order:

    ch14#q3 zh 77ab0c1d2e3f4a5b 2026-10-02 en=3f2a9c0d11aa22bb

  the section (page#id, or page#(top) for the page's opening), the language, the fingerprint of
  that language's text when the lock last recorded it and the day it was recorded, then for every
  other language the fingerprint of its text at the moment this language was brought in step with
  it. A twin whose fingerprint today differs from the one recorded here has changed since.
  One line per section keeps merges local: two translators who sync different sections touch
  different lines.

content/translations.synced — the text each of those recorded twin fingerprints stands for, so
  the dashboard can show what changed in the other language since the sync:

    === ch14#q3 en 3f2a9c0d11aa22bb
      ## Memory {#q3}
      …(every line indented by two spaces)

Neither file is needed to build: without the lock every section is "not yet in step"; without the
synced text the dashboard shows no diff."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..cache import digest
from ..diagnostics import Diagnostic, SourceLocation
from ..files import replace_file
from ..load.project import read_text  # the one reader: a FIFO or bad bytes are a problem, not a hang
from .sections import fingerprint, shown

LOCK = "content/translations.lock"
SYNCED = "content/translations.synced"

SECTION = re.compile(r"^(?P<page>[a-z0-9][a-z0-9-]*)#(?P<section>[A-Za-z0-9_-]+|\(top\))$")
LANG = re.compile(r"^[a-z]{2,3}$")
PRINT = re.compile(r"^[0-9a-f]{16}$")
HEADER = re.compile(r"^=== (?P<section>\S+) (?P<lang>[a-z]{2,3}) (?P<print>[0-9a-f]{16})$")

LOCK_HEADER = """\
# Translations in step, one line per section and language (written by `atlas-site sync`; CONTRIBUTING.md, "Translators").
#   PAGE#SECTION LANG FINGERPRINT RECORDED OTHER=FINGERPRINT …
# FINGERPRINT: this language's text when last recorded, on RECORDED; OTHER=…: the other language's text when this one
# was last brought in step with it. Never edit by hand: after a merge conflict, run `atlas-site sync --status` (it drops
# the lines it cannot use), review the sections it lists, then sync them.
"""
SYNCED_HEADER = """\
# The text of each section when the other languages were last brought in step with it (written by `atlas-site sync`;
# the dashboard shows what changed since). Never edit by hand.
"""


@dataclass
class Record:
    page: str
    section: str  # "" for the page's opening
    lang: str
    fingerprint: str  # this language's text when the lock last recorded it
    recorded: dt.date  # the day `sync` recorded that text
    twins: dict[str, str] = field(
        default_factory=dict
    )  # other language -> its fingerprint when this one was brought in step
    line: int = 0

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.page, self.section, self.lang)

    def format(self) -> str:
        twins = " ".join(f"{lang}={value}" for lang, value in sorted(self.twins.items()))
        return (
            f"{self.page}#{shown(self.section)} {self.lang} {self.fingerprint} {self.recorded.isoformat()}"
            + (f" {twins}" if twins else "")
        )


@dataclass
class Lock:
    exists: bool = False
    records: dict[tuple[str, str, str], Record] = field(default_factory=dict)
    synced: dict[tuple[str, str, str, str], str] = field(
        default_factory=dict
    )  # (page, section, lang, fingerprint) -> text
    problems: list[Diagnostic] = field(default_factory=list)

    def get(self, page: str, section: str, lang: str) -> Record | None:
        return self.records.get((page, section, lang))

    def synced_text(self, page: str, section: str, lang: str, value: str) -> str | None:
        return self.synced.get((page, section, lang, value))


def _section(token: str) -> tuple[str, str] | None:
    match = SECTION.match(token)
    if match is None:
        return None
    section = match.group("section")
    return match.group("page"), "" if section == "(top)" else section


def parse_lock(text: str) -> tuple[dict, list[Diagnostic]]:
    records: dict[tuple[str, str, str], Record] = {}
    twice: dict[
        tuple[str, str, str], Record
    ] = {}  # recorded more than once (a merge kept both sides): neither is trusted
    problems: list[Diagnostic] = []

    def refuse(number: int, column: int, message: str, hint: str = "") -> None:
        problems.append(
            Diagnostic(SourceLocation(LOCK, number, column), "translation.lock-syntax", message, hint)
        )

    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith(("<<<<<<<", "=======", ">>>>>>>", "|||||||")):
            refuse(
                number,
                1,
                "merge conflict marker in the translation lock",
                "run `atlas-site sync --status`: it drops what it cannot use and lists the sections to declare in step again",
            )
            continue
        tokens = line.split()
        columns = [m.start() + 1 for m in re.finditer(r"\S+", line)]
        if len(tokens) < 4:
            refuse(
                number,
                1,
                f"expected `PAGE#SECTION LANG FINGERPRINT DATE [OTHER=FINGERPRINT …]`, got '{line.strip()}'",
            )
            continue
        where = _section(tokens[0])
        try:
            recorded = dt.date.fromisoformat(tokens[3])
        except ValueError:
            recorded = None
        bad = next(
            (
                (i, what)
                for i, ok, what in (
                    (0, where is not None, "a section as page#id or page#(top)"),
                    (1, LANG.match(tokens[1]) is not None, "a language code"),
                    (2, PRINT.match(tokens[2]) is not None, "a fingerprint of 16 hex digits"),
                    (3, recorded is not None, "a date YYYY-MM-DD"),
                )
                if not ok
            ),
            None,
        )
        if bad is not None or where is None or recorded is None:
            bad = bad or (0, "a section")
            refuse(number, columns[bad[0]], f"expected {bad[1]}, got '{tokens[bad[0]]}'")
            continue
        twins = {}
        for index in range(4, len(tokens)):
            lang, sep, value = tokens[index].partition("=")
            if not sep or not LANG.match(lang) or not PRINT.match(value) or lang == tokens[1]:
                refuse(number, columns[index], f"expected OTHER-LANGUAGE=FINGERPRINT, got '{tokens[index]}'")
                break
            twins[lang] = value
        else:
            record = Record(where[0], where[1], tokens[1], tokens[2], recorded, twins, number)
            if record.key in records or record.key in twice:
                first = records.pop(record.key, None) or twice[record.key]
                twice[record.key] = first
                problems.append(
                    Diagnostic(
                        SourceLocation(LOCK, number, 1),
                        "translation.lock-duplicate",
                        f"{tokens[0]} {tokens[1]} is recorded twice (first on line {first.line}): neither line is used",
                        f"review the section in every language, then `atlas-site sync {tokens[0]}`",
                    )
                )
                continue
            records[record.key] = record
    return records, problems


def parse_synced(text: str) -> tuple[dict, list[Diagnostic]]:
    """Blocks of `=== page#section lang fingerprint` and their text, indented by two spaces. A
    block whose text does not match its fingerprint is dropped (the dashboard then has no diff)."""
    synced: dict[tuple[str, str, str, str], str] = {}
    problems: list[Diagnostic] = []
    key: tuple[str, str, str, str] | None = None
    lines: list[str] = []

    def close() -> None:
        if key is not None:
            body = "\n".join(lines).strip("\n")
            if fingerprint(body) == key[3]:
                synced[key] = body

    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith("==="):
            close()
            match = HEADER.match(line)
            where = _section(match.group("section")) if match else None
            if where is None:
                problems.append(
                    Diagnostic(
                        SourceLocation(SYNCED, number, 1),
                        "translation.synced-syntax",
                        f"expected `=== PAGE#SECTION LANG FINGERPRINT`, got '{line.strip()}'",
                        "the file is written by `atlas-site sync`: run `atlas-site sync --all` after checking the languages agree",
                    )
                )
                key, lines = None, []
                continue
            assert match is not None  # where is None without a match
            key, lines = (where[0], where[1], match.group("lang"), match.group("print")), []
        elif key is None:
            continue  # the header comment
        elif line.startswith("  ") or not line.strip():
            lines.append(line[2:])
        else:
            problems.append(
                Diagnostic(
                    SourceLocation(SYNCED, number, 1),
                    "translation.synced-syntax",
                    "a line of synced text must be indented by two spaces",
                    "the file is written by `atlas-site sync`: restore it from version control or run `atlas-site sync --all`",
                )
            )
    close()
    return synced, problems


def read_lock(root: Path, cache=None) -> Lock:
    """Both files; with a build cache, the synced text (the book's size) is parsed again only
    when it changed. The records are parsed every time: sync edits them in place."""
    lock = Lock()
    path = root / LOCK
    if path.exists() or path.is_symlink():
        lock.exists = True
        text = read_text(path, root, lock.problems)
        if text is not None:
            lock.records, problems = parse_lock(text)
            lock.problems += problems
    synced = root / SYNCED
    if synced.exists() or synced.is_symlink():
        text = read_text(synced, root, lock.problems)
        if text is not None:

            def parse(text=text):
                return parse_synced(text)

            found, problems = (
                parse() if cache is None else cache.get("translations-synced", lambda: digest(text), parse)
            )
            lock.synced, lock.problems = dict(found), lock.problems + list(problems)
    return lock


def lock_bytes(lock: Lock, order) -> tuple[bytes, bytes]:
    """What the two files hold for `lock`, in `order` (a key function over (page, section, lang))."""
    records = sorted(lock.records.values(), key=lambda r: order(r.key))
    blocks = []
    for key in sorted(lock.synced, key=lambda k: (order(k[:3]), k[3])):
        page, section, lang, value = key
        body = "\n".join(f"  {line}" if line else "" for line in lock.synced[key].split("\n"))
        blocks.append(f"=== {page}#{shown(section)} {lang} {value}\n{body}\n")
    return (
        (LOCK_HEADER + "".join(r.format() + "\n" for r in records)).encode("utf-8"),
        (SYNCED_HEADER + "".join(blocks)).encode("utf-8"),
    )


def write_lock(root: Path, lock: Lock, order) -> None:
    """Both files, atomically each."""
    lock_text, synced_text = lock_bytes(lock, order)
    replace_file(root / LOCK, lock_text)
    replace_file(root / SYNCED, synced_text)
