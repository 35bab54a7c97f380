"""The one sequencer: the stages of a build, top to bottom."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from .cache import BuildCache, NoCache, tree_digest
from .diagnostics import AtlasError, Diagnostic, causes_first
from .export.downloads import current_downloads
from .load.project import load_project
from .manifest import Manifest
from .markdown import make_parser
from .model import Book
from .output import Output
from .render.dashboard import render_dashboard
from .render.dependencies import Dependencies
from .render.markdown_rules import install_rules
from .render.site import render_site
from .resolve.examples import compute_examples
from .resolve.pages import PART_TOKENS, parse_pages
from .resolve.references import check_references
from .search_index import index_search
from .translations.lock import read_lock
from .translations.notice import page_notices
from .translations.state import Translations, track
from .validate import validate
from .write import write_site

# the kinds of cache entry a build reads more than once (the index, render and gates each read a
# part's tokens): a one-build cache holds only these in memory
ASKED_AGAIN = frozenset({PART_TOKENS})


@dataclass
class BuildResult:
    book: Book | None = None
    rules: list = field(default_factory=list)
    output: Output | None = None
    manifest: Manifest | None = None
    parsed: dict = field(default_factory=dict)
    computed: dict = field(default_factory=dict)
    translations: Translations | None = None
    notices: dict = field(default_factory=dict)  # (lang, page id) -> {section id: the notice HTML}
    dependencies: Dependencies | None = None  # the records' hashes the render keyed its pages with
    problems: list[Diagnostic] = field(default_factory=list)
    suppressed: int = 0  # follow-on problems left out because their cause is reported
    gate_reports: list = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    code_version: str = ""
    exported: list = field(default_factory=list)  # the editions `build --export` made (export/run.py Made)

    @property
    def errors(self) -> list[Diagnostic]:
        return causes_first(d for d in self.problems if d.severity == "error")


class _Clock:
    def __init__(self, timings: dict, progress):
        self.timings, self.progress = timings, progress

    def stage(self, name: str):
        clock = self

        class _Stage:
            def __enter__(self):
                if clock.progress:
                    clock.progress(name)
                self.start = time.perf_counter()

            def __exit__(self, *exc):
                clock.timings[name] = time.perf_counter() - self.start

        return _Stage()


def assemble(root: Path, progress=None, release: bool = False, cache: BuildCache | None = None, as_of=None,
             rendered=None) -> BuildResult:
    """Load, validate, resolve, render and gate, all in memory. Never writes. With a cache, only
    what an edit affects is parsed, computed and rendered again (content hashes decide).
    `rendered(result)`, when given, sees the result as soon as its pages are rendered, before the
    gates (serve pushes an edit to open pages from there; the gates' verdict follows).
    `as_of` (a date) is the day evidence freshness is judged on; None judges nothing: the build
    never reads the clock, so the same inputs always give the same bytes."""
    from .gates import GateContext, gate_generated_page, run_static_gates

    cache = cache or NoCache(ASKED_AGAIN)
    result = BuildResult()
    clock = _Clock(result.timings, progress)
    with clock.stage("load"):
        code_version = result.code_version = tree_digest(root)
        raw = load_project(root, cache)
    with clock.stage("validate"):
        book, rules, problems, result.suppressed = validate(raw)
        result.book, result.rules, result.problems = book, rules, list(problems)
    if book is None:
        return result  # without a usable profile the book has no languages: the profile's problems come alone
    md = make_parser()
    install_rules(md)
    with clock.stage("resolve"):
        result.parsed = parse_pages(book, md, cache, code_version)
        result.computed, example_problems = compute_examples(book, root, cache, code_version)
        references, suppressed = check_references(book, result.parsed, result.computed)
        result.suppressed += suppressed
        result.translations = track(book, result.parsed, read_lock(root, cache))
        result.problems += example_problems + references + result.translations.problems
    if result.errors:
        return result  # rendering dangling references would only repeat the same problems
    with clock.stage("render"):
        notices = result.notices = {(lang, page): page_notices(book, result.translations, lang, page) for lang, page in result.parsed}
        downloads = current_downloads(root, book, code_version)  # the editions an export made of these very inputs
        result.dependencies = Dependencies(book, result.computed)
        result.output, result.manifest = render_site(book, result.parsed, result.computed, md, root, cache, code_version,
                                                     notices, downloads, result.dependencies)
    if rendered:
        rendered(result)
    with clock.stage("gates"):
        ctx = GateContext(book, result.parsed, result.output, result.manifest, rules, list(result.problems),
                          cache=cache, code_version=code_version, root=root, translations=result.translations, as_of=as_of)
        reports = run_static_gates(ctx, release=release)
        result.gate_reports = reports
        for report in reports:
            result.problems += report.problems
        result.output.add("dashboard.html", render_dashboard(book, result.parsed, reports, rules, root, result.translations, as_of))
        result.problems += gate_generated_page(ctx, "dashboard.html")
    return result


def build(root: Path, destination: Path, progress=None, search: bool = True, cache: BuildCache | None = None,
          as_of=None, export: tuple[str, ...] = (), rendered=None) -> BuildResult:
    """`export` names the editions to make first (pdf, epub): the site is then rendered again so
    that every page links them. `rendered` as for assemble()."""
    result = assemble(root, progress, cache=cache, as_of=as_of, rendered=None if export else rendered)
    if result.errors:
        raise AtlasError(result.errors, result.suppressed)
    if export:
        from .export.run import export_editions

        timings = dict(result.timings)
        with _Clock(timings, progress).stage("export"):
            exported = export_editions(root, result, export, result.code_version)
        with _Clock(timings, progress).stage("relink"):
            result = assemble(root, progress, cache=cache, rendered=rendered)
        result.timings, result.exported = timings, exported
        if result.errors:
            raise AtlasError(result.errors, result.suppressed)
    clock = _Clock(result.timings, progress)
    finish = None
    if search:
        def finish(staging: Path) -> None:
            with clock.stage("search index"):
                result.problems.extend(index_search(staging, (root,)))
    with clock.stage("write"):
        write_site(result.output, destination, finish=finish, root=root)
    # the search index runs inside the write (over the staging folder) and has its own line
    result.timings["write"] -= result.timings.get("search index", 0.0)
    return result
