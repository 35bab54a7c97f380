"""argv -> build() / check(). Problems print as `file:line:col: error[code]: message`; exit 2."""
from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
from pathlib import Path

from .uptodate import inputs_digest, is_up_to_date, record

EXIT_PROBLEMS = 2
EXIT_INTERNAL = 70  # EX_SOFTWARE
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl-C
EXPORT_FORMATS = {"pdf": ("pdf",), "epub": ("epub",), "all": ("pdf", "epub")}


def _progress(stage: str) -> None:
    print(f"  … {stage}", file=sys.stderr, flush=True)


def _summary(result, elapsed: float) -> str:
    book = result.book
    stages = ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in result.timings.items())
    if book is None:
        return f"in {elapsed:.2f} s ({stages})"
    pages = sum(1 for p in result.output.paths() if p.endswith(".html")) if result.output else 0
    return (f"{pages} pages, {len(book.registry.works)} sources ({len(book.registry.nodes)} nodes, "
            f"{len(book.registry.references)} references), {len(book.claims)} claims, {len(book.examples)} examples, "
            f"{len(book.figures)} figures, {len(book.labs)} labs in {elapsed:.2f} s ({stages})")


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date YYYY-MM-DD, got '{text}'") from None


def _print_problems(problems, suppressed: int = 0) -> None:
    from .diagnostics import causes_first

    for problem in causes_first(problems):
        print(problem, file=sys.stderr)
    if suppressed:
        print(f"({suppressed} follow-on problem(s) of the causes above not shown)", file=sys.stderr)


def _print_warnings(cache) -> None:
    for line in getattr(cache, "warnings", []):
        print(line, file=sys.stderr)


def cmd_build(args) -> int:
    from .write import project_lock, check_destination

    root = Path(args.root).resolve()
    out = Path(args.out).resolve() if args.out else root / "_site"
    start = time.perf_counter()
    options = {"search": not args.no_search, "as_of": str(args.as_of) if args.as_of else None}
    export = EXPORT_FORMATS[args.export] if getattr(args, "export", None) else ()
    from .diagnostics import AtlasError

    try:
        check_destination(out, root)  # before any work: a folder we may not replace stops here
    except AtlasError as error:
        _print_problems(error.diagnostics)
        return EXIT_PROBLEMS
    with project_lock(root, announce=lambda message: print(message, file=sys.stderr, flush=True)):
        inputs = None if args.no_cache else inputs_digest(root, options)
        if not export and not args.no_cache and is_up_to_date(root, out, options, inputs):
            print(f"{out} is up to date (no input changed) in {time.perf_counter() - start:.2f} s")
            return 0
        from .build import ASKED_AGAIN, build
        from .cache import BuildCache, NoCache

        # one build: in memory only what it reads again; the rest is read from the folder once
        cache = NoCache(ASKED_AGAIN) if args.no_cache else BuildCache(root / ".atlas-cache" / "artefacts", remember=ASKED_AGAIN)
        try:
            result = build(root, out, progress=_progress if args.progress else None, search=not args.no_search, cache=cache,
                           as_of=args.as_of, export=export)
        except AtlasError as error:
            _print_problems(error.diagnostics, error.suppressed)
            _print_warnings(cache)
            print(f"build failed: {len(error.diagnostics)} problem(s); {out} left as it was", file=sys.stderr)
            return EXIT_PROBLEMS
        if not args.no_cache:
            cache.forget_unused()
            if not cache.warnings:
                try:
                    record(root, out, options, inputs)
                except OSError as error:
                    cache.warn(f"cannot record the build ({error.strerror or error})")
    _print_warnings(cache)
    _print_problems([p for p in result.problems if p.severity == "warning"])  # warnings never fail a build
    for made in result.exported:
        print(f"exported {out / made.path}: {made.size}, {made.detail}, {made.seconds:.1f} s")
    print(f"built {out}: " + _summary(result, time.perf_counter() - start))
    print(f"open {out / 'index.html'} in a browser, or serve it: python -m http.server -d {out}")
    return 0


def cmd_export(args) -> int:
    args.export = args.format
    return cmd_build(args)


