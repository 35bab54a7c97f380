"""The evidence ledger as open data at the site root: claims.json and examples.json, each with the
JSON Schema (draft 2020-12) it is published under, and sources.bib, every work the book cites.

A reader who wants to reuse a number gets it with its setting, its sources (BibTeX key and URL),
the day it was last verified, the book's edition and where the book uses it; a teaching number
with the function of the labs that computes it, its arguments and its computed value. What is
written is validated against its schema by the build (gates/open_data.py)."""

from __future__ import annotations

import json
from typing import get_args

from ..model import Book, ClaimKind, ExampleKind
from ..resolve.example_labs import lab_link
from .state import source_label
from .uses import figure_claims, places_of

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
FILES = ("claims.json", "examples.json")

_LOCALIZED = {
    "type": "object",
    "minProperties": 1,
    "additionalProperties": {"type": "string", "minLength": 1},
}


def _closed(properties: dict) -> dict:
    """An object with exactly these properties, all required."""
    return {
        "type": "object",
        "required": list(properties),
        "additionalProperties": False,
        "properties": properties,
    }


_TEXTS = {"type": "object", "additionalProperties": {"type": "string"}}  # name -> text (a link, an output)
_NUMBER = {"oneOf": [{"type": "number"}, {"type": "array", "items": {"type": "number"}, "minItems": 1}]}
_PLACES = {
    "type": "object",
    "additionalProperties": {
        "type": "array",
        "items": _closed({name: {"type": "string"} for name in ("page", "section", "title", "href")}),
    },
}
_EDITION = {
    "oneOf": [
        {"type": "null"},
        {
            "type": "object",
            "required": ["number", "date"],
            "additionalProperties": False,
            "properties": {
                "number": {"type": "integer", "minimum": 1},
                "date": {"type": "string", "format": "date"},
            },
        },
    ]
}
_SOURCE = {
    "type": "object",
    "required": ["number", "label", "bibtex", "title"],
    "additionalProperties": False,
    "properties": {
        "number": {"type": "string", "pattern": "^[nr][0-9]+$"},
        "label": {"type": "string"},
        "bibtex": {"type": "string"},
        "title": {"type": "string"},
        "url": {"type": ["string", "null"]},
        "year": {"type": ["integer", "null"]},
    },
}


def _envelope(name: str, item: dict, description: str) -> dict:
    return {
        "$schema": SCHEMA_DIALECT,
        "$id": f"{name}.schema.json",
        "title": name,
        "description": description,
        "type": "object",
        "required": ["book", "edition", "languages", name],
        "additionalProperties": False,
        "properties": {
            "book": _LOCALIZED,
            "edition": _EDITION,
            "languages": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            name: {"type": "array", "items": item},
        },
    }


CLAIMS_SCHEMA = _envelope(
    "claims",
    {
        "type": "object",
        "additionalProperties": False,
        "required": [
            "id",
            "kind",
            "value",
            "unit",
            "text",
            "setting",
            "sources",
            "verified",
            "used_in",
            "permalinks",
        ],
        "properties": {
            "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"},
            "kind": {
                "enum": list(get_args(ClaimKind)),
                "description": (
                    "author-reported: a result the source's authors report (measured, or their own "
                    "estimate); benchmark-result: a benchmark's published result; report-parameter: "
                    "a value the authors set rather than measured (a design constant, a deployment "
                    "choice, an assumed price); expectation: a number the source gives as an "
                    "outlook, not as a measurement"
                ),
            },
            "value": _NUMBER,
            "unit": {"type": "string"},
            "text": _LOCALIZED,
            "setting": {
                "type": "object",
                "required": ["text"],
                "additionalProperties": False,
                "properties": {
                    **{
                        key: {"type": ["string", "null"]}
                        for key in ("model", "hardware", "workload", "baseline", "slo", "metric")
                    },
                    "text": _LOCALIZED,
                },
            },
            "caution": {"oneOf": [{"type": "null"}, _LOCALIZED]},
            "sources": {"type": "array", "items": _SOURCE, "minItems": 1},
            "verified": {"type": "string", "format": "date"},
            "used_in": _PLACES,
            "permalinks": _TEXTS,
        },
    },
    "Every number the book takes from a source (a reported or benchmark result, a value the authors "
    "set, an outlook), with its setting and sources.",
)

EXAMPLES_SCHEMA = _envelope(
    "examples",
    {
        "type": "object",
        "additionalProperties": False,
        "required": ["id", "kind", "function", "arguments", "outputs", "used_in", "permalinks", "lab"],
        "properties": {
            "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"},
            "kind": {"enum": list(get_args(ExampleKind))},
            "function": {"type": "string", "pattern": "^[a-z_]+\\.[a-z0-9_]+$"},
            "arguments": {"type": "object"},
            "outputs": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "required": ["value", "digits"],
                    "additionalProperties": False,
                    "properties": {
                        "value": {"type": ["number", "string", "boolean"]},
                        "digits": {"type": "integer", "minimum": 0},
                        "unit": {"oneOf": [{"type": "null"}, _LOCALIZED]},
                        "source_prints": {
                            "type": ["number", "string", "boolean", "null"],
                            "description": "the number as the cited source prints it, where it does (checked after rounding)",
                        },
                        "kind": {"enum": list(get_args(ExampleKind))},
                    },
                },
            },
            "used_in": _PLACES,
            "permalinks": _TEXTS,
            "lab": {
                "oneOf": [
                    {"type": "null"},
                    _closed(
                        {
                            "id": {"type": "string"},
                            "state": {"type": "object"},
                            "shows": _TEXTS,
                            "links": _TEXTS,
                        }
                    ),
                ]
            },
        },
    },
    "Every teaching number of the book: the labs' function that computes it, its arguments and its values.",
)

