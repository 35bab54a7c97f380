"""Editions and what changed between them. `atlas-site edition freeze` keeps the published
edition's evidence in the repository, `ledger/editions/<n>/`: its claims.json (the site's open data,
as published), the sources with their verification days, and every section's fingerprint per
language. The next edition's "what changed" pages and `changes.atom` compare the book as it is now
with the newest snapshot of an earlier edition: claims added, changed (old -> new) and retired,
sources added or verified again, sections changed. Nothing reads the clock: days come from book.yaml."""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Diagnostic, SourceLocation
from .files import current_umask, read_regular, replace_file

FOLDER = Path("ledger") / "editions"
FILES = ("claims.json", "sources.json", "sections.json", "edition.json")


def sources_record(book) -> dict:
    """Work key -> title, address and the latest day a registry entry naming it was verified."""
    record: dict[str, dict] = {}
    for entry in [*book.registry.nodes.values(), *book.registry.references.values()]:
        work = book.registry.works.get(entry.work)
        if work is None:
            continue
        day = getattr(entry, "verified", None) or getattr(entry, "accessed", None)
        item = record.setdefault(work.key, {"title": work.title, "url": work.url, "verified": None})
        if day is not None and (item["verified"] is None or day.isoformat() > item["verified"]):
            item["verified"] = day.isoformat()
    return dict(sorted(record.items()))


def sections_record(translations) -> dict:
    """Language -> "page#section" -> its text's fingerprint (translations/sections.py)."""
    record: dict[str, dict] = {}
    for (lang, page), sections in sorted(translations.texts.items()):
        for section, text in sections.items():
            record.setdefault(lang, {})[f"{page}#{section}"] = text.fingerprint
    return {lang: dict(sorted(items.items())) for lang, items in sorted(record.items())}


def snapshot(book, claims_json: bytes, translations) -> dict[str, str]:
    """The files of this edition's snapshot, by name."""
    edition = book.profile.edition
    dump = lambda data: json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False) + "\n"  # noqa: E731
    return {
        "claims.json": claims_json.decode("utf-8"),
        "sources.json": dump(sources_record(book)),
        "sections.json": dump(sections_record(translations)),
        "edition.json": dump({"number": edition.number, "date": edition.date.isoformat()}),
    }


def freeze(root: Path, book, claims_json: bytes, translations) -> tuple[Path | None, list[Diagnostic]]:
    """Write ledger/editions/<n>/ for book.yaml's edition; never over an existing snapshot."""
    edition = book.profile.edition
    if edition is None:
        return None, [
            Diagnostic(
                SourceLocation("book.yaml"),
                "edition.none",
                "book.yaml names no edition: nothing to freeze",
                "add `edition: {number: 1, date: YYYY-MM-DD}`",
            )
        ]
    folder = root / FOLDER / str(edition.number)
    if folder.exists():
        return None, [
            Diagnostic(
                SourceLocation((FOLDER / str(edition.number)).as_posix()),
                "edition.exists",
                f"edition {edition.number} is frozen already: a snapshot is never rewritten",
                "a new edition takes the next number and its day in book.yaml",
            )
        ]
    # written whole into a staging folder and renamed into place: an interrupted freeze leaves no
    # half snapshot that a later freeze would refuse to complete
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{edition.number}.", dir=folder.parent))
    try:
        for name, text in snapshot(book, claims_json, translations).items():
            replace_file(staging / name, text)
        staging.chmod(0o777 & ~current_umask())
        staging.rename(folder)
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        return None, [
            Diagnostic(
                SourceLocation((FOLDER / str(edition.number)).as_posix()),
                "edition.write-failed",
                f"could not write the snapshot: {error.strerror or error}",
                "free space or fix the permissions, then freeze again",
            )
        ]
    return folder, []


@dataclass
class Snapshot:
    number: int
    date: str
    claims: dict  # id -> claims.json record
    sources: dict
    sections: dict


def read_snapshots(root: Path, problems: list) -> list[Snapshot]:
    """Every frozen edition, oldest first (a snapshot that cannot be read is one located problem)."""
    base = root / FOLDER
    found = []
    for folder in (
        sorted((p for p in base.iterdir() if p.is_dir() and p.name.isdigit()), key=lambda p: int(p.name))
        if base.is_dir()
        else []
    ):
        try:
            data = {name: json.loads(read_regular(folder / name).decode("utf-8")) for name in FILES}
            found.append(
                Snapshot(
                    data["edition.json"]["number"],
                    data["edition.json"]["date"],
                    {c["id"]: c for c in data["claims.json"]["claims"]},
                    data["sources.json"],
                    data["sections.json"],
                )
            )
        except (OSError, ValueError, KeyError, TypeError) as error:  # NotAFile is an OSError
            problems.append(
                Diagnostic(
                    SourceLocation((FOLDER / folder.name).as_posix()),
                    "edition.unreadable",
                    f"the snapshot of edition {folder.name} cannot be read: {error}",
                    "restore it from git (a snapshot is written once, by atlas-site edition freeze)",
                )
            )
    return found


@dataclass
class Changes:
    since: Snapshot | None  # None: the first edition
    added: list = field(default_factory=list)  # claim records
    changed: list = field(default_factory=list)  # (old record, new record, [what changed])
    retired: list = field(default_factory=list)
    sources_added: list = field(default_factory=list)  # (key, record)
    sources_verified: list = field(default_factory=list)  # (key, old day, new day)
    sections: dict = field(default_factory=dict)  # lang -> ["page#section", …] changed, added or gone

    def was(self, claim_id: str):
        """The old record of a claim this edition changed, or None."""
        return next((old for old, new, _ in self.changed if new["id"] == claim_id), None)


def compare(previous: Snapshot | None, claims: dict, sources: dict, sections: dict) -> Changes:
    changes = Changes(previous)
    if previous is None:
        return changes
    for claim_id, record in claims.items():
        old = previous.claims.get(claim_id)
        if old is None:
            changes.added.append(record)
            continue
        what = [name for name in ("value", "unit", "setting") if old.get(name) != record.get(name)]
        if [s.get("bibtex") for s in old.get("sources", [])] != [
            s.get("bibtex") for s in record.get("sources", [])
        ]:
            what.append("sources")
        if what:
            changes.changed.append((old, record, what))
    changes.retired = [record for claim_id, record in previous.claims.items() if claim_id not in claims]
    for key, record in sources.items():
        old = previous.sources.get(key)
        if old is None:
            changes.sources_added.append((key, record))
        elif record.get("verified") and record.get("verified") != old.get("verified"):
            changes.sources_verified.append((key, old.get("verified"), record["verified"]))
    for lang, now in sections.items():
        before = previous.sections.get(lang, {})
        moved = sorted(key for key in set(now) | set(before) if now.get(key) != before.get(key))
        if moved:
            changes.sections[lang] = moved
    return changes