def cmd_check(args) -> int:
    from .build import assemble
    from .diagnostics import AtlasError

    if args.explain:
        from .explain import explain

        text, known = explain(args.explain)
        print(text, file=sys.stdout if known else sys.stderr)
        return 0 if known else EXIT_PROBLEMS
    root = Path(args.root).resolve()
    start = time.perf_counter()
    browser_gates = None
    if args.browser:  # before the work: a missing extra is known at once
        try:
            import playwright.sync_api  # noqa: F401  (the browser gates import it only when they start)

            from .gates.browser import run_browser_gates as browser_gates
        except ImportError as error:
            from .diagnostics import Diagnostic, SourceLocation

            _print_problems([Diagnostic(SourceLocation("atlas-site"), "browser.unavailable", f"check --browser needs Playwright ({error})",
                                        "install the test extras: .venv/bin/pip install -e '.[test]', or run bash scripts/test.sh once")])
            return EXIT_PROBLEMS
    # a release is judged on a day: --as-of pins it (CI), else it is today; a plain check judges no dates
    as_of = args.as_of or (dt.date.today() if args.release else None)
    try:
        result = assemble(root, release=args.release, as_of=as_of)
    except AtlasError as error:
        _print_problems(error.diagnostics, error.suppressed)
        print(f"check failed: {len(error.diagnostics)} problem(s) before the gates could run", file=sys.stderr)
        return EXIT_PROBLEMS
    gate_problems = {id(p) for r in result.gate_reports for p in r.problems}
    _print_problems([p for p in result.problems if id(p) not in gate_problems], result.suppressed)
    if result.output is None:
        print(f"check failed: {len(result.errors)} problem(s) before the gates could run", file=sys.stderr)
        return EXIT_PROBLEMS
    reports = list(result.gate_reports)
    if args.reproducible:
        reports.append(_reproducible(root, result, args.release, as_of))
    if browser_gates is not None:
        browser_rules = [r for r in result.rules if r.browser]
        reports += browser_gates(result.output, browser_rules, result.book.languages)
    print("gates:")
    for report in reports:
        print("  " + report.line())
        for problem in report.problems:
            print(f"      {problem}")
    not_run = [r for r in reports if r.status == "skip"]
    browser_rules = [r.title for r in result.rules if r.browser]
    if not args.browser and browser_rules:
        print(f"not run: {len(browser_rules)} browser rule(s) of book.yaml ({'; '.join(browser_rules)}): add --browser")
    if not args.reproducible:
        print("not run: the reproducibility double build: add --reproducible")
    for report in not_run:
        print(f"not run: {report.name}: {report.skipped}")
    failed = [r for r in reports if r.status == "FAIL"] or result.errors
    print(("check failed" if failed else "check passed") + f" in {time.perf_counter() - start:.2f} s: " + _summary(result, time.perf_counter() - start))
    return EXIT_PROBLEMS if failed else 0


def _reproducible(root: Path, first, release: bool, as_of):
    from .build import assemble
    from .gates.report import GateReport

    second = assemble(root, release=release, as_of=as_of)
    same = second.output is not None and first.output.items() == second.output.items()
    figures = f"{len(first.output.paths())} files byte-identical across two builds" if same else "two builds differ"
    from .diagnostics import Diagnostic, SourceLocation

    problems = [] if same else [Diagnostic(SourceLocation("_site"), "gate.reproducible", "two builds of the same inputs differ")]
    return GateReport("reproducible", figures, problems)


def cmd_serve(args) -> int:
    from .diagnostics import AtlasError
    from .serve import serve

    root = Path(args.root).resolve()
    try:
        serve(root, root / "_site", port=args.port, search=args.search)
    except AtlasError as error:
        _print_problems(error.diagnostics)
        return EXIT_PROBLEMS
    return 0


def cmd_sync(args) -> int:
    from .translations.sync import run_sync

    from .write import project_lock

    root = Path(args.root).resolve()
    # two syncs at once would each read the lock, add their declaration and write: one would be lost
    with project_lock(root, "sync", announce=lambda message: print(message, file=sys.stderr, flush=True)):
        code, problems = run_sync(root, args.sections, everything=args.all, minor=args.minor, status=args.status, day=args.date)
    _print_problems(problems)
    return EXIT_PROBLEMS if code else 0


