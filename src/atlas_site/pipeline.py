"""The one sequencer. Every stage of a build is declared here once: what it reads of the project,
what it needs of the stages before it, what it makes, and which project folders are code to it
(their bytes, with the engine's, version every cache entry it makes: no caller composes a key's
version by hand). `build`, `check`, `export`, `sync` and `serve` (its full builds; its hot path
works from what the last run made) all run the stages through `run()`.

A run holds everything of one build: its own Jinja environment, its own cache views, its own
results. Nothing of it outlives the run but the content-addressed cache the caller hands in."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from markdown_it import MarkdownIt

from .cache import BuildCache, NoCache, Versioned, digest, engine_version, tree_digest
from .diagnostics import Diagnostic, causes_first
from .export.downloads import current_downloads
from .gates import GateContext, gate_generated_page, run_static_gates
from .load.project import load_project
from .manifest import Manifest
from .markdown import make_parser
from .model import Book
from .output import Output
from .render.dashboard import render_dashboard
from .render.dependencies import Dependencies
from .render.markdown_rules import install_rules
from .render.site import render_site
from .render.templates import TEMPLATE_ERRORS, MemoEnvironment, make_environment, template_problem
from .resolve.example_labs import LAB_PAGES_KEY, lab_pages, unplaced
from .resolve.examples import compute_examples
from .resolve.pages import PART_TOKENS, parse_pages, part_tokens
from .resolve.references import check_references
from .search_index import index_search
from .theme import default_theme_version
from .translations.lock import read_lock
from .translations.notice import page_notices
from .translations.state import Translations, track
from .validate import validate
from .write import write_site

# the kinds of cache entry a build reads more than once (the index, render and gates each read a
# part's tokens): a one-build cache holds only these in memory
ASKED_AGAIN = frozenset({PART_TOKENS})


@dataclass
class Run:
    """One build's state: what each stage made (the fields its declaration names), its problems
    and its timings. `BuildResult` to the callers."""

    root: Path = Path(".")
    cache: BuildCache = field(default_factory=NoCache)
    release: bool = False
    as_of: Any = None  # the day evidence freshness is judged on; None judges nothing
    formats: tuple[str, ...] = ()  # export: the editions to make (pdf, epub)
    destination: Path | None = None  # write: the site folder
    search: bool = False  # write: also the Pagefind index
    raw: Any = None
    book: Book | None = None
    rules: list = field(default_factory=list)
    md: MarkdownIt | None = None  # the markdown parser of this run (the render rules installed)
    tokens_of: Callable | None = None  # part -> its tokens: parse's, for render and the gates
    parsed: dict = field(default_factory=dict)
    computed: dict = field(default_factory=dict)
    translations: Translations | None = None
    env: MemoEnvironment | None = None  # this run's Jinja environment: made once, never changed after
    output: Output | None = None
    manifest: Manifest | None = None
    notices: dict = field(default_factory=dict)  # (lang, page id) -> {section id: the notice HTML}
    dependencies: Dependencies | None = None  # the records' hashes the render keyed its pages with
    problems: list[Diagnostic] = field(default_factory=list)
    suppressed: int = 0  # follow-on problems left out because their cause is reported
    gate_reports: list = field(default_factory=list)
    judged_from: int | None = None  # how many problems the stages before the gates found
    timings: dict[str, float] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)  # stage name -> the version of its entries
    exported: list = field(default_factory=list)  # the editions an export made (export/run.py Made)
    linked: tuple | None = None  # render: the editions to link, when not the store's (a release check's own)

    @property
    def errors(self) -> list[Diagnostic]:
        return causes_first(d for d in self.problems if d.severity == "error")

    def cache_of(self, stage: str) -> Versioned:
        """The cache as `stage` sees it: its version is part of every key."""
        return Versioned(self.cache, self.versions[stage])


Made = TypeVar("Made")


def _need(value: Made | None) -> Made:
    """What an earlier stage made, as the declarations promise (run() runs the stages in order)."""
    if value is None:
        raise RuntimeError("a stage ran before the stage that makes what it needs")
    return value


@dataclass(frozen=True)
class Stage:
    name: str
    reads: tuple[str, ...]  # what of the project it reads (files, folders)
    needs: tuple[str, ...]  # what earlier stages made (fields of Run)
    makes: tuple[str, ...]  # what it makes (fields of Run)
    step: Callable[[Run], bool]  # does the work; False stops the run (the rest would repeat problems)
    code: tuple[str, ...] = ()  # project folders whose bytes are code to it: they version its entries


def _load(run: Run) -> bool:
    run.versions = versions(run.root)  # hashing the code folders is part of reading the project
    run.raw = load_project(run.root, run.cache_of("load"))
    return True


def _validate(run: Run) -> bool:
    run.book, run.rules, problems, run.suppressed = validate(run.raw)
    run.problems = list(problems)
    return run.book is not None  # without a usable profile the book has no languages: its problems alone


def _parse(run: Run) -> bool:
    md = run.md = make_parser()
    install_rules(md)
    run.tokens_of = part_tokens(md, run.cache_of("parse"))
    run.parsed = parse_pages(_need(run.book), md, tokens_of=run.tokens_of)
    return True


def _resolve(run: Run) -> bool:
    book = _need(run.book)
    run.computed, example_problems = compute_examples(book, run.root, run.cache_of("resolve"))
    run.computed[LAB_PAGES_KEY] = {lang: lab_pages(book, run.parsed, lang) for lang in book.languages}
    references, suppressed = check_references(book, run.parsed, run.computed)
    run.suppressed += suppressed
    translations = run.translations = track(book, run.parsed, read_lock(run.root, run.cache))
    run.problems += example_problems + unplaced(book, run.parsed) + references + translations.problems
    return not run.errors  # rendering dangling references would only repeat the same problems


def _render(run: Run) -> bool:
    book, parsed = _need(run.book), run.parsed
    run.notices = {(lang, page): page_notices(book, run.translations, lang, page) for lang, page in parsed}
    # the editions an export made of these very inputs, linked from every page
    downloads = (
        run.linked if run.linked is not None else current_downloads(run.root, book, run.versions["export"])
    )
    run.env = make_environment(run.root, editions=downloads, book_css=bool(book.stylesheet))
    run.dependencies = Dependencies(book, run.computed)
    run.output, run.manifest = render_site(
        book, parsed, run.computed, _need(run.md), run.root, run.env, run.cache_of("render"), run.notices,
        downloads, run.dependencies, run.tokens_of, run.translations,
    )  # fmt: skip
    return True


def _gates(run: Run) -> bool:
    if run.judged_from is None:
        run.judged_from = len(run.problems)
    del run.problems[run.judged_from :]  # gated again (export's second render): a new verdict
    run.gate_reports = run_static_gates(_gate_context(run), release=run.release)
    for report in run.gate_reports:
        run.problems += report.problems
    return True


def _dashboard(run: Run) -> bool:
    """The gates' verdict, rendered (and gated itself, as every generated page)."""
    page = render_dashboard(
        _need(run.book), run.parsed, run.gate_reports, run.rules, run.env, run.translations, run.as_of
    )
    _need(run.output).add("dashboard.html", page)
    run.problems += gate_generated_page(_gate_context(run), "dashboard.html")
    return True


