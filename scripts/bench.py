#!/usr/bin/env python3
"""The benchmark (run by hand, never by the test suite): build times, scaling, page weights.

    .venv/bin/python scripts/bench.py [--runs 5] [--scales 1,10,50] [--skip-scaling]
    .venv/bin/python scripts/bench.py --edit-paint [--runs 20]   # edit -> painted under `serve`
    .venv/bin/python scripts/bench.py --lighthouse [--lighthouse-runs 3] [--pages zh/ch14.html,…] [--plain-server]
    .venv/bin/python scripts/bench.py --tab-cost 20               # a page load: new tab or kept tab

Whole-process timings (a fresh `python -m atlas_site` each run), medians over --runs; results as a
markdown table on stdout. Page weight = the page_weight rule's first load (rules/weight.py): the HTML
and the stylesheets and scripts it names, each gzip -9 (inline SVG included; the search index,
fetched on demand, excluded)."""

from __future__ import annotations

import argparse
import functools
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable


CPU: dict[str, float] = {}  # the median CPU seconds (user + system) of the last median_build / peers row


# Every generator starts from compiled bytecode, as a pip install leaves it. This project's editable
# install has none of its own, and under PYTHONDONTWRITEBYTECODE=1 (set on these machines) every
# build recompiled atlas-site's 100 modules: about 0.2 s of each start, a cost no reader's or
# contributor's install pays more than once.
TIMED_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


@functools.cache
def compile_atlas_site() -> None:
    subprocess.run(
        [PY, "-m", "compileall", "-q", str(ROOT / "src" / "atlas_site")], check=True, env=TIMED_ENV
    )


