"""Compute every teaching number with the labs' own JavaScript, so prose, figures and labs agree."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from ..cache import BuildCache, NoCache, digest
from ..diagnostics import Diagnostic, SourceLocation
from ..figures import series as figure_series
from ..model import Book

FAILED_ITEM = re.compile(r"item (\d+) ")


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
    """Return {example id: {output name: raw value}} and the problems found; the figures' series
    (figures/series.py) ride in the same node run and land under "figure:<id>". Node runs again
    only when the requests or the lab code change."""
    cache = cache or NoCache()
    examples = list(book.examples.values())
    jobs, planned = figure_series.plan({f.id: f.model_dump() for f in book.figures.values()},
                                       {e.id: e.args for e in examples},
                                       {lab_id: getattr(lab, "defaults", None) or {} for lab_id, lab in book.labs.items()})
    problems = [Diagnostic(book.locate(f"figures:{fig}"), "figure.series", message) for fig, message in planned]
    if not examples and not jobs:
        return {}, problems
    script = root / "labs_js" / "compute.js"
    node = shutil.which("node")
    origin = book.locate(f"examples:{examples[0].id}" if examples else f"figures:{jobs[0].figure}")
    if node is None or not script.exists():
        missing = "node (Node.js)" if node is None else "labs_js/compute.js"
        return {}, problems + [Diagnostic(origin, "example.no-runtime", f"cannot compute teaching numbers: {missing} is missing")]

    def run_node(requests):
        def call():
            run = subprocess.run([node, str(script)], input=json.dumps(requests), capture_output=True, text=True, cwd=root)
            return run.returncode, run.stdout, run.stderr
        return cache.get("examples", digest(requests, labs_version), call)

    def failure(stderr: str, owners: list) -> Diagnostic:
        """The failed item's own location: an example, or the figure whose series sent it."""
        reason = (stderr.strip().splitlines() or ["no message"])[-1]
        item = FAILED_ITEM.search(stderr)
        owner = owners[int(item.group(1))] if item and int(item.group(1)) < len(owners) else None
        if isinstance(owner, figure_series.Job):
            return Diagnostic(book.locate(f"figures:{owner.figure}"), "figure.series-failed",
                              f"series '{owner.name}' ({owner.fn}): labs_js/compute.js failed: {reason}")
        where = book.locate(f"examples:{owner.id}") if owner is not None else origin
        return Diagnostic(where, "example.failed", f"labs_js/compute.js failed: {reason}")

    requests = [{"fn": e.fn, "args": e.args} for e in examples]
    first_wave = [j for j in jobs if not j.waits_for()]  # series that need no other series' output
    owners = list(examples) + [j for j in first_wave for _ in j.requests()]
    returncode, stdout, stderr = run_node(requests + [r for j in first_wave for r in j.requests()])
    if returncode != 0:
        return {}, problems + [failure(stderr, owners)]
    results = json.loads(stdout)
    computed = {}
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
    prefetched = [results[len(examples):]] if first_wave else []

    def compute_wave(wave_requests, wave_owners):
        if prefetched:  # the first wave already ran with the examples
            return prefetched.pop()
        code, out, err = run_node(wave_requests)
        if code != 0:
            problems.append(failure(err, wave_owners))
            return None
        return json.loads(out)

    series, series_problems = figure_series.run(jobs, compute_wave)
    problems += [Diagnostic(book.locate(f"figures:{fig}"), "figure.series", message) for fig, message in series_problems]
    for figure_id, named in series.items():
        computed[figure_series.COMPUTED_KEY.format(figure_id)] = named
    return computed, problems
