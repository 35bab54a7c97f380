"""Compute every teaching number with the labs' own JavaScript, so prose, figures and labs agree.
The computation has a time limit (ATLAS_LAB_TIMEOUT seconds, 30 by default): a lab function that
never returns is named with its file, not waited for."""
from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from ..cache import BuildCache, NoCache, digest
from ..diagnostics import Diagnostic, SourceLocation
from ..load.project import outside_inputs
from ..model import Book

DEFAULT_TIMEOUT = 30.0
TRACE = re.compile(r"^compute\.js: (load (?P<file>\S+)|run (?P<index>\d+) (?P<fn>\S+) (?P<runfile>\S+))$")
FAILED_ITEM = re.compile(r"\bitem (\d+) ")


def round_half_away(value: float, digits: int) -> Decimal:
    quantum = Decimal(1).scaleb(-digits)
    return Decimal(repr(value)).quantize(quantum, rounding=ROUND_HALF_UP)


def format_number(value, digits: int) -> str:
    """Half away from zero; thousands separated by commas as the seeds print them."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    rounded = round_half_away(float(value), digits)
    return f"{rounded:,.{digits}f}"


def lab_timeout() -> float:
    try:
        return max(0.1, float(os.environ.get("ATLAS_LAB_TIMEOUT", DEFAULT_TIMEOUT)))
    except ValueError:
        return DEFAULT_TIMEOUT


class _TimedOut(Exception):
    def __init__(self, stderr: str):
        self.stderr = stderr


def _not_plain(value, path: str) -> str | None:
    """The first part of `value` that JSON (and so the lab code) cannot take, named by its path."""
    if value is None or isinstance(value, (bool, int, str)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{path} is {value}"
    if isinstance(value, list):
        return next((bad for i, item in enumerate(value) if (bad := _not_plain(item, f"{path}[{i}]"))), None)
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path} has the key {key!r}, not a name"
            bad = _not_plain(item, f"{path}.{key}")
            if bad:
                return bad
        return None
    return f"{path} is a {type(value).__name__} ({value})"


def _lines(stderr: str) -> tuple[list[re.Match], list[str]]:
    """compute.js's trace lines, and the rest (its messages)."""
    traced, rest = [], []
    for line in stderr.strip().splitlines():
        match = TRACE.match(line)
        (traced if match else rest).append(match or line)
    return traced, rest


def _hung(stderr: str, examples, book, seconds: float) -> Diagnostic:
    traced, _ = _lines(stderr)
    last = traced[-1] if traced else None
    if last is not None and last.group("index") is not None and int(last.group("index")) < len(examples):
        example = examples[int(last.group("index"))]
        return Diagnostic(book.locate(f"examples:{example.id}"), "example.timeout",
                          f"{last.group('runfile')}: {last.group('fn')} did not return within {seconds:g} s (an endless loop?)",
                          "fix the function; ATLAS_LAB_TIMEOUT=SECONDS allows a slower machine more time")
    where = last.group("file") if last is not None and last.group("file") else "labs_js/compute.js"
    return Diagnostic(book.locate(f"examples:{examples[0].id}"), "example.timeout",
                      f"{where} did not finish loading within {seconds:g} s (an endless loop at its top level?)",
                      "fix the file; ATLAS_LAB_TIMEOUT=SECONDS allows a slower machine more time")


