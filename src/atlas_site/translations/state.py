"""Where each section of each language stands against its twins, from the page texts and the lock.

Every language is compared with every other one (not with a source language): the book is written
natively in each language, so whichever side changes, the others are behind it. For each section
and language the state is one of

- in step: every other language's text is the one it was brought in step with;
- outdated: another language's text changed since (with the day that change was recorded, its
  first changed line and, when the synced text is stored, the diff);
- missing: another language has the section, this one does not yet;
- new: only this language has the section so far (its twins are `missing`);
- not yet in step: both have it, but it was never declared in step (no line in the lock)."""

from __future__ import annotations

import datetime as dt
import difflib
from collections import Counter
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, SourceLocation
from .lock import Lock, Record
from .sections import SPACE, SectionText, page_sections, shown

IN_STEP, OUTDATED, MISSING, NEW, UNSYNCED = "in step", "outdated", "missing", "new", "not yet in step"


@dataclass(frozen=True)
class Change:
    """Another language's text of the section changed after this one was brought in step with it."""

    lang: str
    since: dt.date | None  # the day `sync` recorded the changed text (None: not recorded yet)
    at: SourceLocation  # its first changed line
    diff: str | None  # what changed in it since the sync (None: the synced text is not stored)
    fingerprint: str  # its text now (a dismissed notice comes back when it changes again)


@dataclass(frozen=True)
class SectionState:
    page: str
    section: str
    lang: str
    state: str
    location: SourceLocation | None  # this language's heading; None when missing
    changes: tuple[Change, ...] = ()
    twin: SectionText | None = None  # for a missing section: the language that has it

    @property
    def since(self) -> dt.date | None:
        """Outdated since the first recorded change; None while a change is not dated."""
        dates = [c.since for c in self.changes if c.since is not None]
        return min(dates) if dates and len(dates) == len(self.changes) else None

    @property
    def name(self) -> str:
        return f"{self.page}#{shown(self.section)}"


@dataclass
class Translations:
    languages: tuple[str, ...] = ()
    lock_exists: bool = False
    rows: list[SectionState] = field(default_factory=list)
    stale: list[Record] = field(default_factory=list)  # lock lines naming a section that is gone
    problems: list[Diagnostic] = field(default_factory=list)  # the lock files' own syntax problems
    texts: dict = field(default_factory=dict)  # (lang, page) -> {section id: SectionText}

    def counts(self) -> Counter:
        return Counter(row.state for row in self.rows)

    def outdated(self, lang: str, page: str) -> dict[str, tuple[Change, ...]]:
        """The sections of one page in one language that are behind, for the reader's notices."""
        return {
            r.section: r.changes
            for r in self.rows
            if r.lang == lang and r.page == page and r.state == OUTDATED
        }

    def table(self) -> list[dict]:
        """One row per section, one cell per language: what the dashboard shows."""
        rows: dict[tuple[str, str], dict] = {}
        for row in self.rows:
            rows.setdefault((row.page, row.section), {"name": row.name, "cells": {}})["cells"][row.lang] = row
        return list(rows.values())


def page_order(book, parsed) -> list[str]:
    order = {page: index for index, page in enumerate(book.profile.reading_order())}
    return sorted({page for _, page in parsed}, key=lambda page: (order.get(page, len(order)), page))


def order_key(book, translations: Translations):
    """Sort key of (page, section, lang): reading order, page order, book language order (lock files)."""
    pages = {page: index for index, page in enumerate(book.profile.reading_order())}
    sections: dict[tuple[str, str], int] = {}
    for (_lang, page), texts in translations.texts.items():
        for index, section in enumerate(texts):
            sections.setdefault((page, section), index)
    languages = {lang: index for index, lang in enumerate(book.languages)}
    return lambda key: (
        pages.get(key[0], len(pages)),
        key[0],
        sections.get((key[0], key[1]), len(sections)),
        key[1],
        languages.get(key[2], len(languages)),
        key[2],
    )


def track(book, parsed, lock: Lock) -> Translations:
    languages = book.languages
    result = Translations(languages, lock.exists, problems=list(lock.problems))
    if len(languages) < 2:
        return result
    result.texts = {(lang, page): page_sections(p) for (lang, page), p in parsed.items()}
    present_keys = set()
    for page in page_order(book, parsed):
        versions = {lang: result.texts[(lang, page)] for lang in languages if (lang, page) in result.texts}
        if len(versions) < 2:
            continue  # a page without its twin is reported by validation (page.missing-translation)
        for section in _section_order(versions):
            present = [lang for lang in versions if section in versions[lang]]
            for lang in versions:
                if lang not in present:
                    result.rows.append(
                        SectionState(page, section, lang, MISSING, None, twin=versions[present[0]][section])
                    )
                    continue
                present_keys.add((page, section, lang))
                if len(present) == 1:
                    result.rows.append(
                        SectionState(page, section, lang, NEW, versions[lang][section].location)
                    )
                else:
                    result.rows.append(_compare(page, section, lang, versions, present, lock))
    result.stale = [
        record
        for key, record in sorted(lock.records.items(), key=lambda item: item[1].line)
        if key not in present_keys
    ]
    return result


def _section_order(versions: dict) -> list[str]:
    order: list[str] = []
    for texts in versions.values():
        order += [section for section in texts if section not in order]
    return order


def _compare(page, section, lang, versions, present, lock: Lock) -> SectionState:
    mine = versions[lang][section]
    record = lock.get(page, section, lang)
    others = [other for other in present if other != lang]
    if record is None or any(other not in record.twins for other in others):
        return SectionState(page, section, lang, UNSYNCED, mine.location)
    changes = []
    for other in others:
        theirs = versions[other][section]
        if theirs.fingerprint == record.twins[other]:
            continue
        their_record = lock.get(page, section, other)
        since = (
            their_record.recorded
            if their_record is not None and their_record.fingerprint == theirs.fingerprint
            else None
        )
        before = lock.synced_text(page, section, other, record.twins[other])
        changes.append(
            Change(other, since, _first_change(before, theirs), _diff(before, theirs), theirs.fingerprint)
        )
    return SectionState(page, section, lang, OUTDATED if changes else IN_STEP, mine.location, tuple(changes))


def _first_change(before: str | None, now: SectionText) -> SourceLocation:
    """The first line of `now` that differs from the synced text (its heading when that is unknown)."""
    if before is None:
        return now.location
    old = [SPACE.sub("", line) for line in before.split("\n")]
    new = [SPACE.sub("", line.text) for line in now.trimmed()]
    for tag, _i1, _i2, j1, _j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "equal":
            return now.location_of(j1)
    return now.location


def _diff(before: str | None, now: SectionText) -> str | None:
    if before is None:
        return None
    name = f"{now.lang} {now.page}#{shown(now.id)}"
    return "\n".join(
        difflib.unified_diff(
            before.split("\n"), now.text.split("\n"), f"{name} when in step", f"{name} now", n=1, lineterm=""
        )
    )
