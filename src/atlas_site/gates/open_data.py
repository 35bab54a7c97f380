"""The open data at the site root (render/open_data.py) is what its schema says, every claim and
example of the ledger is in it, and every permalink it gives is an element of a built page."""

from __future__ import annotations

import json
import re

from ..diagnostics import Diagnostic, SourceLocation
from ..render.open_data import FILES, SCHEMAS
from .context import GateContext
from .report import GateReport


def check_open_data(ctx: GateContext) -> GateReport:
    try:
        from jsonschema import Draft202012Validator, FormatChecker
    except ImportError:
        return GateReport(
            "open data", "claims.json, examples.json", [], skipped="jsonschema is not installed"
        )
    problems: list[Diagnostic] = []
    counts = {}
    for name in FILES:
        where = SourceLocation(f"_site/{name}")
        if name not in ctx.output:
            problems.append(Diagnostic(where, "gate.data.missing", f"{name} was not written"))
            continue
        data = json.loads(ctx.output[name])
        validator = Draft202012Validator(SCHEMAS[name], format_checker=FormatChecker())
        for error in sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path)):
            at = "/".join(str(part) for part in error.absolute_path) or "(top)"
            problems.append(Diagnostic(where, "gate.data.schema", f"{name} at {at}: {error.message[:200]}"))
        key = name.removesuffix(".json")
        records = {item.get("id") for item in data.get(key, []) if isinstance(item, dict)}
        ledger = set(ctx.book.claims if key == "claims" else ctx.book.examples)
        for missing in sorted(ledger - records):
            problems.append(
                Diagnostic(
                    ctx.book.locate(f"{key}:{missing}"),
                    "gate.data.missing",
                    f"{missing} is in the ledger but not in {name}",
                )
            )
        counts[name] = len(records)
        numbers_page = ctx.book.profile.generates("numbers")
        for item in data.get(key, []):
            if not isinstance(item, dict):
                continue
            permalinks = item.get("permalinks") or {}
            for link in permalinks.values():
                problems += _dangling(ctx, name, str(item.get("id")), link)
            unlinked = [
                lang
                for lang, places in (item.get("used_in") or {}).items()
                if places and lang not in permalinks
            ]
            if numbers_page and unlinked:
                problems.append(
                    Diagnostic(
                        SourceLocation(f"_site/{name}"),
                        "gate.data.permalink",
                        f"{item.get('id')}: used in the {', '.join(unlinked)} prose but without a permalink there",
                    )
                )
            for link in ((item.get("lab") or {}).get("links") or {}).values():
                problems += _dangling(ctx, name, str(item.get("id")), link)
    figures = (
        ", ".join(f"{name}: {count} records" for name, count in counts.items())
        + "; valid against their schemas"
    )
    return GateReport("open data", figures + f"; {len(problems)} problems", problems)


def _dangling(ctx: GateContext, name: str, record: str, link: str) -> list[Diagnostic]:
    path, _, fragment = link.partition("#")
    fragment = fragment.partition("?")[0]  # a lab opened in a state: the panel is the element
    where = SourceLocation(f"_site/{name}")
    if path not in ctx.output:
        return [
            Diagnostic(
                where, "gate.data.permalink", f"{record}: its permalink {link} names no page of the site"
            )
        ]
    if fragment and not re.search(rf'\sid="{re.escape(fragment)}"', ctx.output.text(path)):
        return [
            Diagnostic(
                where, "gate.data.permalink", f"{record}: its permalink {link} names no element of {path}"
            )
        ]
    return []
