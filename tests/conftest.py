"""Shared test helpers: fixture projects are copied beside the real templates and lab code."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tabs import Tabs, errors_in  # noqa: F401 (the browser tests take errors_in from here)

ROOT = Path(__file__).resolve().parents[1]
os.environ["ATLAS_STRICT_CODES"] = (
    "1"  # every Diagnostic made while the suite runs must have an --explain entry
)
# `check --release` runs epubcheck (a Java start, 20-30 s) on each EPUB it makes: only the tests of the
# editions gate, which name the jar themselves (real_epubcheck), wait for it; the others' releases
# say "epubcheck is not installed: not run"
os.environ["ATLAS_EPUBCHECK"] = os.devnull
from atlas_site.diagnostics import explain_codes_from  # noqa: E402 (after the variable it reads)
from atlas_site.explain import codes as explained_codes  # noqa: E402

explain_codes_from(explained_codes)  # diagnostics.py cannot import explain.py (a layer above it)
PROJECTS = ROOT / "tests" / "projects"


# ---------------------------------------------------------------- what a test needs, as markers
# engine: the engine on fixture books, no browser (the fast subset: `pytest -m engine`, runs with
#         Chromium absent); browser: drives Chromium; book: reads the Atlas's own ledger (marked by
#         hand: the Atlas's figures as test data in test_figures.py; the Atlas itself is checked by
#         its gate, never built by the suite). A test is marked from the fixtures it takes; a test
#         that starts Chromium itself (check --browser, the PDF export) says so with
#         @pytest.mark.browser.
BROWSER_FIXTURES = {"chromium", "browser"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & BROWSER_FIXTURES or item.path.parent.name == "browser":
            item.add_marker(pytest.mark.browser)
        if not (item.get_closest_marker("browser") or item.get_closest_marker("book")):
            item.add_marker(pytest.mark.engine)


def make_project(tmp_path: Path, name: str = "mini") -> Path:
    """A throwaway project: the repo's templates and labs, with the fixture's own files (book.yaml,
    content, sources, ledger and any templates it adds, e.g. the strings of another language) on top."""
    target = tmp_path / name
    for folder in ("templates", "labs_js"):
        shutil.copytree(
            ROOT / folder, target / folder, ignore=shutil.ignore_patterns("tests", "node_modules")
        )
    shutil.copytree(PROJECTS / name, target, ignore=shutil.ignore_patterns("expected"), dirs_exist_ok=True)
    return target


def run_cli(
    *args: str, cwd: Path, env: dict | None = None, process: bool = False
) -> subprocess.CompletedProcess:
    """`atlas-site --root cwd ARGS` run from `cwd`: its exit code, stdout and stderr.

    In this process by default (the messages and exit codes are what main() returns and prints;
    no interpreter start-up per call). In a fresh interpreter with `process=True` or when the
    test sets environment variables (a hash seed, PYTHONPATH) that only a new process can take."""
    if process or env or _drives_a_browser(args):
        environment = dict(os.environ, **(env or {}))
        return subprocess.run(
            [sys.executable, "-m", "atlas_site", "--root", str(cwd), *args],
            capture_output=True,
            text=True,
            cwd=cwd,
            env=environment,
        )
    return _run_in_process(["--root", str(cwd), *args], cwd)


def _drives_a_browser(args) -> bool:
    """Commands that start Playwright themselves: they cannot while this process holds the run's
    Chromium (one synchronous Playwright per thread), so they get a process of their own."""
    if "--browser" in args:
        return True
    formats = [args[i + 1] for i, word in enumerate(args[:-1]) if word in ("export", "--export")]
    return any(format_ != "epub" for format_ in formats)  # pdf, all: printed by Chromium


def _run_in_process(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    from atlas_site.cli import main

    out, err = io.StringIO(), io.StringIO()
    previous = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exit_:  # argparse's usage errors
                code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    finally:
        os.chdir(previous)
    return subprocess.CompletedProcess(["atlas-site", *argv], code, out.getvalue(), err.getvalue())


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture text not found in {path}: {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def share(sizes: dict[str, int], index: int, count: int) -> list[str]:
    """Share `index` of `count` of the pages (path -> bytes): dealt largest first, round-robin, so
    that parametrized cases over the shares get like amounts of work and xdist's workers split
    them; together the shares hold every page once."""
    ordered = sorted(sizes, key=lambda path: (-sizes[path], path))
    return sorted(ordered[index::count])


MEMORY_LAB = "lab: {state: {attention: gqa, layers: 32, kv_heads: 8, head_dim: 128, kv_bits: 16}, shows: {kib_per_token: kv_kib_per_token}}"


def with_memory_lab(project, lab_line: str = MEMORY_LAB):
    """The fixture book with the Atlas's lab contracts, Lab A placed on its chapter in both
    languages, the numbers page, and its worked example linked to Lab A."""
    (project / "ledger/labs.md").write_text(
        (ROOT / "ledger/labs.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    for lang in ("zh", "en"):
        page = project / f"content/{lang}/ch14/00-intro.md"
        page.write_text(page.read_text(encoding="utf-8") + "\n{{labs:memory}}\n", encoding="utf-8")
    edit(
        project / "book.yaml",
        "  - generated: bibliography",
        "  - generated: bibliography\n  - generated: numbers",
    )
    edit(project / "ledger/examples.md", '    seed: "000 §3.2"', f'    {lab_line}\n    seed: "000 §3.2"')
    return project


@pytest.fixture
def workshop(tmp_path: Path) -> Path:
    return make_project(tmp_path, "workshop")


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    return make_project(tmp_path, "mini")


# ---------------------------------------------------------------- fixture books, built once per run


def figure_spec(
    figure: str, title: tuple[str, str], desc: tuple[str, str], caption: tuple[str, str], labels
) -> str:
    """ledger/figures.md holding one structural sketch: its (zh, en) title, description and caption,
    and its labels {key: (zh, en)}."""
    pair = lambda zh, en: f'{{zh: "{zh}", en: "{en}"}}'  # noqa: E731
    lines = [
        "---",
        "figures:",
        f"  - id: {figure}",
        "    kind: structural-sketch",
        f"    title: {pair(*title)}",
        f"    desc: {pair(*desc)}",
        f"    caption: {pair(*caption)}",
        "    sources: [n04]",
        "    numbers: {}",
        "    labels:",
    ]
    lines += [f"      {key}: {pair(*names)}" for key, names in labels.items()]
    return "\n".join(lines) + "\n---\nA fixture figure.\n"


def with_figure(root: Path, figure: str, spec: str, template: str) -> Path:
    """`root` with a figure of its own: its spec, its drawing, and a use at the end of the chapter's
    opening page in both languages."""
    (root / "ledger" / "figures.md").write_text(spec, encoding="utf-8")
    (root / "templates" / "figures" / f"{figure}.svg.j2").write_text(template, encoding="utf-8")
    for lang in ("zh", "en"):
        page = root / "content" / lang / "ch14" / "00-intro.md"
        page.write_text(page.read_text(encoding="utf-8") + f"\n{{{{figure:{figure}}}}}\n", encoding="utf-8")
    return root


def built_cleanly(project: Path, folder: Path):
    """(BuildResult, folder): `project` built into `folder` (search index included), without a
    single problem."""
    from atlas_site.build import build

    result = build(project, folder)
    assert result.output is not None and not result.errors, "\n".join(map(str, result.errors))
    return result, folder


@pytest.fixture(scope="session")
def chromium():
    """One Chromium for the whole run (each test opens its own context or page)."""
    from atlas_site.gates.browser import launched_browser

    with launched_browser() as browser:
        yield browser
        if id(browser) in TABS:
            TABS.pop(id(browser)).close()


# the name the browser test modules use for the one above
@pytest.fixture(scope="module")
def browser(chromium):
    return chromium


@pytest.fixture
def real_epubcheck(monkeypatch):
    """epubcheck as `check --release` finds it outside the suite (Debian's jar)."""
    from atlas_site.gates.editions import EPUBCHECK_JAR

    monkeypatch.setenv("ATLAS_EPUBCHECK", str(EPUBCHECK_JAR))


# what the browser tests open pages as
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
TWO_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


# ---------------------------------------------------------------- the reader's fixture book, built once per run
# The browser tests of the theme (side-by-side reading, the language switch, the layout at 390 and
# 1280 px, cards, dark mode, the development map, the labs' interface) drive the engine on a small
# book of their own (tests/projects/reader), not on the Atlas: the Atlas is checked by its own gate
# (`atlas-site check --browser --release`). Read-only for every test that takes them.


def make_reader(tmp_path: Path) -> Path:
    """A copy of the reader's fixture book, with the Atlas's lab contracts (it places Lab A)."""
    project = make_project(tmp_path, "reader")
    shutil.copy(ROOT / "ledger" / "labs.md", project / "ledger" / "labs.md")
    return project


@pytest.fixture(scope="session")
def reader_build(tmp_path_factory):
    """The reader's fixture book built once per worker (search index included) into a temporary
    _site/: (BuildResult, folder)."""

    workspace = tmp_path_factory.mktemp("reader-book")
    return built_cleanly(make_reader(workspace), workspace / "_site")


@pytest.fixture(scope="session")
def reader_site_url(reader_build):
    """The reader's fixture book's built site, served on 127.0.0.1 for the whole run."""
    from atlas_site.gates.browser import serve_folder

    with serve_folder(reader_build[1]) as url:
        yield url


@pytest.fixture(scope="session")
def reader_site(reader_build, reader_site_url, chromium):
    """What the reader's browser tests take: the served fixture book's address ("base"), the run's
    Chromium ("browser"), the built book ("book") and the folder it was written to ("folder")."""
    return {
        "base": reader_site_url,
        "browser": chromium,
        "book": reader_build[0].book,
        "folder": reader_build[1],
    }


# each worker's kept tabs (tests/tabs.py), by the Chromium they are in
TABS: dict[int, Tabs] = {}


def new_tab(site, *, held: bool = False, scripts: tuple[str, ...] = (), **options):
    """(context, page): a tab on about:blank in the state a new context with these options would
    give (a kept tab of the same setting where there is one: tests/tabs.py; `context.close()` gives
    it back); `held` keeps a page as its first load leaves it (FIRST_LOAD_HELD) for tests that
    measure what the idle browser would otherwise change before their first reading; `scripts` run
    before each page's own (Page.add_init_script)."""
    browser = site["browser"]
    tabs = TABS.setdefault(id(browser), Tabs(browser))
    return tabs.lease(site["base"], options, ((FIRST_LOAD_HELD,) if held else ()) + tuple(scripts))


def open_page(site, path: str, **options):
    """(context, page): `path` of the served book loaded in a `new_tab` with these options."""
    context, page = new_tab(site, **options)
    page.goto(site["base"] + path, wait_until="load")
    return context, page


@contextlib.contextmanager
def opened(site, path: str, **options):
    """The page of `open_page`, its context closed when the block ends, however it ends."""
    context, page = open_page(site, path, **options)
    try:
        yield page
    finally:
        context.close()


# The page as its first load leaves it, held there: the blocks far below are still at their
# placeholders' heights, since the idle pass that lays each out once (site.js measureSkippedBlocks)
# never starts. A slow phone stays in that state for longer; tests of it add this init script.
FIRST_LOAD_HELD = "window.requestIdleCallback = undefined;"


# The page's height with every skipped block shown as a block in view is: content-visibility: auto
# keeps layout, style and paint containment while it shows a block (the gates' .laid-out drops
# them, and a block's margins then collapse differently)
SHOWN_AS_READ = """async () => {
  for (const el of document.querySelectorAll('[data-skippable] > *')) {
    if (getComputedStyle(el).contentVisibility !== 'auto') continue;
    el.style.contentVisibility = 'visible';
    el.style.contain = 'layout style paint';
  }
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  return document.documentElement.scrollHeight;
}"""


# The page once the idle browser has laid out every skipped block and started what waits for the
# reader (site.js measureSkippedBlocks and atlasWhenNear): a fixed wait was too short on a busy
# machine (the run's 1 s saw nothing done yet)
SETTLED = "() => document.documentElement.hasAttribute('data-blocks-measured') && !document.querySelector('[data-lab]:not(.lab-js)')"
