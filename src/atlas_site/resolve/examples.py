"""Compute every teaching number with the labs' own JavaScript, so prose, figures and labs agree:
the examples of the ledgers and the figures' series (figures/series.py) run in the same node
process (resolve/lab_runtime.py), and every failure is located at the example or figure that
caused it."""

from __future__ import annotations

import json
from pathlib import Path

from ..cache import BuildCache, NoCache, Versioned
from ..diagnostics import Diagnostic
from ..figures import series as figure_series
from ..load.project import outside_inputs
from ..model import Book
from . import example_labs
from .lab_runtime import Failure, LabRuntime, not_plain
from .number_format import format_number

HINT_FUNCTION = "fix the function; ATLAS_LAB_TIMEOUT=SECONDS allows a slower machine more time"
HINT_FILE = "fix the file; ATLAS_LAB_TIMEOUT=SECONDS allows a slower machine more time"


def compute_examples(
    book: Book, root: Path, cache: BuildCache | Versioned | None = None
) -> tuple[dict[str, dict], list[Diagnostic]]:
    """Return {example id: {output name: raw value}} (and the figures' series under "figure:<id>")
    and the problems found. Node runs again only when the requests or the lab code change (the
    lab code versions the resolve stage's cache: pipeline.py)."""
    cache = cache or NoCache()
    problems: list[Diagnostic] = []
    examples = []
    for example in book.examples.values():
        bad = not_plain(example.args, "args")
        if bad:
            problems.append(
                Diagnostic(
                    book.locate(f"examples:{example.id}"),
                    "example.args",
                    f"{example.id}: {bad}; lab functions take numbers, text, booleans, lists and mappings",
                    "quote a date or other value you mean as text",
                )
            )
        else:
            examples.append(example)
    jobs, planned = figure_series.plan(
        {f.id: f.model_dump() for f in book.figures.values()},
        {e.id: e.args for e in examples},
        {lab_id: getattr(lab, "defaults", None) or {} for lab_id, lab in book.labs.items()},
    )
    problems += [
        Diagnostic(book.locate(f"figures:{fig}"), "figure.series", message) for fig, message in planned
    ]
    if not examples and not jobs:
        return {}, problems
    if outside_inputs(root, ("labs_js",)):
        return {}, problems  # a lab file links out of the project (reported by load): never run it
    origin = book.locate(f"examples:{examples[0].id}" if examples else f"figures:{jobs[0].figure}")
    runtime = LabRuntime(root, cache)
    missing = runtime.missing()
    if missing:
        return {}, problems + [
            Diagnostic(origin, "example.no-runtime", f"cannot compute teaching numbers: {missing} is missing")
        ]

    def located(failure: Failure, owners: list) -> Diagnostic:
        """The failure at its owner's place: the example, or the figure whose series sent it."""
        owner = owners[failure.index] if failure.index is not None and failure.index < len(owners) else None
        # "labs_js/x.js: fn did not return …" for a function, "labs_js/x.js did not finish loading …" for a file
        what = (
            f"{failure.file}: {failure.fn} {failure.reason}"
            if failure.fn
            else f"{failure.file} {failure.reason}"
        )
        if failure.kind != "timeout":
            what = f"{failure.file} failed: {failure.reason}"
        if isinstance(owner, figure_series.Job):
            return Diagnostic(
                book.locate(f"figures:{owner.figure}"),
                "figure.series-failed",
                f"series '{owner.name}' ({owner.fn}): {what}",
            )
        where = book.locate(f"examples:{owner.id}") if owner is not None else origin
        if failure.kind == "timeout":
            return Diagnostic(where, "example.timeout", what, HINT_FUNCTION if failure.fn else HINT_FILE)
        return Diagnostic(where, "example.failed", what)

    requests = [
        {"fn": e.fn, "args": e.args, "strict": True} for e in examples
    ]  # strict: every argument is read
    # the examples a lab shows: the lab's own function in the linked state (resolve/example_labs.py)
    shown: list = []
    for example in examples:
        if example.lab is not None:
            lab_problems = example_labs.check_example_lab(book, example)
            problems += lab_problems
            if not lab_problems:
                shown.append(example)
    requests += [example_labs.lab_request(book, e) for e in shown]
    first_wave = [j for j in jobs if not j.waits_for()]  # series that need no other series' output
    owners = list(examples) + shown + [j for j in first_wave for _ in j.requests()]
    results = runtime.run(requests + [r for j in first_wave for r in j.requests()])
    if isinstance(results, Failure):
        return {}, problems + [located(results, owners)]
    computed = {}
    for example, result in zip(examples, results, strict=False):
        checked = _check_result(book, example, result, problems)
        if checked:
            computed[example.id] = result
    for example, lab_result in zip(shown, results[len(examples) : len(requests)], strict=True):
        if example.id in computed:
            mismatches = example_labs.shown_problems(book, example, computed[example.id], lab_result)
            problems += mismatches
            if not mismatches:
                computed[example_labs.RESULT_KEY.format(example.id)] = lab_result
    prefetched = [results[len(requests) :]] if first_wave else []

    def compute_wave(wave_requests, wave_owners):
        if prefetched:  # the first wave already ran with the examples
            return prefetched.pop()
        wave = runtime.run(wave_requests)
        if isinstance(wave, Failure):
            problems.append(located(wave, wave_owners))
            return None
        return wave

    series, series_problems = figure_series.run(jobs, compute_wave)
    problems += [
        Diagnostic(book.locate(f"figures:{fig}"), "figure.series", message)
        for fig, message in series_problems
    ]
    for figure_id, named in series.items():
        computed[figure_series.COMPUTED_KEY.format(figure_id)] = named
    return computed, problems


def _check_result(book: Book, example, result, problems: list) -> bool:
    """Does the result hold every declared output as a number, text or verdict, equal to the seed's
    printed number where it gives one? Problems go to `problems`; False when unusable."""
    where = book.locate(f"examples:{example.id}")
    if not isinstance(result, dict):
        problems.append(
            Diagnostic(where, "example.failed", f"{example.fn} returned {result!r}, expected an object")
        )
        return False
    bad = set()
    for name in example.outputs:
        value = result.get(name)
        if name not in result:
            problems.append(
                Diagnostic(
                    where,
                    "example.unknown-output",
                    f"{example.fn} returns no output '{name}' (it returns {', '.join(sorted(result))})",
                )
            )
        elif isinstance(value, dict) and "$nonfinite" in value:
            bad.add(name)
            problems.append(
                Diagnostic(
                    where,
                    "example.not-finite",
                    f"{example.id}.{name}: {example.fn} returns {value['$nonfinite']}, not a number",
                    "check the inputs and the formula (a division by zero?)",
                )
            )
        elif value is None or isinstance(value, (dict, list)):
            bad.add(name)
            problems.append(
                Diagnostic(
                    where,
                    "example.failed",
                    f"{example.id}.{name}: {example.fn} returns {json.dumps(value)}, not a number, text or boolean",
                )
            )
    for name, expected in example.expect.items():
        if name not in result or name in bad:
            continue
        shown = format_number(result[name], example.outputs[name].digits)
        wanted = (
            format_number(expected, example.outputs[name].digits)
            if isinstance(expected, (int, float))
            else str(expected)
        )
        if shown != wanted:
            problems.append(
                Diagnostic(
                    where,
                    "example.mismatch",
                    f"{example.id}.{name}: the formula gives {shown}, the seed prints {wanted}",
                )
            )
    return True
