#!/usr/bin/env python3
"""The benchmark (run by hand, never by the test suite): build times, scaling, page weights.

    .venv/bin/python scripts/bench.py [--runs 5] [--scales 1,10,50] [--skip-scaling]

Whole-process timings (a fresh `python -m atlas_site` each run), medians over --runs; results as a
markdown table on stdout. Page weight = gzip-transferred HTML + the CSS and JS it loads (inline SVG
included; the search index, fetched on demand, excluded)."""
from __future__ import annotations

import argparse
import gzip
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


def run_build(root: Path, out: Path, *extra: str) -> float:
    start = time.perf_counter()
    subprocess.run([PY, "-m", "atlas_site", "--root", str(root), "build", "--out", str(out), *extra],
                   check=True, capture_output=True)
    return time.perf_counter() - start


def median_build(root: Path, runs: int, *extra: str) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        return statistics.median(run_build(root, Path(tmp) / "_site", *extra) for _ in range(runs))


def copy_project(target: Path) -> Path:
    for folder in ("content", "ledger", "sources", "templates", "labs_js"):
        shutil.copytree(ROOT / folder, target / folder, ignore=shutil.ignore_patterns("tests"))
    return target


def edit_times(runs: int) -> dict[str, float]:
    """Rebuild after no change, after a one-paragraph edit, after a one-source edit."""
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        project = copy_project(Path(tmp) / "p")
        out = Path(tmp) / "_site"
        run_build(project, out, "--no-search")
        results["no-change rebuild"] = statistics.median(run_build(project, out, "--no-search") for _ in range(runs))
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
            bib.write_text(re.sub(r"title = \{", f"title = {{ ", text, count=1) if i % 2 == 0 else text.replace("title = { ", "title = {", 1), encoding="utf-8")
            times.append(run_build(project, out, "--no-search"))
        results["one-source edit"] = statistics.median(times)
    return results


def synthetic(target: Path, scale: int) -> Path:
    """The real book with every page copied `scale` times under new ids (same ledgers and sources)."""
    project = copy_project(target)
    for lang_dir in (project / "content").iterdir():
        for page in [p for p in lang_dir.iterdir() if p.is_dir()]:
            for copy in range(1, scale):
                clone = lang_dir / f"{page.name}-x{copy}"
                shutil.copytree(page, clone)
                head = sorted(clone.glob("*.md"))[0]
                text = head.read_text(encoding="utf-8")
                head.write_text(text.replace(f"page: {page.name}\n", f"page: {clone.name}\n", 1), encoding="utf-8")
    return project


def scaling(scales: list[int], runs: int) -> list[tuple[int, int, float, float, float]]:
    rows = []
    for scale in scales:
        with tempfile.TemporaryDirectory() as tmp:
            project = synthetic(Path(tmp) / "p", scale)
            pages = sum(1 for _ in (project / "content").glob("*/*/"))
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            seconds = median_build(project, max(1, runs if scale <= 10 else 2), "--no-search")
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            rows.append((scale, pages, seconds, seconds / pages * 1000, max(peak, before) / 1024))
    return rows


def page_weights(site: Path) -> list[tuple[str, int]]:
    rows = []
    for page in sorted(site.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        total = len(gzip.compress(html.encode("utf-8"), 9))
        for ref in re.findall(r'(?:src|href)="([^"]+\.(?:js|css))"', html):
            asset = (page.parent / ref).resolve()
            if asset.is_file():
                total += len(gzip.compress(asset.read_bytes(), 9))
        rows.append((page.relative_to(site).as_posix(), total))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scales", default="1,10,50")
    parser.add_argument("--skip-scaling", action="store_true")
    args = parser.parse_args()
    print(f"| measurement (median of {args.runs}, whole process) | seconds |\n|---|---|")
    print(f"| cold full build, with search index | {median_build(ROOT, args.runs):.2f} |")
    print(f"| cold full build, without search index | {median_build(ROOT, args.runs, '--no-search'):.2f} |")
    for name, seconds in edit_times(args.runs).items():
        print(f"| {name} (no search index) | {seconds:.2f} |")
    if not args.skip_scaling:
        print("\n| scale | pages | build s | ms per page | peak RSS MiB |\n|---|---|---|---|---|")
        for scale, pages, seconds, per_page, peak in scaling([int(s) for s in args.scales.split(",")], args.runs):
            print(f"| {scale}× | {pages} | {seconds:.2f} | {per_page:.1f} | {peak:.0f} |")
    with tempfile.TemporaryDirectory() as tmp:
        run_build(ROOT, Path(tmp) / "_site", "--no-search")
        print("\n| page | gzip KB (HTML + its CSS + JS) |\n|---|---|")
        for page, size in page_weights(Path(tmp) / "_site"):
            print(f"| {page} | {size / 1024:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
