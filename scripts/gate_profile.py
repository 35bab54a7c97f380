#!/usr/bin/env python3
"""Where the publication gate spends its time (run by hand, never by the test suite).

    .venv/bin/python scripts/gate_profile.py [--root DIR] [--no-release]

Runs `atlas-site check --browser --release` (or without --release) in this process, with a timer
around each of the gate's parts: the page walk and, inside it, each page's load and each browser
check; the EPUB and print editions (these run beside the walk). Prints a markdown table of wall seconds per part and calls,
then the whole run's wall time and the CPU seconds of this process, of the processes it waited
for, and of every process it started (sampled: Chromium's renderers, which nobody waits for). The parts nest (the walk holds the checks), so they do not sum."""

from __future__ import annotations

import argparse
import collections
import functools
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# (module, function) pairs timed: the walk's parts and the editions
TIMED = {
    "atlas_site.gates.browser_walk": (
        "run_browser_gates",
        "_check_page",
        "_at_width",
        "_search",
        "in_each_scheme",
        "axe_problems",
        "contrast_problems",
        "target_problems",
        "check_switch",
        "check_tabs",
        "visit_labs",
        "chart_problems",
        "figure_layout_problems",
        "figure_ink_problems",
        "figure_width_problems",
        "figure_scale_problems",
        "figure_contrast_problems",
        "model_problems",
    ),
    "atlas_site.gates.browser": ("render_everything",),
    "atlas_site.gates.editions": ("start_edition_gates", "print_gates"),
}


def _timed(seconds: collections.Counter, calls: collections.Counter, name: str, function):
    @functools.wraps(function)
    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            seconds[name] += time.perf_counter() - start
            calls[name] += 1

    return timed


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=str(ROOT))
    parser.add_argument("--no-release", action="store_true")
    args = parser.parse_args()
    import importlib

    seconds: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()
    for module_name, names in TIMED.items():
        module = importlib.import_module(module_name)
        for name in names:
            setattr(module, name, _timed(seconds, calls, name, getattr(module, name)))
    # the walk opens each page through PageWalk.open (the load and laying out all that waits)
    from atlas_site.gates import browser

    browser.PageWalk.open = _timed(seconds, calls, "page load (PageWalk.open)", browser.PageWalk.open)
    # a release's EPUBs are made first; epubcheck then runs beside the walk, and the wait for what
    # is left of it after the walk is this part (the print editions run beside the walk as well)
    from atlas_site.gates import editions

    editions.EditionGates.reports = _timed(
        seconds, calls, "epubcheck, what is left after the walk", editions.EditionGates.reports
    )
    # check.py imports the walk's entry point by name when --browser is given: time it there too
    from process_cpu import TreeCPU  # beside this script

    from atlas_site.cli import main as atlas_site

    command = ["--root", args.root, "check", "--browser"] + ([] if args.no_release else ["--release"])
    start = time.perf_counter()
    with TreeCPU() as tree:
        status = atlas_site(command)
    wall = time.perf_counter() - start
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    print("\n| part of the gate | wall s | calls |\n|---|---|---|")
    for name, total in seconds.most_common():
        print(f"| {name} | {total:.1f} | {calls[name]} |")
    print(
        f"\nwhole check: {wall:.1f} s wall; CPU {own.ru_utime + own.ru_stime:.1f} s in this process, "
        f"{children.ru_utime + children.ru_stime:.1f} s in the processes it waited for, "
        f"{tree.seconds:.1f} s in every process it started (Chromium's renderers too); exit {status}"
    )
    return status


if __name__ == "__main__":
    sys.exit(main())