SCHEMAS = {"claims.json": CLAIMS_SCHEMA, "examples.json": EXAMPLES_SCHEMA}


def _dumps(data) -> bytes:
    return (json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False) + "\n").encode("utf-8")


def _places(book: Book, parsed: dict, kind: str) -> dict[str, dict[str, list]]:
    """id -> language -> the sections that use it, with their addresses."""
    found: dict[str, dict[str, list]] = {}
    for lang in book.languages:
        uses = places_of(book, parsed, lang, kind)
        if kind == "claim":
            for claim_id, places in figure_claims(book, parsed, lang).items():
                uses.setdefault(claim_id, []).extend(p for p in places if p not in uses.get(claim_id, []))
        for key, places in uses.items():
            found.setdefault(key.split(".")[0], {})[lang] = [
                {"page": p.page_id, "section": p.section, "title": p.title, "href": f"{lang}/{p.href}"}
                for p in places
            ]
    return found


def _edition(book: Book):
    edition = book.profile.edition
    return None if edition is None else {"number": edition.number, "date": edition.date.isoformat()}


def claims_data(book: Book, parsed: dict, numbers_page: bool) -> dict:
    used = _places(book, parsed, "claim")
    claims = []
    for claim in sorted(book.claims.values(), key=lambda c: c.id):
        sources = []
        for number in claim.source:
            work = book.registry.work_of(number)
            if work is not None:
                sources.append(
                    {
                        "number": number,
                        "label": source_label(book, number),
                        "bibtex": work.key,
                        "title": work.title,
                        "url": work.url,
                        "year": work.year,
                    }
                )
        setting = claim.setting.model_dump(mode="json", exclude={"text"})
        in_book = used.get(claim.id, {})
        claims.append(
            {
                "id": claim.id,
                "kind": claim.kind,
                "value": claim.value if not isinstance(claim.value, tuple) else list(claim.value),
                "unit": claim.unit,
                "text": dict(claim.text.root),
                "setting": {**setting, "text": dict(claim.setting.text.root)},
                "caution": dict(claim.caution.root) if claim.caution else None,
                "sources": sources,
                "verified": claim.verified.isoformat(),
                "used_in": in_book,
                # the numbers page lists the claims the book shows, each under its own address
                "permalinks": {lang: f"{lang}/numbers.html#claim-{claim.id}" for lang in in_book}
                if numbers_page
                else {},
            }
        )
    return {
        "book": dict(book.profile.title.root),
        "edition": _edition(book),
        "languages": list(book.languages),
        "claims": claims,
    }


def examples_data(book: Book, parsed: dict, computed: dict, numbers_page: bool) -> dict:
    used = _places(book, parsed, "ex")
    examples = []
    for example in sorted(book.examples.values(), key=lambda e: e.id):
        values = computed.get(example.id, {})
        outputs = {
            name: {
                "value": values.get(name),
                "digits": spec.digits,
                "unit": dict(spec.unit.root) if spec.unit else None,
                "source_prints": example.expect.get(name),
                **({"kind": spec.kind} if spec.kind else {}),  # its own kind, not the example's
            }
            for name, spec in example.outputs.items()
            if isinstance(values.get(name), (int, float, str, bool))
        }
        in_book = used.get(example.id, {})
        examples.append(
            {
                "id": example.id,
                "kind": example.kind,
                "function": example.fn,
                "arguments": example.args,
                "outputs": outputs,
                "used_in": in_book,
                "permalinks": {lang: f"{lang}/numbers.html#ex-{example.id}" for lang in in_book}
                if numbers_page
                else {},
                "lab": _lab(book, parsed, computed, example),
            }
        )
    return {
        "book": dict(book.profile.title.root),
        "edition": _edition(book),
        "languages": list(book.languages),
        "examples": examples,
    }


def _lab(book: Book, parsed: dict, computed: dict, example) -> dict | None:
    """The lab that shows the example (verified by the build), and the link that opens it in its state."""
    links = {lang: lab_link(book, parsed, computed, lang, example) for lang in book.languages}
    if example.lab is None or not any(links.values()):
        return None
    return {
        "id": example.lab_id,
        "state": dict(example.lab.state),
        "shows": dict(example.lab.shows),
        "links": {lang: f"{lang}/{href}" for lang, href in links.items() if href},
    }


def sources_bib(book: Book) -> bytes:
    """Every work of the book's registries as a BibTeX entry (title, year, url, howpublished)."""
    entries = []
    for work in sorted(book.registry.works.values(), key=lambda w: w.key):
        fields = [("title", "{" + _bib_text(work.title) + "}")]
        if work.year is not None:
            fields.append(("year", str(work.year)))
        if work.url:
            fields.append(("url", "{" + work.url + "}"))
        if work.howpublished:
            fields.append(("howpublished", "{" + _bib_text(work.howpublished) + "}"))
        body = ",\n".join(f"  {name} = {value}" for name, value in fields)
        entries.append(f"@{work.entry_type}{{{work.key},\n{body}\n}}\n")
    return "\n".join(entries).encode("utf-8")


def _bib_text(text: str) -> str:
    """Text inside a braced BibTeX field: braces balanced away, so an entry always parses."""
    return text.replace("\\", "\\textbackslash ").replace("{", "\\{").replace("}", "\\}")


def open_data_files(book: Book, parsed: dict, computed: dict, numbers_page: bool) -> dict[str, bytes]:
    return {
        "claims.json": _dumps(claims_data(book, parsed, numbers_page)),
        "examples.json": _dumps(examples_data(book, parsed, computed, numbers_page)),
        "claims.schema.json": _dumps(CLAIMS_SCHEMA),
        "examples.schema.json": _dumps(EXAMPLES_SCHEMA),
        "sources.bib": sources_bib(book),
    }
