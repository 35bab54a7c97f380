"""`atlas-site check`: validate, render in memory and run the gates; writes nothing."""

from __future__ import annotations

import concurrent.futures
import datetime as dt
import sys
import time
from collections.abc import Callable
from pathlib import Path

from ..diagnostics import AtlasError, Diagnostic, SourceLocation
from .console import EXIT_PROBLEMS, print_problems, summary


def run(args) -> int:
    from ..build import assemble

    if args.explain:
        from ..explain import explain

        text, known = explain(args.explain)
        print(text, file=sys.stdout if known else sys.stderr)
        return 0 if known else EXIT_PROBLEMS
    root = Path(args.root).resolve()
    start = time.perf_counter()
    browser_gates: Callable[..., list] | None = None
    if args.browser:  # before the work: a missing extra is known at once
        try:
            import playwright.sync_api  # noqa: F401  (the browser gates import it only when they start)

            from ..gates.browser_walk import run_browser_gates as browser_gates
        except ImportError as error:
            print_problems(
                [
                    Diagnostic(
                        SourceLocation("atlas-site"),
                        "browser.unavailable",
                        f"check --browser needs Playwright ({error})",
                        "pip install 'atlas-site[browser]' (in this repository: bash scripts/test.sh once)",
                    )
                ]
            )
            return EXIT_PROBLEMS
    # a release is judged on a day: --as-of, else the edition's date, else today; a plain check
    # judges no dates
    as_of = args.as_of or (_release_day(root) if args.release else None)
    try:
        result = assemble(root, release=args.release, as_of=as_of)
    except AtlasError as error:
        print_problems(error.diagnostics, error.suppressed)
        print(
            f"check failed: {len(error.diagnostics)} problem(s) before the gates could run", file=sys.stderr
        )
        return EXIT_PROBLEMS
    gate_problems = {id(p) for r in result.gate_reports for p in r.problems}
    print_problems([p for p in result.problems if id(p) not in gate_problems], result.suppressed)
    if result.output is None:
        print(f"check failed: {len(result.errors)} problem(s) before the gates could run", file=sys.stderr)
        return EXIT_PROBLEMS
    reports: list = []  # the gates that run after the static ones, which the list starts with
    if args.reproducible:
        reports.append(_reproducible(root, result, args.release, as_of))
    # A release publishes the editions too: made and checked before anyone downloads them. They
    # run beside the browser walk (epubcheck in its own Java processes, the PDFs printed and read
    # in a thread with a Chromium of its own): the walk leaves a core idle while it waits on pages.
    editions, assembled = None, []  # assembled once for the EPUB and the PDF
    if args.release:
        from ..gates.editions import assembled_editions, start_edition_gates

        assembled = assembled_editions(result)
        editions = start_edition_gates(result, root, assembled)
    browser_reports: list = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as printer:
        printing = None
        if browser_gates is not None and args.release:  # the print edition needs Chromium
            from ..gates.editions import print_gates

            printing = printer.submit(print_gates, result, root, assembled)
        try:
            if browser_gates is not None:
                assert result.book is not None  # the gates ran, so the book loaded
                browser_reports = browser_gates(
                    result.output,
                    [r for r in result.rules if r.browser],
                    result.book.languages,
                    labs={lab_id: lab.model_dump() for lab_id, lab in result.book.labs.items()},
                    lab_runtime=lab_runtime_for(root),
                    root=root,
                )
        finally:  # epubcheck's processes are waited for whatever the walk did
            reports += editions.reports() if editions is not None else []
        reports += browser_reports
        printed: dict[str, bytes] = {}
        if printing is not None:
            printed_reports, printed = printing.result()
            reports += printed_reports
    if editions is not None:
        _link_editions(result, {**editions.made, **printed})
    reports = list(result.gate_reports) + reports
    if args.warn_due_by is not None and result.book is not None:
        from ..gates.freshness import due_warnings

        reports.append(due_warnings(result.book, args.warn_due_by))
    print("gates:")
    for report in reports:
        print("  " + report.line())
        for problem in report.problems:
            print(f"      {problem}")
    not_run = [r for r in reports if r.status == "skip"]
    browser_rules = [r.title for r in result.rules if r.browser]
    if not args.browser and browser_rules:
        rules = "; ".join(browser_rules)
        print(f"not run: {len(browser_rules)} browser rule(s) of book.yaml ({rules}): add --browser")
    if not args.reproducible:
        print("not run: the reproducibility double build: add --reproducible")
    for report in not_run:
        print(f"not run: {report.name}: {report.skipped}")
    failed = [r for r in reports if r.status == "FAIL"] or result.errors
    print(
        ("check failed" if failed else "check passed")
        + f" in {time.perf_counter() - start:.2f} s: "
        + summary(result, time.perf_counter() - start)
    )
    return EXIT_PROBLEMS if failed else 0


def _link_editions(result, made: dict[str, bytes]) -> None:
    """A release publishes its pages with the editions it made linked (each language's footer, the
    PDF's address in the head; without --browser no PDF is printed, and the EPUBs alone are): the
    pages and the dashboard are rendered and statically gated again so, and a page's weight is the
    published page's. A release check once passed zh/tf-map.html at 60,767 B of its 61,440 while
    the page published with its editions weighed 61,441."""
    from ..export.downloads import made_downloads
    from ..pipeline import run

    result.linked = made_downloads(result.book, made)
    run(result, ("render", "gates", "dashboard"))


def _release_day(root: Path) -> dt.date:
    """The day a release is judged on without --as-of: the edition's (book.yaml `edition.date`),
    else today. A book.yaml that does not parse is reported by the check itself."""
    from ..load.yaml_source import parse_yaml

    try:
        data, _ = parse_yaml(
            (root / "book.yaml").read_text(encoding="utf-8"), SourceLocation("book.yaml", 1, 1)
        )
    except (OSError, UnicodeDecodeError):
        data = None
    edition = data.data.get("edition") if data is not None and isinstance(data.data, dict) else None
    day = edition.get("date") if isinstance(edition, dict) else None
    return day if isinstance(day, dt.date) and not isinstance(day, dt.datetime) else dt.date.today()


def _reproducible(root: Path, first, release: bool, as_of):
    from ..build import assemble
    from ..gates.report import GateReport

    second = assemble(root, release=release, as_of=as_of)
    same = second.output is not None and first.output.items() == second.output.items()
    figures = (
        f"{len(first.output.paths())} files byte-identical across two builds" if same else "two builds differ"
    )
    problems = (
        []
        if same
        else [
            Diagnostic(SourceLocation("_site"), "gate.reproducible", "two builds of the same inputs differ")
        ]
    )
    return GateReport("reproducible", figures, problems)


def lab_runtime_for(root: Path):
    """The labs' functions in Node for the labs' gate (the build's own runner, no cache: the states
    a page shows are new each walk), or None when Node or the labs' code is missing (the gate says
    it did not compare)."""
    from ..cache import NoCache
    from ..resolve.lab_runtime import LabRuntime

    runtime = LabRuntime(root, NoCache())
    return None if runtime.missing() else runtime
