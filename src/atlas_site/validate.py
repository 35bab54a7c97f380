"""Stage 2: raw located records -> model.Book, every schema problem as file:line."""
from __future__ import annotations

from collections import defaultdict

from pydantic import BaseModel, ValidationError

from .diagnostics import Collector, SourceLocation, closest
from .load.project import RawProject
from .load.yaml_source import LocatedData
from .model import (
    LANGS, Book, Claim, Example, FigureSpec, LabContract, Lead, MapNode, MapRoute, Misconception, NodeEntry, OpenQuestion,
    Page, PageMeta, PagePart, Question, ReferenceEntry, Registry, Term, Wave, Work,
)

# top-level front-matter key of a ledger file -> the model of each list item
LEDGER_COLLECTIONS: dict[str, type[BaseModel]] = {
    "claims": Claim,
    "examples": Example,
    "questions": Question,
    "misconceptions": Misconception,
    "open_questions": OpenQuestion,
    "waves": Wave,
    "terms": Term,
    "leads": Lead,
    "figures": FigureSpec,
    "labs": LabContract,
    "routes": MapRoute,
    "map_nodes": MapNode,
}
LEDGER_MAPPINGS = {"strings"}  # key -> {zh, en} tables (lab UI strings)
BIB_FIELDS = {"key", "entry_type", "title", "year", "url", "howpublished"}


def _schema_problems(out: Collector, error: ValidationError, data: LocatedData, prefix: tuple, model: type[BaseModel]):
    for item in error.errors():
        loc = tuple(item["loc"])
        where = data.at(prefix + loc)
        dotted = ".".join(str(part) for part in loc) or model.__name__
        if item["type"] == "extra_forbidden":
            name = str(loc[-1])
            out.error(where, "schema.unknown-key", f"unknown key '{dotted}' in {model.__name__}", closest(name, model.model_fields))
        elif item["type"] == "missing":
            out.error(data.at(prefix), "schema.missing-key", f"{model.__name__} needs '{dotted}'")
        else:
            out.error(where, "schema.invalid", f"{dotted}: {item['msg']}")


def build_item(out: Collector, model: type[BaseModel], raw, data: LocatedData, prefix: tuple):
    if not isinstance(raw, dict):
        out.error(data.at(prefix), "schema.invalid", f"expected a mapping for {model.__name__}")
        return None
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        _schema_problems(out, error, data, prefix, model)
        return None


def _registry(raw: RawProject, out: Collector, where: dict) -> Registry:
    works: dict[str, Work] = {}
    by_url: dict[str, str] = {}
    for record, location in raw.bib_records:
        unknown = sorted(set(record) - BIB_FIELDS)
        for name in unknown:
            out.error(location, "bib.unknown-field", f"unknown BibTeX field '{name}' in '{record['key']}'", closest(name, BIB_FIELDS))
        record = {k: v for k, v in record.items() if k in BIB_FIELDS}
        if "year" in record and str(record["year"]).isdigit():
            record["year"] = int(record["year"])
        try:
            work = Work.model_validate(record)
        except ValidationError as error:
            for item in error.errors():
                out.error(location, "bib.invalid", f"{record.get('key')}: {'.'.join(map(str, item['loc']))}: {item['msg']}")
            continue
        if work.url and work.url in by_url:
            out.error(location, "source.duplicate-work", f"'{work.key}' has the same URL as '{by_url[work.url]}': one entry per distinct work")
        if work.url:
            by_url[work.url] = work.key
        works[work.key] = work
        where[f"work:{work.key}"] = location

    def table(name: str, model, number_key: str, label):
        data = raw.source_tables.get(name)
        entries = {}
        if data is None:
            out.error(SourceLocation(f"sources/{name}.yaml"), "source.missing-file", f"sources/{name}.yaml is missing")
            return entries
        items = data.data if isinstance(data.data, list) else []
        if not isinstance(data.data, list):
            out.error(data.origin, "schema.invalid", f"sources/{name}.yaml must be a list")
        for index, item in enumerate(items):
            entry = build_item(out, model, item, data, (index,))
            if entry is None:
                continue
            number = label(entry)
            location = data.at((index,))
            if number in entries:
                out.error(location, "source.duplicate-number", f"ledger number {number} appears twice")
                continue
            if entry.work not in works:
                out.error(data.at((index, "work")), "source.unknown-work", f"{number} names work '{entry.work}' that is not in sources/*.bib", closest(entry.work, works))
            entries[number] = entry
            where[number] = location
        return entries

    nodes = table("nodes", NodeEntry, "node", lambda e: e.number)
    references = table("references", ReferenceEntry, "ref", lambda e: e.number)
    for name in sorted(set(raw.source_tables) - {"nodes", "references"}):
        out.error(raw.source_tables[name].origin, "source.unknown-file", f"unexpected file sources/{name}.yaml (expected nodes.yaml, references.yaml)")
    for number, entry in references.items():
        work = works.get(entry.work)
        if work and work.url is None and entry.url_status != "unresolved":
            out.error(where[number], "source.missing-url", f"{number}: work '{work.key}' has no URL but url_status is '{entry.url_status}'")
        if work and work.url is not None and entry.url_status == "unresolved":
            out.error(where[number], "source.unresolved-with-url", f"{number} is unresolved but its work '{work.key}' has a URL")
    return Registry(works=works, nodes=nodes, references=references)


