"""sources/*.bib + sources/nodes.yaml + sources/references.yaml -> the source registry."""

from __future__ import annotations

from pydantic import ValidationError

from ..diagnostics import Collector, SourceLocation, closest
from ..model import NodeEntry, ReferenceEntry, Registry, Work
from .schema import build_item

BIB_FIELDS = {"key", "entry_type", "title", "year", "url", "howpublished"}
TABLES = {"nodes": NodeEntry, "references": ReferenceEntry}


def validate_registry(raw, profile, out: Collector, where: dict, broken: set) -> Registry:
    works = _works(raw, out, where)
    languages = profile.codes
    tables = {}
    for name, model in TABLES.items():
        tables[name] = _table(raw, name, model, works, profile, out, where, broken, languages)
    for name in sorted(set(raw.source_tables) - set(TABLES)):
        out.error(
            raw.source_tables[name].origin,
            "source.unknown-file",
            f"unexpected file sources/{name}.yaml (expected nodes.yaml, references.yaml)",
        )
    for number, entry in tables["references"].items():
        work = works.get(entry.work)
        if work and work.url is None and entry.url_status != "unresolved":
            out.error(
                where[number],
                "source.missing-url",
                f"{number}: work '{work.key}' has no URL but url_status is '{entry.url_status}'",
            )
        if work and work.url is not None and entry.url_status == "unresolved":
            out.error(
                where[number],
                "source.unresolved-with-url",
                f"{number} is unresolved but its work '{work.key}' has a URL",
            )
    return Registry(works=works, nodes=tables["nodes"], references=tables["references"])


def _works(raw, out: Collector, where: dict) -> dict:
    works: dict[str, Work] = {}
    by_url: dict[str, str] = {}
    for record, location in raw.bib_records:
        for name in sorted(set(record) - BIB_FIELDS):
            out.error(
                location,
                "bib.unknown-field",
                f"unknown BibTeX field '{name}' in '{record['key']}'",
                closest(name, BIB_FIELDS),
            )
        record = {k: v for k, v in record.items() if k in BIB_FIELDS}
        if "year" in record and str(record["year"]).isdigit():
            record["year"] = int(record["year"])
        try:
            work = Work.model_validate(record)
        except ValidationError as error:
            for item in error.errors():
                out.error(
                    location,
                    "bib.invalid",
                    f"{record.get('key')}: {'.'.join(map(str, item['loc']))}: {item['msg']}",
                )
            continue
        if work.url and work.url in by_url:
            out.error(
                location,
                "source.duplicate-work",
                f"'{work.key}' has the same URL as '{by_url[work.url]}': one entry per distinct work",
            )
        if work.url:
            by_url[work.url] = work.key
        works[work.key] = work
        where[f"work:{work.key}"] = location
    return works


def _table(raw, name, model, works, profile, out, where, broken, languages) -> dict:
    """One registry file; absent means an empty registry (a book may have no formal nodes), unless
    the profile declares it."""
    data = raw.source_tables.get(name)
    entries: dict = {}
    if data is None:
        if name in profile.sources and f"file:sources/{name}.yaml" not in broken:
            out.error(
                SourceLocation(f"sources/{name}.yaml"),
                "source.missing-file",
                f"sources/{name}.yaml is missing (book.yaml declares the {name} registry)",
            )
        return entries
    if not isinstance(data.data, list):
        out.error(data.origin, "schema.invalid", f"sources/{name}.yaml must be a list of entries")
        broken.add(f"registry:{name}")
        return entries
    for index, item in enumerate(data.data):
        entry = build_item(out, model, item, data, (index,), languages)
        if entry is None:
            broken.add(f"registry:{name}")  # references to its numbers would only repeat this problem
            continue
        number = entry.number
        location = data.at((index,))
        if number in entries:
            out.error(
                location,
                "source.duplicate-number",
                f"ledger number {number} appears twice (first at {where[number]})",
            )
            continue
        if entry.work not in works and "registry:works" in broken:
            out.quiet()  # a .bib file that failed to load is the cause: each work it held would be "unknown"
        elif entry.work not in works:
            out.error(
                data.at((index, "work")),
                "source.unknown-work",
                f"{number} names work '{entry.work}' that is not in sources/*.bib",
                closest(entry.work, works),
            )
        if entry.evidence not in profile.evidence:
            out.error(
                data.at((index, "evidence")),
                "source.unknown-evidence",
                f"{number}: evidence class '{entry.evidence}' is not one of book.yaml evidence",
                closest(entry.evidence, profile.evidence),
            )
        entries[number] = entry
        where[number] = location
    if entries and name not in profile.sources:
        out.error(
            data.origin,
            "source.undeclared",
            f"sources/{name}.yaml has entries but book.yaml declares no {name} registry (sources: {name}: …)",
        )
    return entries