def run_timed(command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child): on a shared machine CPU time is the steadier of the two."""
    compile_atlas_site()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=TIMED_ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run_build(root: Path, out: Path, *extra: str) -> float:
    wall, CPU["last"] = run_timed(
        [PY, "-m", "atlas_site", "--root", str(root), "build", "--out", str(out), *extra]
    )
    return wall


def median_build(root: Path, runs: int, *extra: str) -> float:
    """Cold builds: a fresh output folder and no cache each run (median wall seconds; the median
    CPU seconds go to CPU["median"])."""
    extra = extra if "--no-cache" in extra else (*extra, "--no-cache")
    walls, cpus = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
            walls.append(run_build(root, Path(tmp) / f"_site{i}", *extra))
            cpus.append(CPU["last"])
    CPU["median"] = statistics.median(cpus)
    return statistics.median(walls)


def copy_project(target: Path) -> Path:
    for folder in ("content", "ledger", "sources", "templates", "labs_js"):
        shutil.copytree(ROOT / folder, target / folder, ignore=shutil.ignore_patterns("tests"))
    shutil.copy(ROOT / "book.yaml", target / "book.yaml")
    return target


def edit_times(runs: int) -> dict[str, float]:
    """Rebuild after no change, after a one-paragraph edit, after a one-source edit."""
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        project = copy_project(Path(tmp) / "p")
        out = Path(tmp) / "_site"
        run_build(project, out, "--no-search")
        results["no-change rebuild"] = statistics.median(
            run_build(project, out, "--no-search") for _ in range(runs)
        )
        part = sorted((project / "content/en/ch14").glob("*.md"))[1]
        times = []
        for i in range(runs):
            text = part.read_text(encoding="utf-8")
            part.write_text(text.replace("\n\n", f"\n\nEdited paragraph {i}.\n\n", 1), encoding="utf-8")
            times.append(run_build(project, out, "--no-search"))
        results["one-paragraph edit"] = statistics.median(times)
        bib = project / "sources/works.bib"
        times = []
        for i in range(runs):
            text = bib.read_text(encoding="utf-8")
            bib.write_text(
                re.sub(r"title = \{", "title = { ", text, count=1)
                if i % 2 == 0
                else text.replace("title = { ", "title = {", 1),
                encoding="utf-8",
            )
            times.append(run_build(project, out, "--no-search"))
        results["one-source edit"] = statistics.median(times)
    return results


def synthetic(target: Path, scale: int) -> Path:
    """The real book with every page copied `scale` times under new ids (same ledgers and sources)."""
    project = copy_project(target)
    clones = set()
    for lang_dir in [d for d in (project / "content").iterdir() if d.is_dir()]:
        for page in [p for p in lang_dir.iterdir() if p.is_dir()]:
            for copy in range(1, scale):
                clone = lang_dir / f"{page.name}-x{copy}"
                shutil.copytree(page, clone)
                head = sorted(clone.glob("*.md"))[0]
                text = head.read_text(encoding="utf-8")
                head.write_text(
                    text.replace(f"page: {page.name}\n", f"page: {clone.name}\n", 1), encoding="utf-8"
                )
                clones.add(clone.name)
    if clones:  # the copies are a series of their own (book.yaml lists every page)
        profile = project / "book.yaml"
        series = f'  - series: copies\n    title: {{zh: "副本", en: "Copies"}}\n    pages: [{", ".join(sorted(clones))}]\n'
        text = profile.read_text(encoding="utf-8")
        text = text.replace("  - generated: glossary", series + "  - generated: glossary", 1)
        profile.write_text(
            PAGE_BUDGETS.sub(lambda m: _budgets_with_copies(m, scale), text, count=1), encoding="utf-8"
        )
    return project


PAGE_BUDGETS = re.compile(r"page_weight: \{kb: ([\d.]+)(?:, pages: \{([^}]*)\})?\}")


def _budgets_with_copies(match: re.Match, scale: int) -> str:
    """Every budget times the scale: the navigation every page shows and the generated pages
    (bibliography, glossary) grow with the book; a copy is allowed what its page is allowed.
    The rule still weighs every page."""
    listed = match.group(2) or ""
    budgets = [
        (page.strip(), float(kb) * scale)
        for page, kb in (entry.split(":") for entry in listed.split(",") if entry.strip())
    ]
    pages = budgets + [(f"{page}-x{copy}", kb) for page, kb in budgets for copy in range(1, scale)]
    return f"page_weight: {{kb: {float(match.group(1)) * scale:g}, pages: {{{', '.join(f'{page}: {kb:g}' for page, kb in pages)}}}}}"


def gate_scaling(scales: list[int]) -> list[tuple[int, int, str, float, float, float]]:
    """(scale, published pages, command, wall ms per page, CPU ms per page of the processes waited
    for, CPU ms per page of every process started: Chromium's renderers too) of build, check and
    check --browser on the real book copied `scale` times (one run each: the browser gate at 10x
    takes minutes). A check that finds problems still counts: the copies outgrow the book's
    page-weight rule, which is what the generated pages of a bigger book do."""
    from process_cpu import TreeCPU  # beside this script

    rows = []
    for scale in scales:
        with tempfile.TemporaryDirectory() as tmp:
            project = synthetic(Path(tmp) / "p", scale)
            out = Path(tmp) / "_site"
            timed = []
            for name, command in (
                ("build", ["build", "--no-search", "--no-cache", "--out", str(out)]),
                ("check", ["check"]),
                ("check --browser", ["check", "--browser"]),
            ):
                compile_atlas_site()
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                with TreeCPU() as tree:
                    done = subprocess.run(
                        [PY, "-m", "atlas_site", "--root", str(project), *command],
                        capture_output=True,
                        text=True,
                        env=TIMED_ENV,
                    )
                wall = time.perf_counter() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                timed.append((name, wall, cpu, max(cpu, tree.seconds), done.stdout))
            # the reader pages, as check counts them (not the chooser and the 404): a build that a
            # gate refuses writes no folder to count (the copies cite works as a chapter would)
            counted = re.search(r"check (?:passed|failed) in [\d.]+ s: (\d+) pages", timed[1][4])
            if counted is None:
                raise SystemExit(f"check of the {scale}x book printed no page count")
            pages = int(counted.group(1)) - 2
            rows += [
                (scale, pages, name, wall / pages * 1000, cpu / pages * 1000, tree / pages * 1000)
                for name, wall, cpu, tree, _ in timed
            ]
    return rows


def scaling(scales: list[int], runs: int) -> list[tuple[int, int, float, float, float, float]]:
    """(scale, pages, median wall s, wall ms per page, CPU ms per page, peak RSS MiB) per scale: on a
    shared machine the CPU column is the one to compare."""
    rows = []
    for scale in scales:
        with tempfile.TemporaryDirectory() as tmp:
            project = synthetic(Path(tmp) / "p", scale)
            pages = sum(1 for _ in (project / "content").glob("*/*/"))
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            seconds = median_build(project, max(1, runs if scale <= 10 else 2), "--no-search")
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            rows.append(
                (
                    scale,
                    pages,
                    seconds,
                    seconds / pages * 1000,
                    CPU["median"] / pages * 1000,
                    max(peak, before) / 1024,
                )
            )
    return rows


# directives flattened to words (ids lose their digits: "kv-32x-smaller" would read as a bare
# multiplier), links to their text (the pages of the copies are renamed)
PLAIN = [
    (
        re.compile(r"\{\{[a-z-]+:([^}|]+)(?:\|([^}]+))?\}\}"),
        lambda m: m.group(2) or re.sub(r"\d", "", m.group(1)),
    ),
    (re.compile(r"(?<!!)\[([^\]\n]+)\]\([^)\s]+\)"), r"\1"),
    (re.compile(r"\{\{[a-z-]+\}\}"), ""),
    (re.compile(r"\[@([^\]]+)\]"), r"[\1]"),
    (re.compile(r"^:::.*$", re.M), ""),
]


def plain_corpus(target: Path, scale: int) -> list[Path]:
    """The book's own prose as plain markdown (directives flattened to text), copied `scale` times:
    the same words for every generator."""
    target.mkdir(parents=True)
    pages = []
    for page in sorted((ROOT / "content").glob("*/*/")):
        text = "".join(
            re.sub(r"^---\n.*?\n---\n", "", p.read_text(encoding="utf-8"), flags=re.S)
            for p in sorted(page.glob("*.md"))
        )
        for pattern, repl in PLAIN:
            text = pattern.sub(repl, text)
        for copy in range(scale):
            path = target / f"{page.parent.name}-{page.name}-{copy}.md"
            path.write_text(f"# {page.name} {copy}\n\n" + text, encoding="utf-8")
            pages.append(path)
    return pages


PLAIN_BOOK = """title: {zh: "基准", en: "Benchmark"}
short_title: {zh: "基准", en: "Benchmark"}
languages:
  - {code: zh, html_lang: zh-Hans, name: "中文", called: {en: "Chinese"}}
  - {code: en, html_lang: en, name: "English", called: {zh: "英文"}}
sources:
  nodes: {label: "N{number}", title: {zh: "节点", en: "nodes"}}
  references: {label: "R{number}", title: {zh: "参考", en: "references"}}
evidence:
  paper: {zh: "论文", en: "paper"}
parts:
  - series: plain
    title: {zh: "正文", en: "Prose"}
    pages: [PAGES]
"""


def plain_atlas_project(target: Path, scale: int) -> Path:
    """The plain corpus as an atlas-site project: the same prose, per language, one page per corpus
    file (no claims, figures, labs or citations), with the book's own templates; every gate runs."""
    corpus = plain_corpus(target / "corpus", scale)
    ids = []
    for path in corpus:
        lang, _, rest = path.stem.partition("-")
        page = rest
        text = path.read_text(encoding="utf-8").split("\n", 1)[
            1
        ]  # the "# name copy" line: the title is front matter
        folder = target / "content" / lang / page
        folder.mkdir(parents=True)
        (folder / "index.md").write_text(
            f"---\npage: {page}\ntitle: {page}\ndescription: The prose of {page}.\nstatus: published\nlast_verified: 2026-12-01\n---\n{text}",
            encoding="utf-8",
        )
        if page not in ids:
            ids.append(page)
    (target / "book.yaml").write_text(PLAIN_BOOK.replace("PAGES", ", ".join(ids)), encoding="utf-8")
    for folder in ("templates", "labs_js"):
        shutil.copytree(ROOT / folder, target / folder, ignore=shutil.ignore_patterns("tests"))
    (target / "sources").mkdir()
    (target / "sources/works.bib").write_text("", encoding="utf-8")
    (target / "sources/nodes.yaml").write_text("[]\n", encoding="utf-8")
    (target / "sources/references.yaml").write_text("[]\n", encoding="utf-8")
    (target / "ledger").mkdir()
    shutil.rmtree(target / "corpus")
    return target


def peers(runs: int, scales: list[int]) -> list[tuple[str, int, int, float, float]]:
    """MkDocs and Sphinx+MyST on the same plain markdown, in their own virtualenv, plus the floor:
    bare markdown-it + one Jinja template."""
    rows = []
    venv = ROOT / ".bench" / "venv"  # git-ignored; never the project's own environment
    if not (venv / "bin/mkdocs").exists():
        subprocess.run([PY, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(venv / "bin/pip"), "install", "-q", "mkdocs", "sphinx", "myst-parser"],
            check=True,
            capture_output=True,
        )
    with tempfile.TemporaryDirectory() as tmp:
        for scale in scales:
            corpus = Path(tmp) / f"corpus{scale}"
            docs = corpus / "docs"
            pages = plain_corpus(docs, scale)
            (corpus / "mkdocs.yml").write_text("site_name: bench\ndocs_dir: docs\n", encoding="utf-8")
            (docs / "conf.py").write_text(
                "extensions = ['myst_parser']\nsource_suffix = {'.md': 'markdown'}\n", encoding="utf-8"
            )
            (docs / "index.md").write_text("# bench\n\n```{toctree}\n:glob:\n*\n```\n", encoding="utf-8")
            timed = {
                "mkdocs": [
                    str(venv / "bin/mkdocs"),
                    "build",
                    "-q",
                    "-f",
                    str(corpus / "mkdocs.yml"),
                    "-d",
                    str(corpus / "out-mkdocs"),
                ],
                "sphinx+myst": [
                    str(venv / "bin/sphinx-build"),
                    "-q",
                    "-b",
                    "html",
                    str(docs),
                    str(corpus / "out-sphinx"),
                ],
                "floor (markdown-it + Jinja)": [PY, "-c", FLOOR, str(docs), str(corpus / "out-floor")],
            }
            atlas = plain_atlas_project(Path(tmp) / f"atlas{scale}", scale)
            timed["atlas-site (same plain prose, every gate)"] = [
                PY,
                "-m",
                "atlas_site",
                "--root",
                str(atlas),
                "build",
                "--no-search",
                "--no-cache",
                "--out",
                str(corpus / "out-atlas"),
            ]
            for name, command in timed.items():
                times, cpus = [], []
                for _ in range(runs):
                    for out in corpus.glob("out-*"):
                        shutil.rmtree(out)
                    wall, cpu = run_timed(command)
                    times.append(wall)
                    cpus.append(cpu)
                rows.append((name, scale, len(pages), statistics.median(times), statistics.median(cpus)))
    return rows


FLOOR = """
import sys, pathlib
from markdown_it import MarkdownIt
from jinja2 import Template
md = MarkdownIt('commonmark').enable('table'); t = Template('<!DOCTYPE html><html><body>{{ body }}</body></html>')
src, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]); out.mkdir(parents=True, exist_ok=True)
for p in sorted(src.glob('*.md')):
    (out / (p.stem + '.html')).write_text(t.render(body=md.render(p.read_text(encoding='utf-8'))), encoding='utf-8')
"""


def start_serve(project: Path) -> tuple[subprocess.Popen, str]:
    """`atlas-site serve --port 0` on a project; returns the process and its URL once it serves."""
    server = subprocess.Popen(
        [PY, "-m", "atlas_site", "--root", str(project), "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    for line in server.stdout:
        found = re.search(r" at (http://127\.0\.0\.1:\d+/)", line)
        if found:
            return server, found.group(1)
    raise RuntimeError("serve exited before serving")


PAINT_EDITS = {
    # a new plain paragraph in a section of Chapter 14 (the page patches that section)
    "insert a paragraph": (
        "content/en/ch14/20-phases.md",
        "\n\n{{figure:roofline}}\n",
        "\n\n{marker}\n\n{{figure:roofline}}\n",
    ),
    # a word of an existing paragraph that cites sources (patched too: the cards listen on the document)
    "edit a citing paragraph": (
        "content/en/ch14/20-phases.md",
        "Prefill is often described as",
        "Prefill is often {marker} described as",
    ),
}


def edit_to_paint(runs: int) -> list[tuple[str, float, float, int, int]]:
    """Under `atlas-site serve`, Chromium showing en/ch14.html: write a one-paragraph edit of a
    Chapter 14 part file and time until the new text is in the page (checked every animation
    frame). Per kind of edit: (name, p50 ms, p90 ms, patched in place, reloaded)."""
    from playwright.sync_api import sync_playwright

    from atlas_site.gates.browser import chromium_path

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        project = copy_project(Path(tmp) / "p")
        server, url = start_serve(project)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=chromium_path(),
                    headless=True,
                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
                )
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.goto(url + "en/ch14.html")
                for name, (part, anchor, replacement) in PAINT_EDITS.items():
                    path = project / part
                    original = path.read_text(encoding="utf-8")
                    times, patched = [], 0
                    for i in range(runs + 1):  # the first edit warms the server's cache for this part
                        marker = f"Benchmark{i}zq{len(name)}"
                        page.wait_for_timeout(300)  # the server idle, the page settled, as between keystrokes
                        page.evaluate("() => { window.__atlasBench = true; }")
                        start = time.perf_counter()
                        path.write_text(
                            original.replace(anchor, replacement.replace("{marker}", marker), 1),
                            encoding="utf-8",
                        )
                        page.wait_for_function(
                            "m => { const a = document.querySelector('article'); return a && a.textContent.includes(m); }",
                            arg=marker,
                            polling="raf",
                            timeout=30000,
                        )
                        elapsed = (time.perf_counter() - start) * 1000
                        if i:
                            times.append(elapsed)
                            patched += bool(page.evaluate("() => window.__atlasBench === true"))
                    path.write_text(original, encoding="utf-8")
                    times.sort()
                    rows.append(
                        (
                            name,
                            statistics.median(times),
                            times[min(len(times) - 1, round(0.9 * (len(times) - 1)))],
                            patched,
                            runs - patched,
                        )
                    )
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    return rows


def page_weights(site: Path) -> list[tuple[str, int]]:
    """(page, first-load bytes) for every page of a written site, weighed as the page_weight rule
    weighs the build's output (rules/weight.py: one measure for both)."""
    from atlas_site.output import Output
    from atlas_site.rules.weight import first_load_bytes

    output = Output()
    for file in sorted(site.rglob("*")):
        if file.is_file():
            output.add(file.relative_to(site).as_posix(), file.read_bytes())
    return [(path, first_load_bytes(output, path)) for path in output.html_pages()]


def tab_cost(loads: int) -> list[tuple[str, float, float]]:
    """(how, CPU ms per load of every Chromium process, wall ms per load) of the reader's fixture
    book's pages loaded `loads` times at a phone's width: each in a new context and tab, as a test
    that makes its own does, and each into one kept tab, as tests/tabs.py hands them out."""
    from process_cpu import TreeCPU  # beside this script

    from atlas_site.build import build
    from atlas_site.gates.browser import launched_browser, serve_folder

    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    paths = ["zh/ch1.html", "en/ch1.html", "zh/tut-labs.html", "en/ch1-fleet.html"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "reader"
        for folder in ("templates", "labs_js"):
            shutil.copytree(
                ROOT / folder, project / folder, ignore=shutil.ignore_patterns("tests", "node_modules")
            )
        shutil.copytree(ROOT / "tests" / "projects" / "reader", project, dirs_exist_ok=True)
        shutil.copy(ROOT / "ledger" / "labs.md", project / "ledger" / "labs.md")
        build(project, Path(tmp) / "_site")
        with serve_folder(Path(tmp) / "_site") as base, launched_browser() as browser:
            warm = browser.new_context(**phone)
            warm.new_page().goto(base + paths[0])
            warm.close()
            for how in ("a new tab each load", "one kept tab"):
                kept = browser.new_context(**phone) if how == "one kept tab" else None
                tab = kept.new_page() if kept else None
                start = time.perf_counter()
                with TreeCPU() as tree:
                    for i in range(loads):
                        if kept:
                            tab.goto(base + paths[i % len(paths)], wait_until="load")
                        else:
                            context = browser.new_context(**phone)
                            context.new_page().goto(base + paths[i % len(paths)], wait_until="load")
                            context.close()
                wall = time.perf_counter() - start
                if kept:
                    kept.close()
                rows.append((how, tree.seconds / loads * 1000, wall / loads * 1000))
    return rows


def lighthouse_table(args) -> int:
    import lighthouse

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "_site"
        run_build(ROOT, site)  # with the search index, as deployed
        pages = [p for p in args.pages.split(",") if p] or None
        rows = lighthouse.measure(site, args.lighthouse_runs, compress=not args.plain_server, pages=pages)
        index = statistics.median(r["benchmark_index"] for r in rows)
        print(
            f"Lighthouse {lighthouse.VERSION}, mobile preset, {'bare http.server' if args.plain_server else 'http.server + gzip'}, "
            f"Chromium benchmark index {index:.0f}\n"
        )
        print(lighthouse.table(rows, args.lighthouse_runs))
        weights = dict(page_weights(site))
        print("\n| page | gzip KB (HTML + its CSS + JS) |\n|---|---|")
        for row in rows:
            print(f"| {row['page']} | {weights.get(row['page'], 0) / 1024:.1f} |")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scales", default="1,10,50")
    parser.add_argument("--skip-scaling", action="store_true")
    parser.add_argument(
        "--scale",
        default="",
        metavar="N,N",
        help="only: build, check and check --browser per page on the book copied N times (e.g. 1,5,10)",
    )
    parser.add_argument(
        "--peers",
        action="store_true",
        help="also time MkDocs and Sphinx+MyST (installs them in a temporary virtualenv)",
    )
    parser.add_argument(
        "--edit-paint", action="store_true", help="only: edit -> new text painted in Chromium under `serve`"
    )
    parser.add_argument(
        "--lighthouse",
        action="store_true",
        help="only the Lighthouse table of every reader page (scripts/lighthouse.py)",
    )
    parser.add_argument("--lighthouse-runs", type=int, default=3)
    parser.add_argument(
        "--tab-cost",
        type=int,
        default=0,
        metavar="LOADS",
        help="only: Chromium's CPU per page load in a new tab against a kept one (tests/tabs.py)",
    )
    parser.add_argument(
        "--pages", default="", help="with --lighthouse: a comma-separated list of pages instead of all"
    )
    parser.add_argument(
        "--plain-server",
        action="store_true",
        help="with --lighthouse: serve without gzip, as bare `python -m http.server`",
    )
    args = parser.parse_args()
    if args.scale:
        print(
            "| scale | pages | command | wall ms per page | CPU ms per page, waited for | "
            "CPU ms per page, every process |\n|---|---|---|---|---|---|"
        )
        for scale, pages, name, wall, cpu, tree in gate_scaling([int(s) for s in args.scale.split(",")]):
            print(f"| {scale}× | {pages} | {name} | {wall:.0f} | {cpu:.0f} | {tree:.0f} |")
        return 0
    if args.lighthouse:
        return lighthouse_table(args)
    if args.tab_cost:
        print(
            "| page load (reader fixture, 390 px) | CPU ms per load, every process | wall ms per load |\n|---|---|---|"
        )
        for how, cpu, wall in tab_cost(args.tab_cost):
            print(f"| {how} | {cpu:.0f} | {wall:.0f} |")
        return 0
    if args.edit_paint:
        print(
            f"| edit under serve (Chromium on en/ch14.html, {args.runs} edits) | p50 ms | p90 ms | patched | reloaded |\n|---|---|---|---|---|"
        )
        for name, p50, p90, patched, reloaded in edit_to_paint(args.runs):
            print(f"| {name} | {p50:.0f} | {p90:.0f} | {patched} | {reloaded} |")
        return 0
    print(f"| measurement (median of {args.runs}, whole process) | seconds |\n|---|---|")
    print(f"| cold full build, with search index | {median_build(ROOT, args.runs):.2f} |")
    print(f"| cold full build, without search index | {median_build(ROOT, args.runs, '--no-search'):.2f} |")
    for name, seconds in edit_times(args.runs).items():
        print(f"| {name} (no search index) | {seconds:.2f} |")
    if not args.skip_scaling:
        print(
            "\n| scale | pages | build s | ms per page | CPU ms per page | peak RSS MiB |\n|---|---|---|---|---|---|"
        )
        for scale, pages, seconds, per_page, cpu_per_page, peak in scaling(
            [int(s) for s in args.scales.split(",")], args.runs
        ):
            print(
                f"| {scale}× | {pages} | {seconds:.2f} | {per_page:.1f} | {cpu_per_page:.1f} | {peak:.0f} |"
            )
    if args.peers:
        atlas_cold = median_build(ROOT, args.runs, "--no-search", "--no-cache")
        print("\n| generator | scale | pages | median s | median CPU s |\n|---|---|---|---|---|")
        print(
            f"| atlas-site, the real book (cold, no search, no cache) | 1× | {sum(1 for _ in (ROOT / 'content').glob('*/*/'))} | {atlas_cold:.2f} | {CPU['median']:.2f} |"
        )
        for name, scale, pages, seconds, cpu in peers(args.runs, [1, 10]):
            print(f"| {name} | {scale}× | {pages} | {seconds:.2f} | {cpu:.2f} |")
    with tempfile.TemporaryDirectory() as tmp:
        run_build(ROOT, Path(tmp) / "_site", "--no-search")
        print("\n| page | gzip KB (HTML + its CSS + JS) |\n|---|---|")
        for page, size in page_weights(Path(tmp) / "_site"):
            print(f"| {page} | {size / 1024:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
