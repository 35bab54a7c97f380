"""What every command prints: problems one line each, causes first; the exit codes; the summary."""

from __future__ import annotations

import sys

from ..diagnostics import causes_first

EXIT_PROBLEMS = 2
EXIT_INTERNAL = 70  # EX_SOFTWARE
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl-C


def announce(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def progress(stage: str) -> None:
    print(f"  … {stage}", file=sys.stderr, flush=True)


def summary(result, elapsed: float) -> str:
    book = result.book
    stages = ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in result.timings.items())
    if book is None:
        return f"in {elapsed:.2f} s ({stages})"
    pages = sum(1 for p in result.output.paths() if p.endswith(".html")) if result.output else 0
    return (
        f"{pages} pages, {len(book.registry.works)} sources ({len(book.registry.nodes)} nodes, "
        f"{len(book.registry.references)} references), {len(book.claims)} claims, "
        f"{len(book.examples)} examples, "
        f"{len(book.figures)} figures, {len(book.labs)} labs in {elapsed:.2f} s ({stages})"
    )


def print_problems(problems, suppressed: int = 0) -> None:
    for problem in causes_first(problems):
        print(problem, file=sys.stderr)
    if suppressed:
        print(f"({suppressed} follow-on problem(s) of the causes above not shown)", file=sys.stderr)


def print_warnings(cache) -> None:
    for line in getattr(cache, "warnings", []):
        print(line, file=sys.stderr)
