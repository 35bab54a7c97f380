"""CPU seconds of a whole process tree, for the benchmark scripts (Linux, /proc).

`getrusage(RUSAGE_CHILDREN)` counts only the processes someone waited for. Chromium's renderers are
children of its zygote, which nobody waits for: on a page walk they did 40 % of the work and it
counted none of it. So the tree is also sampled: every process whose parents lead to this one is
read from /proc/<pid>/stat a few times a second, and its last reading counts. A process that lives
less than a sampling period may be missed; the scripts print both figures."""

from __future__ import annotations

import os
import threading
from pathlib import Path

PERIOD = 0.2  # seconds between readings
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: str) -> tuple[str, float] | None:
    """(parent pid, CPU seconds so far) of a process, or None when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[1], (int(fields[11]) + int(fields[12])) / _TICK


def tree_snapshot(root: int | None = None) -> dict[str, float]:
    """CPU seconds so far of every process under `root` (this one by default, itself excluded): two
    snapshots around a piece of work give what the processes living through it spent on it."""
    top = str(root or os.getpid())
    stats = {pid: _stat(pid) for pid in os.listdir("/proc") if pid.isdigit()}
    parents = {pid: stat[0] for pid, stat in stats.items() if stat is not None}

    def descends(pid: str) -> bool:
        for _ in range(32):
            pid = parents.get(pid, "")
            if pid == top:
                return True
            if not pid:
                return False
        return False

    return {pid: stat[1] for pid, stat in stats.items() if stat is not None and descends(pid)}


class TreeCPU:
    """with TreeCPU() as tree: ... ; tree.seconds is the CPU spent meanwhile by every process under
    this one (this one's own excluded): those started meanwhile, and those already running from the
    moment the block began."""

    def __init__(self) -> None:
        self.root = str(os.getpid())
        self.parents: dict[str, str] = {}
        self.cpu: dict[str, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> TreeCPU:
        # a process of the tree already running (a kept browser) counts from here on
        self._before: dict[str, float] = {}
        self._read()
        self._before, self.cpu = dict(self.cpu), {}
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self._read()

    @property
    def seconds(self) -> float:
        return sum(self.cpu.values())

    def _run(self) -> None:
        while not self._stop.wait(PERIOD):
            self._read()

    def _descends(self, pid: str) -> bool:
        for _ in range(32):
            pid = self.parents.get(pid, "")
            if pid == self.root:
                return True
            if not pid:
                return False
        return False

    def _read(self) -> None:
        try:
            pids = [p for p in os.listdir("/proc") if p.isdigit()]
        except OSError:
            return
        readings = {}
        for pid in pids:
            stat = _stat(pid)
            if stat is not None:
                self.parents.setdefault(pid, stat[0])  # as first seen: an orphan keeps its line
                readings[pid] = stat[1]
        for pid, seconds in readings.items():
            if self._descends(pid):
                self.cpu[pid] = max(self.cpu.get(pid, 0.0), seconds - self._before.get(pid, 0.0))
