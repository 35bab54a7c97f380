"""Running the labs' own JavaScript (labs_js/compute.js) for the build: one node process per batch
of requests, cached by the requests and the lab code, with a time limit (ATLAS_LAB_TIMEOUT
seconds, 30 by default) so a lab function that never returns is named, not waited for. compute.js
--trace prints which file it loads and which request it runs, so a failure or a hang points at
the request that caused it."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..cache import digest

DEFAULT_TIMEOUT = 30.0
TRACE = re.compile(r"^compute\.js: (load (?P<file>\S+)|run (?P<index>\d+) (?P<fn>\S+) (?P<runfile>\S+))$")
FAILED_ITEM = re.compile(r"\bitem (\d+) ")
SCRIPT = Path("labs_js") / "compute.js"


def lab_timeout() -> float:
    """ATLAS_LAB_TIMEOUT seconds, or the default when it is not a finite number (inf or nan would
    mean no limit, or an error of the subprocess module)."""
    try:
        seconds = float(os.environ.get("ATLAS_LAB_TIMEOUT", DEFAULT_TIMEOUT))
    except ValueError:
        return DEFAULT_TIMEOUT
    return max(0.1, seconds) if math.isfinite(seconds) else DEFAULT_TIMEOUT


def not_plain(value, path: str) -> str | None:
    """The first part of `value` that JSON (and so the lab code) cannot take, named by its path."""
    if value is None or isinstance(value, (bool, int, str)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{path} is {value}"
    if isinstance(value, list):
        return next((bad for i, item in enumerate(value) if (bad := not_plain(item, f"{path}[{i}]"))), None)
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path} has the key {key!r}, not a name"
            bad = not_plain(item, f"{path}.{key}")
            if bad:
                return bad
        return None
    return f"{path} is a {type(value).__name__} ({value})"


@dataclass(frozen=True)
class Failure:
    """Why a batch did not give results: `index` is the request that caused it (None: a file
    failed to load), `file` the lab file it ran in, `reason` compute.js's own last message."""

    kind: str  # "failed" | "timeout" | "no-json"
    index: int | None
    file: str
    reason: str
    fn: str = ""


def _lines(stderr: str) -> tuple[list[re.Match], list[str]]:
    """compute.js's trace lines, and the rest (its messages)."""
    traced: list[re.Match] = []
    rest: list[str] = []
    for line in stderr.strip().splitlines():
        match = TRACE.match(line)
        if match:
            traced.append(match)
        else:
            rest.append(line)
    return traced, rest


class _TimedOut(Exception):
    def __init__(self, stderr: str):
        self.stderr = stderr


class LabRuntime:
    def __init__(self, root: Path, cache):
        self.root, self.cache = root, cache
        self.node = shutil.which("node")
        self.seconds = lab_timeout()

    def missing(self) -> str | None:
        """What the computation lacks to run at all, or None."""
        if self.node is None:
            return "node (Node.js)"
        return None if (self.root / SCRIPT).exists() else SCRIPT.as_posix()

    def run(self, requests: list) -> list | Failure:
        """The results, one per request, or the Failure that stopped them."""

        def call():
            try:
                run = subprocess.run(
                    [str(self.node), str(self.root / SCRIPT), "--trace"],
                    input=json.dumps(requests),
                    capture_output=True,
                    text=True,
                    cwd=self.root,
                    timeout=self.seconds,
                )
            except subprocess.TimeoutExpired as expired:  # not cached: a slow machine may succeed next time
                stderr = (
                    expired.stderr.decode("utf-8", "replace")
                    if isinstance(expired.stderr, bytes)
                    else (expired.stderr or "")
                )
                raise _TimedOut(stderr) from None
            return run.returncode, run.stdout, run.stderr

        try:
            returncode, stdout, stderr = self.cache.get("examples", digest(requests), call)
        except _TimedOut as timed_out:
            return self._hung(timed_out.stderr)
        if returncode != 0:
            traced, messages = _lines(stderr)
            # compute.js names the request it failed on ("item 3 (…): …"), then may list what it knows
            naming = [line for line in messages if FAILED_ITEM.search(line)]
            reason = (naming or messages or ["no message"])[0 if naming else -1].removeprefix("compute.js: ")
            item = FAILED_ITEM.search(reason)
            index = int(item.group(1)) if item else None
            runs = [t for t in traced if index is not None and t.group("index") == str(index)]
            return Failure("failed", index, runs[-1].group("runfile") if runs else SCRIPT.as_posix(), reason)
        try:
            results = json.loads(stdout)
        except ValueError:
            return Failure("no-json", None, SCRIPT.as_posix(), "printed no JSON result")
        if not isinstance(results, list) or len(results) != len(requests):
            return Failure(
                "no-json",
                None,
                SCRIPT.as_posix(),
                f"returned {type(results).__name__}, not one result per request",
            )
        return results

    def _hung(self, stderr: str) -> Failure:
        traced, _ = _lines(stderr)
        last = traced[-1] if traced else None
        if last is not None and last.group("index") is not None:
            return Failure(
                "timeout",
                int(last.group("index")),
                last.group("runfile"),
                f"did not return within {self.seconds:g} s (an endless loop?)",
                last.group("fn"),
            )
        file = last.group("file") if last is not None and last.group("file") else SCRIPT.as_posix()
        return Failure(
            "timeout",
            None,
            file,
            f"did not finish loading within {self.seconds:g} s (an endless loop at its top level?)",
        )
