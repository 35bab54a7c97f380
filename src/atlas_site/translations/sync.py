"""`atlas-site sync`: the only writer of content/translations.lock and content/translations.synced.

    sync PAGE#SECTION … | PAGE … | FILE …   declare these sections in step in every language
    sync --all                             declare every section in step (after a full review)
    sync --minor PAGE#SECTION … | FILE …   the edits since the last sync need no translation
    sync --status                          print what is outdated, missing or not yet in step

Every run first records the day it sees each changed section text for the first time (the
"updated on DATE" readers are told, and what the grace period counts from): sync is an authoring
command, like a commit, and is the one place that reads the clock (`--date` pins it); builds
only read the files it wrote. Lock lines of sections that no longer exist are dropped."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

from ..diagnostics import Diagnostic, SourceLocation, closest, relpath
from .lock import LOCK, SYNCED, Lock, Record, lock_bytes, read_lock, write_lock
from .sections import shown
from .state import IN_STEP, MISSING, OUTDATED, UNSYNCED, Translations, order_key, track

# problems in these inputs change which sections exist: writing the lock over them would drop lines
STRUCTURE = ("book.yaml", "content/")


def run_sync(
    root: Path,
    load,
    targets: list[str],
    everything=False,
    minor=False,
    status=False,
    day: dt.date | None = None,
    out=None,
) -> tuple[int, list[Diagnostic]]:
    """(exit code, problems). `load()` reads the book's pages (the pipeline's stages up to the
    parse, run by the command): (book or None, parsed pages, problems). Prints what it did to
    `out` (sys.stdout as it is at the call)."""
    out = out or sys.stdout
    usage = _usage(targets, everything, minor, status)
    if usage:
        return 2, [Diagnostic(SourceLocation(LOCK), "sync.usage", usage)]
    book, parsed, problems = load()
    if book is not None:  # the problems of other inputs do not change which sections exist
        problems = [p for p in problems if p.severity == "error" and p.location.path.startswith(STRUCTURE)]
    if book is None or problems:
        return 2, problems + [
            Diagnostic(
                SourceLocation(LOCK),
                "sync.blocked",
                "the book's pages do not load: the lock was not changed",
                "fix the problems above first",
            )
        ]
    if len(book.languages) < 2:
        return 2, [
            Diagnostic(
                SourceLocation("book.yaml"),
                "sync.usage",
                "the book has one language: there is nothing to keep in step",
            )
        ]
    if status:  # said before anything is written: a status command that writes must say so
        print(
            f"status: the day of each change found is recorded in {LOCK}; nothing is declared in step",
            file=out,
        )
    lock = read_lock(root)
    unreadable = [p for p in lock.problems if p.code.startswith("file.")]
    if unreadable:  # rewriting a lock that could not be read (bad bytes, a FIFO) would drop every line of it
        return 2, unreadable + [
            Diagnostic(
                SourceLocation(LOCK),
                "sync.blocked",
                "the lock cannot be read: it was not changed",
                "fix the problem above first (git checkout restores the lock)",
            )
        ]
    said = [
        f"dropped: {problem}" for problem in lock.problems
    ]  # a merge conflict: those sections are synced again
    lock.problems = []
    translations = track(book, parsed, lock)
    selected, problems = _targets(book, translations, targets, everything, root)
    if problems:
        return 2, problems
    day = day or dt.date.today()
    recorded, new = _record_changes(lock, translations, day)
    if recorded:
        said.append(f"recorded {len(recorded)} changed section text(s) on {day}: {', '.join(recorded)}")
    if new:
        said.append(f"recorded {len(new)} section text(s) seen for the first time on {day}")
    if minor:
        said += _declare_minor(lock, translations, selected)
    elif selected:
        declared = _declare_in_step(lock, translations, selected)
        shown_names = ", ".join(declared) if len(declared) <= 12 else f"{len(declared)} sections"
        said.append(f"in step: {shown_names}" if declared else "no section to declare in step")
    _drop_stale(lock, translations)
    _keep_needed_texts(lock)
    try:
        if _write_if_changed(root, lock, order_key(book, translations)):
            said.append(f"wrote {LOCK} and {SYNCED}")
    except OSError as error:  # nothing is said to be in step until the lock that says so is written
        return 2, [
            Diagnostic(
                SourceLocation(LOCK),
                "sync.write-failed",
                f"cannot write the lock: {error.strerror or error}; nothing was declared in step",
                "free some space or fix the permissions of content/, then run sync again",
            )
        ]
    for line in said:
        print(line, file=out)
    after = track(book, parsed, lock)
    _print_status(after, out, detailed=status)
    return 0, []


def _usage(targets, everything, minor, status) -> str:
    if status and (targets or everything or minor):
        return "`sync --status` takes no section and no other option"
    if everything and (targets or minor):
        return "`sync --all` declares every section in step: give no section and no --minor with it"
    if not (targets or everything or status):
        return "name the sections to declare in step (PAGE#SECTION, PAGE or FILE), or --all, or --status"
    return ""


def _targets(book, translations: Translations, targets, everything, root: Path):
    """[(page, section, languages or None)] and the problems of names that do not exist."""
    texts = translations.texts
    sections: dict[str, list[str]] = {}
    for (_lang, page), found in texts.items():
        for section in found:
            sections.setdefault(page, [])
            if section not in sections[page]:
                sections[page].append(section)
    if everything:
        order = order_key(book, translations)
        return sorted(
            ((page, section, None) for page in sections for section in sections[page]), key=order
        ), []
    selected, problems = [], []
    for target in targets:
        if target.endswith(".md") or "/" in target:
            selected_here, problem = _file_target(target, texts, root)
        else:
            page, _, section = target.partition("#")
            section = "" if section == "(top)" else section
            problem = None
            if page not in sections:
                problem = Diagnostic(
                    SourceLocation("content"),
                    "sync.unknown-section",
                    f"no page '{page}' in the book",
                    closest(page, sections),
                )
                selected_here = []
            elif "#" in target and section not in sections[page]:
                origin = next(
                    texts[(lang, page)][""].location
                    for lang in translations.languages
                    if (lang, page) in texts
                )
                problem = Diagnostic(
                    SourceLocation(origin.path),
                    "sync.unknown-section",
                    f"page '{page}' has no section '{shown(section)}'",
                    closest(section, sections[page])
                    or "give PAGE#SECTION with the heading's {#id}, or PAGE#(top)",
                )
                selected_here = []
            else:
                selected_here = [
                    (page, s, None) for s in (sections[page] if "#" not in target else [section])
                ]
        if problem is not None:
            problems.append(problem)
        selected += [item for item in selected_here if item not in selected]
    return selected, problems


def _file_target(target: str, texts: dict, root: Path):
    path = Path(target)
    candidates = [path] if path.is_absolute() else [root / path, Path.cwd() / path]
    found = next((c for c in candidates if c.is_file()), None)
    name = relpath(found, root) if found is not None else target
    items = [
        (page, section, (lang,))
        for (lang, page), sections in sorted(texts.items())
        for section, text in sections.items()
        if any(line.path == name for line in text.lines)
    ]
    if not items:
        return [], Diagnostic(
            SourceLocation(name),
            "sync.unknown-section",
            f"'{target}' is not a part file of a page of the book",
            "give content/<lang>/<page>/<file>.md, PAGE or PAGE#SECTION",
        )
    return items, None


def _record_changes(lock: Lock, translations: Translations, day: dt.date) -> tuple[list[str], list[str]]:
    """Record today's fingerprint of every text that differs from the lock's, dated `day`."""
    recorded, new = [], []
    for (lang, page), sections in sorted(translations.texts.items()):
        for section, text in sections.items():
            record = lock.get(page, section, lang)
            name = f"{lang} {page}#{shown(section)}"
            if record is None:
                lock.records[(page, section, lang)] = Record(page, section, lang, text.fingerprint, day, {})
                new.append(name)
            elif record.fingerprint != text.fingerprint:
                record.fingerprint, record.recorded = text.fingerprint, day
                recorded.append(name)
    return recorded, new


def _present(translations: Translations, page: str, section: str) -> list[str]:
    return [lang for lang in translations.languages if section in translations.texts.get((lang, page), {})]


def _declare_in_step(lock: Lock, translations: Translations, selected) -> list[str]:
    declared = []
    for page, section, _languages in selected:
        present = _present(translations, page, section)
        if len(present) < 2:
            continue  # a section without its twin cannot be in step with it: it stays missing
        for lang in present:
            text = translations.texts[(lang, page)][section]
            others = {
                other: translations.texts[(other, page)][section].fingerprint
                for other in present
                if other != lang
            }
            lock.records[(page, section, lang)].twins = others
            lock.synced[(page, section, lang, text.fingerprint)] = text.text
        declared.append(f"{page}#{shown(section)}")
    return declared


def _declare_minor(lock: Lock, translations: Translations, selected) -> list[str]:
    """The named language's edits since the last sync need no translation: the other languages are
    in step with its text as it is now (their own edits, if any, still count)."""
    lines = []
    for page, section, languages in selected:
        present = _present(translations, page, section)
        for lang in [code for code in (languages or present) if code in present]:
            text = translations.texts[(lang, page)][section]
            moved = []
            for other in present:
                record = lock.get(page, section, other)
                if other == lang or record is None or lang not in record.twins:
                    continue
                if record.twins[lang] != text.fingerprint:
                    record.twins[lang] = text.fingerprint
                    moved.append(other)
            if moved:
                lock.synced[(page, section, lang, text.fingerprint)] = text.text
                lines.append(
                    f"minor: the {lang} edit of {page}#{shown(section)} needs no translation ({', '.join(moved)} stay in step)"
                )
    return lines or ["minor: nothing changed since the last sync in what was named"]


def _drop_stale(lock: Lock, translations: Translations) -> None:
    present = {
        (page, section, lang) for (lang, page), sections in translations.texts.items() for section in sections
    }
    for key in [key for key in lock.records if key not in present]:
        del lock.records[key]


def _keep_needed_texts(lock: Lock) -> None:
    """Only the texts some language was brought in step with are kept (the dashboard's diffs)."""
    needed = {
        (r.page, r.section, other, value) for r in lock.records.values() for other, value in r.twins.items()
    }
    lock.synced = {key: text for key, text in lock.synced.items() if key in needed}


def _write_if_changed(root: Path, lock: Lock, order) -> bool:
    """Write both files only when what they would hold differs (a status that records nothing
    leaves them untouched: `serve` would rebuild on a rewrite); True when written."""
    before = [(root / name).read_bytes() if (root / name).is_file() else None for name in (LOCK, SYNCED)]
    if before == list(lock_bytes(lock, order)):
        return False
    write_lock(root, lock, order)
    return True


def _print_status(translations: Translations, out, detailed: bool) -> None:
    if detailed:
        for row in translations.rows:
            if row.state == OUTDATED:
                for change in row.changes:
                    when = f" on {change.since}" if change.since else " (not dated yet)"
                    print(
                        f"outdated         {row.lang} {row.name}  {row.location}  ({change.lang} changed{when}: {change.at})",
                        file=out,
                    )
            elif row.state == MISSING:
                twin = row.twin
                print(
                    f"missing          {row.lang} {row.name}  ({twin.lang if twin else '?'} has it: {twin.location if twin else '?'})",
                    file=out,
                )
            elif row.state == UNSYNCED:
                print(f"not yet in step  {row.lang} {row.name}  {row.location}", file=out)
    counts = translations.counts()
    sections = len({(row.page, row.section) for row in translations.rows})
    others = ", ".join(f"{counts[state]} {state}" for state in sorted(counts) if state != IN_STEP)
    print(
        f"{sections} sections × {len(translations.languages)} languages: {counts.get(IN_STEP, 0)} in step"
        + (f", {others}" if others else ""),
        file=out,
    )
