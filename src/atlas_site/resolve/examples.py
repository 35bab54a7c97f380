"""Compute every teaching number with the labs' own JavaScript, so prose, figures and labs agree."""
from __future__ import annotations

import json
import shutil
import subprocess
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from ..cache import BuildCache, NoCache, digest
from ..diagnostics import Diagnostic, SourceLocation
from ..model import Book


def round_half_away(value: float, digits: int) -> Decimal:
    quantum = Decimal(1).scaleb(-digits)
    return Decimal(repr(value)).quantize(quantum, rounding=ROUND_HALF_UP)


def format_number(value, digits: int) -> str:
    """Half away from zero; thousands separated by commas as the seeds print them."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    rounded = round_half_away(float(value), digits)
    return f"{rounded:,.{digits}f}"


def compute_examples(book: Book, root: Path, cache: BuildCache | None = None, labs_version: str = "") -> tuple[dict[str, dict], list[Diagnostic]]:
    """Return {example id: {output name: raw value}} and the problems found. Node runs again only
    when the requests or the lab code change."""
    cache = cache or NoCache()
    examples = list(book.examples.values())
    if not examples:
        return {}, []
    script = root / "labs_js" / "compute.js"
    node = shutil.which("node")
    origin = book.locate(f"examples:{examples[0].id}")
    if node is None or not script.exists():
        missing = "node (Node.js)" if node is None else "labs_js/compute.js"
        return {}, [Diagnostic(origin, "example.no-runtime", f"cannot compute teaching numbers: {missing} is missing")]
    requests = [{"fn": e.fn, "args": e.args} for e in examples]
    def run_node():
        run = subprocess.run([node, str(script)], input=json.dumps(requests), capture_output=True, text=True, cwd=root)
        return run.returncode, run.stdout, run.stderr

    returncode, stdout, stderr = cache.get("examples", digest(requests, labs_version), run_node)
    if returncode != 0:
        reason = (stderr.strip().splitlines() or ["no message"])[-1]
        return {}, [Diagnostic(origin, "example.failed", f"labs_js/compute.js failed: {reason}")]
    results = json.loads(stdout)
    computed, problems = {}, []
    for example, result in zip(examples, results):
        where = book.locate(f"examples:{example.id}")
        if not isinstance(result, dict):
            problems.append(Diagnostic(where, "example.failed", f"{example.fn} returned {result!r}, expected an object"))
            continue
        for name, fmt in example.outputs.items():
            if name not in result:
                problems.append(Diagnostic(where, "example.unknown-output", f"{example.fn} returns no output '{name}' (it returns {', '.join(sorted(result))})"))
        for name, expected in example.expect.items():
            if name not in result:
                continue
            shown = format_number(result[name], example.outputs[name].digits)
            wanted = format_number(expected, example.outputs[name].digits) if isinstance(expected, (int, float)) else str(expected)
            if shown != wanted:
                problems.append(Diagnostic(where, "example.mismatch", f"{example.id}.{name}: the formula gives {shown}, the seed prints {wanted}"))
        computed[example.id] = result
    return computed, problems