def _ledgers(raw: RawProject, out: Collector, where: dict, broken: set) -> dict:
    collected: dict[str, list] = defaultdict(list)
    strings: dict = {}
    for doc in raw.ledgers:
        data = doc.meta
        if not isinstance(data.data, dict):
            out.error(data.origin, "schema.invalid", "ledger front matter must be a mapping")
            continue
        for key, value in data.data.items():
            if key in LEDGER_MAPPINGS:
                strings.update(_string_table(out, data, key, value))
                continue
            model = LEDGER_COLLECTIONS.get(key)
            if model is None:
                out.error(data.at((key,)), "ledger.unknown-collection", f"unknown ledger collection '{key}'", closest(key, list(LEDGER_COLLECTIONS) + list(LEDGER_MAPPINGS)))
                continue
            if not isinstance(value, list):
                out.error(data.at((key,)), "schema.invalid", f"'{key}' must be a list")
                continue
            for index, item in enumerate(value):
                record = build_item(out, model, item, data, (key, index))
                if record is not None:
                    collected[key].append((record, data.at((key, index))))
                elif isinstance(item, dict) and isinstance(item.get("id"), str):
                    broken.add(f"{key}:{item['id']}")  # already reported; later references stay quiet
    result = {}
    for key, items in collected.items():
        seen: dict[str, SourceLocation] = {}
        unique = []
        for record, location in items:
            if record.id in seen:
                out.error(location, "ledger.duplicate-id", f"duplicate {key} id '{record.id}' (first at {seen[record.id]})")
                continue
            seen[record.id] = location
            where[f"{key}:{record.id}"] = location
            unique.append(record)
        result[key] = unique
    result["strings"] = strings
    return result


def _string_table(out: Collector, data: LocatedData, key: str, value) -> dict:
    table = {}
    if not isinstance(value, dict):
        out.error(data.at((key,)), "schema.invalid", f"'{key}' must map names to {{zh, en}}")
        return table
    for name, text in value.items():
        if not (isinstance(text, dict) and set(text) == set(LANGS) and all(isinstance(v, str) and v for v in text.values())):
            out.error(data.at((key, name)), "i18n.missing-language", f"string '{name}' needs non-empty zh and en")
            continue
        table[name] = text
    return table


def _pages(raw: RawProject, out: Collector) -> tuple[Page, ...]:
    grouped: dict[tuple[str, str], list] = defaultdict(list)
    for lang, page_dir, doc in raw.content:
        if lang not in LANGS:
            out.error(SourceLocation(doc.path), "page.unknown-language", f"content language '{lang}' is not one of {', '.join(LANGS)}")
            continue
        grouped[(lang, page_dir)].append(doc)
    pages = []
    for (lang, page_dir), docs in sorted(grouped.items()):
        head, rest = docs[0], docs[1:]
        if head.meta is None:
            out.error(SourceLocation(head.path, 1, 1), "page.no-front-matter", f"the first part of page '{page_dir}' needs front matter (page, title, status)")
            continue
        meta = build_item(out, PageMeta, head.meta.data, head.meta, ())
        for doc in rest:
            if doc.meta is not None:
                out.error(doc.meta.origin.shifted(-1), "page.part-front-matter", "only the first part file of a page carries front matter")
        if meta is None:
            continue
        if meta.page != page_dir:
            out.error(head.meta.at(("page",)), "page.id-mismatch", f"page id '{meta.page}' differs from its folder '{page_dir}'")
            continue
        parts = tuple(PagePart(path=d.path, body=d.body, body_line=d.body_line) for d in docs)
        pages.append(Page(lang=lang, meta=meta, parts=parts))
    by_id = defaultdict(dict)
    for page in pages:
        by_id[page.id][page.lang] = page
    for page_id, versions in sorted(by_id.items()):
        for lang in LANGS:
            if lang not in versions:
                other = next(iter(versions.values()))
                out.error(other.origin, "page.missing-translation", f"page '{page_id}' has no {lang} twin (expected content/{lang}/{page_id}/)")
    return tuple(pages)


def validate(raw: RawProject) -> tuple[Book | None, list]:
    out = Collector(list(raw.problems))
    where: dict[str, SourceLocation] = {}
    registry = _registry(raw, out, where)
    broken: set[str] = set()
    ledgers = _ledgers(raw, out, where, broken)
    pages = _pages(raw, out)
    book = Book(
        registry=registry,
        claims={c.id: c for c in ledgers.get("claims", [])},
        examples={e.id: e for e in ledgers.get("examples", [])},
        questions=tuple(sorted(ledgers.get("questions", []), key=lambda q: int(q.id[1:]))),
        misconceptions=tuple(ledgers.get("misconceptions", [])),
        open_questions=tuple(ledgers.get("open_questions", [])),
        waves=tuple(ledgers.get("waves", [])),
        terms={t.id: t for t in ledgers.get("terms", [])},
        leads=tuple(ledgers.get("leads", [])),
        figures={f.id: f for f in ledgers.get("figures", [])},
        labs={lab.id: lab for lab in ledgers.get("labs", [])},
        lab_strings=ledgers["strings"],
        map_routes=tuple(ledgers.get("routes", [])),
        map_nodes=tuple(sorted(ledgers.get("map_nodes", []), key=lambda n: (n.year, n.id))),
        pages=pages,
        where=where,
        broken=frozenset(broken),
    )
    return book, out.items
