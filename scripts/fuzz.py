#!/usr/bin/env python3
"""The fuzz campaign (run by hand, never by the test suite): seeded random mutations of a fixture
book's ledgers, front matter, BibTeX, source registries and book.yaml, each followed by one
`atlas-site` run, counted
by outcome. What must never happen: an internal error (exit 70), a traceback, a hang (no result
within --timeout), an error line that is not located (`path:line:col: error[code]: …`), or a
failed run that changed the previous `_site/`.

    .venv/bin/python scripts/fuzz.py --seed 33 --count 1000            # the campaign of issue 33
    .venv/bin/python scripts/fuzz.py --seed 33 --case 417 --show       # one case again, its output

Case N of seed S is drawn from its own generator (`random.Random("S-N")`), so any case can be run
again alone. Each run is a forked child of this process, which has imported atlas-site once: a
run costs no interpreter start. The mutations reuse the snippets and the text edits of the
property-based test (tests/unit/test_fuzz.py), so both fuzz the same way."""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "unit"))
from test_fuzz import BLOCKS, LOCATED, OUTPUT_LOCATED, SNIPPETS, YAML_VALUES, apply, snapshot  # noqa: E402

LEDGERS = (
    "ledger/claims.md",
    "ledger/examples.md",
    "ledger/glossary.md",
    "ledger/misconceptions.md",
    "ledger/questions.md",
    "ledger/leads.md",
)
FRONT_MATTER = ("content/en/ch14/00-intro.md", "content/zh/ch14/00-intro.md")
BIBTEX = ("sources/works.bib",)
REGISTRIES = ("sources/nodes.yaml", "sources/references.yaml")
PROFILE = ("book.yaml",)
TARGETS = {
    "ledger": LEDGERS,
    "front matter": FRONT_MATTER,
    "bibtex": BIBTEX,
    "registry": REGISTRIES,
    "book.yaml": PROFILE,
}
BIB_SNIPPETS = (  # what goes wrong in a hand-edited .bib
    "@article{",
    "@article{x,\n",
    "}",
    "{",
    "}}",
    '"',
    "@string{x = {y}}\n",
    "@string{a = a # a}\n",
    " # ",
    "year = x,",
    "year = {1e400},",
    "title = {",
    "@comment{",
    "\\",
    "%",
    "=",
    ",",
    "@",
    "@online{flashattention-2022,\n}\n",
    "url = {javascript:alert(1)},",
    "url = {https://evil.example/}},",
    "\x00",
    "\ufeff",
    "\r",
    "\u202e",
    "ü",
)
BAD_BYTES = (b"\xff", b"\xfe\xff", b"\xc3", b"\xed\xa0\x80", b"\x80abc", b"\xe4\xb8")
LINE_ENDINGS = ("\r\n", "\r")


def draw_mutation(rng: random.Random, target: str):
    """One change as test_fuzz.apply() takes it: (kind, position in [0, 1], argument)."""
    kind = rng.choice(
        (
            "insert",
            "insert",
            "value",
            "value",
            "line",
            "delete",
            "dup-line",
            "drop-line",
            "swap-lines",
            "indent",
        )
    )
    where = rng.random()
    if kind == "insert":
        pool = BIB_SNIPPETS + SNIPPETS if target == "bibtex" else SNIPPETS
        return kind, where, rng.choice(pool) if rng.random() < 0.8 else _noise(rng)
    if kind == "value":
        return kind, where, rng.choice(YAML_VALUES)
    if kind == "line":
        return kind, where, rng.choice(BLOCKS + BIB_SNIPPETS if target == "bibtex" else BLOCKS)
    if kind == "delete":
        return kind, where, rng.randint(1, 40)
    if kind == "swap-lines":
        return kind, where, rng.random()
    if kind == "indent":
        return kind, where, rng.choice(("", " ", "  ", "    ", "\t", "      "))
    return kind, where, None