def compute_examples(book: Book, root: Path, cache: BuildCache | None = None, labs_version: str = "") -> tuple[dict[str, dict], list[Diagnostic]]:
    """Return {example id: {output name: raw value}} and the problems found. Node runs again only
    when the requests or the lab code change."""
    cache = cache or NoCache()
    problems: list[Diagnostic] = []
    examples = []
    for example in book.examples.values():
        bad = _not_plain(example.args, "args")
        if bad:
            problems.append(Diagnostic(book.locate(f"examples:{example.id}"), "example.args",
                                       f"{example.id}: {bad}; lab functions take numbers, text, booleans, lists and mappings",
                                       "quote a date or other value you mean as text"))
        else:
            examples.append(example)
    if not examples:
        return {}, problems
    script = root / "labs_js" / "compute.js"
    node = shutil.which("node")
    origin = book.locate(f"examples:{examples[0].id}")
    if node is None or not script.exists():
        missing = "node (Node.js)" if node is None else "labs_js/compute.js"
        return {}, problems + [Diagnostic(origin, "example.no-runtime", f"cannot compute teaching numbers: {missing} is missing")]
    if outside_inputs(root, ("labs_js",)):
        return {}, problems  # a lab file links out of the project (reported by load): never run it
    requests = [{"fn": e.fn, "args": e.args} for e in examples]
    seconds = lab_timeout()

    def run_node():
        try:
            run = subprocess.run([node, str(script), "--trace"], input=json.dumps(requests), capture_output=True, text=True,
                                 cwd=root, timeout=seconds)
        except subprocess.TimeoutExpired as expired:  # not cached: a slow machine may succeed next time
            stderr = expired.stderr.decode("utf-8", "replace") if isinstance(expired.stderr, bytes) else (expired.stderr or "")
            raise _TimedOut(stderr) from None
        return run.returncode, run.stdout, run.stderr

    try:
        returncode, stdout, stderr = cache.get("examples", digest(requests, labs_version), run_node)
    except _TimedOut as timed_out:
        return {}, problems + [_hung(timed_out.stderr, examples, book, seconds)]
    if returncode != 0:
        traced, messages = _lines(stderr)
        reason = (messages or ["no message"])[-1]
        item = FAILED_ITEM.search(reason)
        where, file = origin, "labs_js/compute.js"
        if item and int(item.group(1)) < len(examples):
            where = book.locate(f"examples:{examples[int(item.group(1))].id}")
            runs = [t for t in traced if t.group("index") == item.group(1)]
            file = runs[-1].group("runfile") if runs else file
        return {}, problems + [Diagnostic(where, "example.failed", f"{file} failed: {reason}")]
    try:
        results = json.loads(stdout)
    except ValueError:
        return {}, problems + [Diagnostic(origin, "example.failed", "labs_js/compute.js printed no JSON result")]
    if not isinstance(results, list) or len(results) != len(examples):
        return {}, problems + [Diagnostic(origin, "example.failed", f"labs_js/compute.js returned {type(results).__name__}, not one result per example")]
    computed = {}
    for example, result in zip(examples, results):
        where = book.locate(f"examples:{example.id}")
        if not isinstance(result, dict):
            problems.append(Diagnostic(where, "example.failed", f"{example.fn} returned {result!r}, expected an object"))
            continue
        for name, fmt in example.outputs.items():
            if name not in result:
                problems.append(Diagnostic(where, "example.unknown-output", f"{example.fn} returns no output '{name}' (it returns {', '.join(sorted(result))})"))
            elif isinstance(result[name], dict) and "$nonfinite" in result[name]:
                problems.append(Diagnostic(where, "example.not-finite", f"{example.id}.{name}: {example.fn} returns {result[name]['$nonfinite']}, not a number",
                                           "check the inputs and the formula (a division by zero?)"))
            elif result[name] is None or isinstance(result[name], (dict, list)):
                problems.append(Diagnostic(where, "example.failed", f"{example.id}.{name}: {example.fn} returns {json.dumps(result[name])}, not a number, text or boolean"))
        bad = {name for name in example.outputs if name in result and (result[name] is None or isinstance(result[name], (dict, list)))}
        for name, expected in example.expect.items():
            if name not in result or name in bad:
                continue
            shown = format_number(result[name], example.outputs[name].digits)
            wanted = format_number(expected, example.outputs[name].digits) if isinstance(expected, (int, float)) else str(expected)
            if shown != wanted:
                problems.append(Diagnostic(where, "example.mismatch", f"{example.id}.{name}: the formula gives {shown}, the seed prints {wanted}"))
        computed[example.id] = result
    return computed, problems