def _gate_context(run: Run) -> GateContext:
    before = run.problems[: run.judged_from]  # what the stages before the gates found
    return GateContext(
        _need(run.book), run.parsed, _need(run.output), _need(run.manifest), run.rules, before,
        cache=run.cache_of("gates"), root=run.root, translations=run.translations, as_of=run.as_of,
        tokens_of=run.tokens_of,
    )  # fmt: skip


def _export(run: Run) -> bool:
    """The editions, made of the pages just rendered; the render that follows links them."""
    from .export.run import export_editions  # Playwright and the PDF tools load only for an export

    run.exported = export_editions(run.root, run, run.formats, run.versions["export"])
    return True


def _write(run: Run) -> bool:
    def search_index(staging: Path) -> None:  # over the staging folder, before it replaces the site
        start = time.perf_counter()
        run.problems.extend(index_search(staging, (run.root,)))
        run.timings["search index"] = time.perf_counter() - start

    finish = search_index if run.search else None
    run.problems += write_site(_need(run.output), _need(run.destination), finish=finish, root=run.root)
    return True


STRUCTURE = ("book.yaml", "content")
LEDGERS = ("ledger", "sources", "templates/strings")
TRANSLATIONS = ("content/translations.lock", "content/translations.synced")
# the dashboard is a generated page: it is gated too (manifest, tokens, the verdict before it)
GATED = ("output", "manifest", "tokens_of", "judged_from")
STAGES = (
    Stage("load", reads=STRUCTURE + LEDGERS, needs=(), makes=("versions", "raw"), step=_load),
    Stage("validate", reads=(), needs=("raw",), makes=("book", "rules", "problems", "suppressed"),
          step=_validate),
    Stage("parse", reads=(), needs=("book",), makes=("md", "tokens_of", "parsed"), step=_parse),
    Stage("resolve", reads=("labs_js", *TRANSLATIONS), needs=("book", "parsed"),
          makes=("computed", "translations", "problems", "suppressed"), step=_resolve, code=("labs_js",)),
    Stage("render", reads=("templates", "labs_js", ".atlas-cache/downloads"),
          needs=("book", "md", "parsed", "tokens_of", "computed", "translations"),
          makes=("notices", "env", "dependencies", "output", "manifest"), step=_render,
          code=("templates", "labs_js")),
    Stage("gates", reads=("labs_js",),
          needs=("book", "parsed", "tokens_of", "output", "manifest", "rules", "translations"),
          makes=("judged_from", "gate_reports", "problems"), step=_gates),
    Stage("dashboard", reads=(),
          needs=("book", "parsed", "gate_reports", "rules", "env", "translations", *GATED),
          makes=("output", "problems"), step=_dashboard),
    # the editions are made of the rendered pages with the print templates: the render's code (the
    # labs' code computed the numbers they print); their store is keyed by this stage's version
    # and the book (export/downloads.py), and the render finds them there
    Stage("export", reads=("templates", "labs_js"), needs=("book", "output", "env", "formats"),
          makes=("exported",), step=_export, code=("templates", "labs_js")),
    # its problems are warnings (a previous site it could not remove)
    Stage("write", reads=(), needs=("output",), makes=("problems",), step=_write),
)  # fmt: skip
BY_NAME = {stage.name: stage for stage in STAGES}
# what a caller sets on a Run
OPTIONS = ("root", "cache", "release", "as_of", "formats", "destination", "search", "linked")
# every input a build reads: what serve watches and what the no-change check of `build` hashes
INPUTS = tuple(
    dict.fromkeys(path.split("/")[0] for stage in STAGES for path in stage.reads if path[0] != ".")
)
# check, serve, the tests: everything but the export and the write
IN_MEMORY = ("load", "validate", "parse", "resolve", "render", "gates", "dashboard")
UNTIL_PARSE = ("load", "validate", "parse")  # sync: the pages as they read, nothing computed


