"""ledger/*.md front matter -> the book's records, one collection per top-level key."""

from __future__ import annotations

import re
from collections import defaultdict

from pydantic import BaseModel

from ..diagnostics import Collector, SourceLocation, closest
from ..load.yaml_source import LocatedData
from ..model import (
    Claim,
    Example,
    FigureSpec,
    LabContract,
    Lead,
    Lineage,
    MapNode,
    MapRoute,
    Misconception,
    OpenQuestion,
    Question,
    Term,
    Wave,
)
from .schema import build_item

# top-level front-matter key of a ledger file -> the model of each list item
LEDGER_COLLECTIONS: dict[str, type[BaseModel]] = {
    "claims": Claim,
    "examples": Example,
    "questions": Question,
    "misconceptions": Misconception,
    "open_questions": OpenQuestion,
    "waves": Wave,
    "lineages": Lineage,
    "terms": Term,
    "leads": Lead,
    "figures": FigureSpec,
    "labs": LabContract,
    "routes": MapRoute,
    "map_nodes": MapNode,
}
LEDGER_MAPPINGS = {"strings"}  # key -> {lang: text} tables (lab UI strings)
RECORD_ID = re.compile(r"^\s*-\s+id:\s*['\"]?([A-Za-z0-9_-]+)", re.M)


def validate_ledgers(raw, languages, out: Collector, where: dict, broken: set) -> dict:
    collected: dict[str, list] = defaultdict(list)
    strings: dict = {}
    for doc in raw.ledgers:
        data = doc.meta
        if not isinstance(data.data, dict):
            out.error(data.origin, "schema.invalid", "ledger front matter must be a mapping of collections")
            continue
        for key, value in data.data.items():
            if key in LEDGER_MAPPINGS:
                strings.update(_string_table(out, data, key, value, languages))
                continue
            model = LEDGER_COLLECTIONS.get(key)
            if model is None:
                out.error(
                    data.at((key,)),
                    "ledger.unknown-collection",
                    f"unknown ledger collection '{key}'",
                    closest(key, list(LEDGER_COLLECTIONS) + list(LEDGER_MAPPINGS)),
                )
                continue
            if not isinstance(value, list):
                out.error(data.at((key,)), "schema.invalid", f"'{key}' must be a list")
                continue
            for index, item in enumerate(value):
                record = build_item(out, model, item, data, (key, index), languages)
                if record is not None:
                    collected[key].append((record, data.at((key, index))))
                elif isinstance(item, dict) and isinstance(item.get("id"), str):
                    broken.add(f"{key}:{item['id']}")  # already reported; references to it stay quiet
    result: dict = {}
    for key, items in collected.items():
        seen: dict[str, SourceLocation] = {}
        unique = []
        for record, location in items:
            if record.id in seen:
                out.error(
                    location,
                    "ledger.duplicate-id",
                    f"duplicate {key} id '{record.id}' (first at {seen[record.id]})",
                )
                continue
            seen[record.id] = location
            where[f"{key}:{record.id}"] = location
            unique.append(record)
        result[key] = unique
    result["strings"] = strings
    return result


def ids_in_unreadable(text: str) -> set[str]:
    """The record ids a ledger file that failed to parse would have defined, found by their
    `- id:` lines, so that references to them do not bury the parse error under follow-ons."""
    return {f"*:{match}" for match in RECORD_ID.findall(text)}


def _string_table(out: Collector, data: LocatedData, key: str, value, languages) -> dict:
    table: dict = {}
    if not isinstance(value, dict):
        out.error(data.at((key,)), "schema.invalid", f"'{key}' must map names to {{{', '.join(languages)}}}")
        return table
    for name, text in value.items():
        if not (
            isinstance(text, dict)
            and set(text) == set(languages)
            and all(isinstance(v, str) and v for v in text.values())
        ):
            out.error(
                data.at((key, name)),
                "i18n.missing-language",
                f"string '{name}' needs a non-empty text in each of {', '.join(languages)}",
            )
            continue
        table[name] = text
    return table
