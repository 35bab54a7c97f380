"""Where the test suite's CPU goes, case by case: a pytest plugin and its report.

    PYTHONPATH=scripts .venv/bin/python -m pytest -m engine -n 2 -p case_cpu
    .venv/bin/python scripts/case_cpu.py            # per file, then the costliest cases

Each case's CPU in its worker (user + system, `getrusage(RUSAGE_SELF)`), in the processes the worker
waited for (`RUSAGE_CHILDREN`: a CLI run in a new process, Node, epubcheck's Java) and its wall
time, one JSON line per case in `.case-cpu/<worker>.jsonl` (a run starts the files afresh). A browser
that outlives its case (the worker's one Chromium) is waited for only when the worker ends, so its
CPU is read from /proc instead: the "tree" column is what the worker's living descendants (Chromium,
its renderers, Playwright's driver) spent between the case's start and end."""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest
from process_cpu import tree_snapshot  # beside this script

FOLDER = Path(".case-cpu")


def _cpu() -> tuple[float, float]:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def pytest_configure(config):
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    FOLDER.mkdir(exist_ok=True)
    if worker is None:  # the controller (or a run without workers) starts afresh
        for old in FOLDER.glob("*.jsonl"):
            old.unlink()
    config._case_cpu = FOLDER / f"{worker or 'main'}.jsonl"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Measured around the whole case: set-up, call and tear-down."""
    before, tree_before, start = _cpu(), tree_snapshot(), time.perf_counter()
    yield
    after, tree_after = _cpu(), tree_snapshot()
    line = {
        "id": item.nodeid,
        "own": after[0] - before[0],
        "children": after[1] - before[1],
        "wall": time.perf_counter() - start,
        "tree": sum(max(0.0, cpu - tree_before.get(pid, 0.0)) for pid, cpu in tree_after.items()),
    }
    with item.config._case_cpu.open("a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


def report(top: int = 15) -> str:
    rows = [json.loads(line) for path in sorted(FOLDER.glob("*.jsonl")) for line in path.open()]
    if not rows:
        return "no measurements: run pytest with -p case_cpu first"
    keys = ("own", "children", "tree", "wall")

    def cpu(row: dict) -> float:
        return row["own"] + row["children"] + row.get("tree", 0.0)

    files: dict[str, list[float]] = defaultdict(lambda: [0.0] * (len(keys) + 1))
    for row in rows:
        entry = files[row["id"].split("::")[0]]
        for i, key in enumerate(keys):
            entry[i] += row.get(key, 0.0)
        entry[-1] += 1
    total = [sum(row.get(key, 0.0) for row in rows) for key in keys]
    lines = [
        f"{len(rows)} cases: {total[0]:.1f} CPU s own, {total[1]:.1f} in children waited for, "
        f"{total[2]:.1f} in living descendants, {total[3]:.1f} s wall"
    ]
    lines.append("  own  child   tree   wall cases file")
    for name, (own, children, tree, wall, count) in sorted(files.items(), key=lambda kv: -sum(kv[1][:3])):
        lines.append(f"{own:5.1f} {children:6.1f} {tree:6.1f} {wall:6.1f} {int(count):5d} {name}")
    lines.append("the costliest cases (own + children + tree CPU):")
    for row in sorted(rows, key=lambda r: -cpu(r))[:top]:
        lines.append(
            f"{row['own']:5.2f} {row['children']:6.2f} {row.get('tree', 0.0):6.2f} {row['wall']:6.2f} {row['id']}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(int(sys.argv[1]) if len(sys.argv) > 1 else 15))