def versions(root: Path) -> dict[str, str]:
    """Each stage's version: the engine's and the bytes of the folders it declares as code."""
    # each folder once, though several stages declare it (hashed once per stage, the versions were
    # a tenth of a small book's build)
    code = dict.fromkeys(folder for stage in STAGES for folder in stage.code)
    folders = {folder: tree_digest(root, (folder,)) for folder in code}
    # the theme's files the book does not hold itself are code as well (theme.py)
    folders["templates"] = digest(folders["templates"], default_theme_version(root))
    engine = engine_version()
    return {stage.name: digest(engine, *(folders[folder] for folder in stage.code)) for stage in STAGES}


def run(state: Run, stages: tuple[str, ...], progress=None, after: dict | None = None) -> Run:
    """Run the named stages on `state`, in their declared order, timing each (`progress(name)` as
    each starts). `state` is a fresh Run, or one whose earlier stages ran already (export renders
    again on what the first pass loaded). A stage that finds the run cannot go on stops it.
    `after[name](state)` sees the run as soon as that stage is done (serve pushes the rendered
    pages from there, before the gates)."""
    unknown = set(stages) - set(BY_NAME)
    if unknown:
        raise ValueError(f"no stage {sorted(unknown)}; the stages are {list(BY_NAME)}")
    for stage in STAGES:
        if stage.name not in stages:
            continue
        if progress:
            progress(stage.name)
        start = time.perf_counter()
        try:
            go_on = stage.step(state)
        except TEMPLATE_ERRORS as error:  # a theme file missing or broken: one located line, and stop
            state.problems.append(template_problem(error))
            go_on = False
        state.timings[stage.name] = state.timings.get(stage.name, 0.0) + time.perf_counter() - start
        if stage.name == "write":  # the search index runs inside the write and has its own line
            state.timings["write"] -= state.timings.get("search index", 0.0)
        if not go_on:
            break
        if after and stage.name in after:
            after[stage.name](state)
    return state