def _noise(rng: random.Random) -> str:
    """A few random characters (no lone surrogates: they cannot be saved as UTF-8)."""
    chars = []
    for _ in range(rng.randint(1, 12)):
        code = rng.choice((rng.randint(0, 0x7F), rng.randint(0x80, 0x2FFF), rng.randint(0xE000, 0x10FFFF)))
        chars.append(chr(code))
    return "".join(chars)


def front_matter_span(text: str) -> tuple[int, int]:
    """The character span of a markdown file's front matter (between its '---' lines), or the whole text."""
    if not text.startswith("---"):
        return 0, len(text)
    end = text.find("\n---", 3)
    return (4, end) if end > 0 else (0, len(text))


def mutate(text: str, target: str, changes) -> str:
    if target != "front matter":
        for change in changes:
            text = apply(text, change)
        return text
    start, end = front_matter_span(text)  # only the front matter changes; the body stays as it was
    head = text[start:end]
    for change in changes:
        head = apply(head, change)
    return text[:start] + head + text[end:]


def draw_case(seed: int, number: int) -> list[tuple[str, str, list, bytes | None, str | None]]:
    """[(file, target kind, changes, bad bytes to insert or None, line ending or None)] of case `number`."""
    rng = random.Random(f"{seed}-{number}")
    case = []
    for target in rng.sample(sorted(TARGETS), rng.choice((1, 1, 2))):
        changes = [draw_mutation(rng, target) for _ in range(rng.randint(1, 3))]
        bad = rng.choice(BAD_BYTES) if rng.random() < 0.06 else None
        ending = rng.choice(LINE_ENDINGS) if rng.random() < 0.04 else None
        case.append((rng.choice(TARGETS[target]), target, changes, bad, ending))
    return case


def written(
    original: bytes, target: str, changes, bad: bytes | None, ending: str | None, rng_at: float
) -> bytes:
    text = mutate(original.decode("utf-8"), target, changes)
    if ending:
        text = text.replace("\n", ending)
    data = text.encode("utf-8", "surrogatepass")
    if bad:
        at = int(rng_at * len(data))
        data = data[:at] + bad + data[at:]
    return data


def run_once(project: Path, argv: list[str], timeout: float) -> tuple[int | None, str, float]:
    """`atlas-site ARGV` in a forked child: (exit code or None on a hang, its stderr, seconds)."""
    from atlas_site.cli import main

    start = time.monotonic()
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as out:
        pid = os.fork()
        if pid == 0:  # the child: one run, its exit code as the command line would give it
            code = 1
            try:
                os.setpgid(0, 0)
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
                sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
                code = main(["--root", str(project), *argv])
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
            except BaseException:
                traceback.print_exc()
                code = 99
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        deadline = start + timeout
        status = None
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.01)
        else:
            os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            status = None
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    code = os.waitstatus_to_exitcode(status) if status is not None else None
    return code, stderr, time.monotonic() - start


def judge(code: int | None, stderr: str, site_changed: bool) -> tuple[str, str]:
    """('success' | 'clean' | 'output-located' | 'internal' | 'traceback' | 'hang' | 'unlocated' |
    'site-changed', detail)."""
    if code is None:
        return "hang", "no result in time"
    if "Traceback (most recent call last)" in stderr:
        return "traceback", stderr.strip().splitlines()[-1]
    if code == 70 or "internal error" in stderr:
        said = [line for line in stderr.splitlines() if "internal error" in line]
        return "internal", said[0] if said else f"exit {code}"
    if code not in (0, 2):
        return "internal", f"exit {code}: " + (stderr.strip().splitlines() or [""])[-1]
    if code == 0:
        return "success", ""
    if site_changed:
        return "site-changed", "a failed run changed _site/"
    lines = stderr.splitlines()
    problems = [line for line in lines if "error[" in line or "warning[" in line]
    if not any("error[" in line for line in problems):
        return "unlocated", "exit 2 without an error line: " + stderr.strip()[-200:]
    unlocated = [line for line in problems if not LOCATED.match(line.replace("warning[", "error[", 1))]
    if unlocated and all(OUTPUT_LOCATED.match(line) for line in unlocated):
        return "output-located", unlocated[0]  # a gate's line at its output page: as test_fuzz.py tolerates
    return ("unlocated", unlocated[0]) if unlocated else ("clean", "")