def cmd_new(args) -> int:
    from .scaffold import new_chapter

    root = Path(args.root).resolve()
    titles = {}
    for item in args.title or []:
        lang, sep, text = item.partition("=")
        titles[lang.strip()] = text.strip() if sep else ""
    written, problems = new_chapter(root, args.id, titles)
    if problems:
        _print_problems(problems)
        return EXIT_PROBLEMS
    print("created " + ", ".join(written) + f": chapter '{args.id}' is a draft; write its sections, then add its rules to book.yaml")
    return 0


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="atlas-site", description="Build, check and serve a bilingual textbook described by book.yaml.")
    parser.add_argument("--root", default=".", help="project folder (default: current folder)")
    commands = parser.add_subparsers(dest="command", required=True)
    build_options = argparse.ArgumentParser(add_help=False)
    build_options.add_argument("--out", help="output folder (default: <root>/_site)")
    build_options.add_argument("--progress", action="store_true", help="print each stage as it starts")
    build_options.add_argument("--no-search", action="store_true", help="skip the Pagefind search index")
    build_options.add_argument("--no-cache", action="store_true", help="a cold build: ignore and do not update .atlas-cache/")
    build_options.add_argument("--as-of", type=_date, metavar="DATE", help="judge evidence freshness on this day (the dashboard marks what is past due)")
    build_cmd = commands.add_parser("build", parents=[build_options], help="build the site into _site/ (atomically)")
    build_cmd.add_argument("--export", choices=sorted(EXPORT_FORMATS), help="also make the print (pdf) and e-book (epub) editions: export")
    build_cmd.set_defaults(run=cmd_build)
    export_cmd = commands.add_parser("export", parents=[build_options],
                                     help="make the PDF (Chromium) and EPUB editions of every language, then build the site that links them")
    export_cmd.add_argument("format", choices=sorted(EXPORT_FORMATS), help="pdf, epub or all")
    export_cmd.set_defaults(run=cmd_export)
    check_cmd = commands.add_parser("check", help="validate, render in memory and run the gates; writes nothing")
    check_cmd.add_argument("--browser", action="store_true", help="also run the browser gates in Chromium")
    check_cmd.add_argument("--release", action="store_true", help="fail while a page is a draft, a translation is behind or evidence is past due")
    check_cmd.add_argument("--explain", metavar="CODE", help="explain a diagnostic code and how to fix it")
    check_cmd.add_argument("--reproducible", action="store_true", help="also build twice and compare every byte")
    check_cmd.add_argument("--as-of", type=_date, metavar="DATE",
                           help="judge evidence freshness and translation grace on this day (--release without it: today)")
    check_cmd.set_defaults(run=cmd_check)
    new_cmd = commands.add_parser("new", help="scaffold a new chapter (a draft in every language, and its book.yaml entry)")
    new_cmd.add_argument("kind", choices=["chapter"], help="what to create")
    new_cmd.add_argument("id", help="the chapter's page id, e.g. ch15")
    new_cmd.add_argument("--title", action="append", metavar="LANG=TITLE", help="the title in one language; repeat for each")
    new_cmd.set_defaults(run=cmd_new)
    sync_cmd = commands.add_parser("sync", help="declare sections in step across languages (content/translations.lock)")
    sync_cmd.add_argument("sections", nargs="*", metavar="SECTION", help="PAGE#SECTION, PAGE (all its sections) or a part FILE")
    sync_cmd.add_argument("--all", action="store_true", help="declare every section in step (after a full review)")
    sync_cmd.add_argument("--minor", action="store_true", help="the edits since the last sync need no translation")
    sync_cmd.add_argument("--status", action="store_true", help="print what is outdated, missing or not yet in step")
    sync_cmd.add_argument("--date", type=_date, metavar="DATE", help="the day to record changes on (default: today)")
    sync_cmd.set_defaults(run=cmd_sync)
    serve_cmd = commands.add_parser("serve", help="build, serve on localhost, rebuild and reload on every edit")
    serve_cmd.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (0 picks a free one)")
    serve_cmd.add_argument("--search", action="store_true", help="rebuild the search index on every edit too (slower)")
    serve_cmd.set_defaults(run=cmd_serve)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    if os.environ.get("ATLAS_STRICT_CODES"):  # the test suite's processes: every code must be explained
        from .diagnostics import explain_codes_from
        from .explain import codes

        explain_codes_from(codes)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print("atlas-site: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as error:  # a bug of ours: one line, never a traceback (ATLAS_TRACEBACK=1 shows it)
        if os.environ.get("ATLAS_TRACEBACK"):
            raise
        print(f"atlas-site: internal error: {type(error).__name__}: {error} "
              "(hint: this is a bug in atlas-site; ATLAS_TRACEBACK=1 shows where)", file=sys.stderr)
        return EXIT_INTERNAL