def prepare(folder: Path, fixture: str) -> Path:
    """A throwaway copy of the fixture beside the repository's templates and labs, built once."""
    project = folder / fixture
    for name in ("templates", "labs_js"):
        shutil.copytree(ROOT / name, project / name, ignore=shutil.ignore_patterns("tests", "node_modules"))
    shutil.copytree(
        ROOT / "tests" / "projects" / fixture,
        project,
        ignore=shutil.ignore_patterns("expected"),
        dirs_exist_ok=True,
    )
    return project


def run_case(project: Path, seed: int, number: int, command: list[str], timeout: float):
    case = draw_case(seed, number)
    rng = random.Random(f"{seed}-{number}-bytes")
    originals = {}
    for name, target, changes, bad, ending in case:
        path = project / name
        originals.setdefault(path, path.read_bytes())
        path.write_bytes(written(path.read_bytes(), target, changes, bad, ending, rng.random()))
    site = project / "_site"
    before = snapshot(site) if site.exists() else {}
    try:
        code, stderr, seconds = run_once(project, command, timeout)
        changed = (snapshot(site) if site.exists() else {}) != before
    finally:
        for path, data in originals.items():
            path.write_bytes(data)
    verdict, detail = judge(code, stderr, changed and code != 0)
    return verdict, detail, seconds, case, stderr


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--case", type=int, help="run only this case number (with --show: print its output)")
    parser.add_argument("--show", action="store_true", help="print each case's mutations and output")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds one run may take (default 60)")
    parser.add_argument(
        "--command",
        default="build --no-search",
        help="the command each case runs (default: 'build --no-search', with the cache)",
    )
    parser.add_argument("--fixture", default="mini", help="a project of tests/projects/ (default: mini)")
    options = parser.parse_args()
    os.environ.pop("ATLAS_TRACEBACK", None)
    command = options.command.split()
    numbers = [options.case] if options.case is not None else list(range(options.count))
    counts: Counter = Counter()
    samples: dict[str, list] = {}
    slowest = (0.0, None)
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="atlas-fuzz-") as tmp:
        project = prepare(Path(tmp), options.fixture)
        code, stderr, _ = run_once(project, command, options.timeout)  # the site a failed run leaves alone
        if code != 0:
            print(f"the unmutated fixture does not pass `{options.command}`:\n{stderr}", file=sys.stderr)
            return 1
        for index, number in enumerate(numbers, 1):
            verdict, detail, seconds, case, stderr = run_case(
                project, options.seed, number, command, options.timeout
            )
            counts[verdict] += 1
            slowest = max(slowest, (seconds, number), key=lambda item: item[0])
            if verdict not in ("success", "clean", "output-located"):
                samples.setdefault(verdict, []).append((number, detail))
                print(f"case {number}: {verdict}: {detail[:300]}", flush=True)
            if options.show:
                print(f"case {number} ({seconds:.1f} s): {case!r}\n{stderr}", flush=True)
            if index % 50 == 0:
                print(f"… {index} cases in {time.monotonic() - start:.0f} s: " + _counts(counts), flush=True)
    elapsed = time.monotonic() - start
    print(
        f"seed {options.seed}, {len(numbers)} cases of `{options.command}` in {elapsed:.0f} s "
        f"(slowest case {slowest[1]}: {slowest[0]:.1f} s): {_counts(counts)}"
    )
    bad = sum(len(cases) for cases in samples.values())
    return 1 if bad else 0


def _counts(counts: Counter) -> str:
    kinds = (
        "success",
        "clean",
        "output-located",
        "internal",
        "traceback",
        "hang",
        "unlocated",
        "site-changed",
    )
    return ", ".join(f"{kind} {counts[kind]}" for kind in kinds)


if __name__ == "__main__":
    raise SystemExit(main())
