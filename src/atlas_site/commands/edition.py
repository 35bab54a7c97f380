"""`atlas-site edition freeze`: keep the edition book.yaml names as a snapshot in
ledger/editions/<n>/ (its claims.json as published, its sources and its sections), which the
next edition's "what changed" pages compare against. A snapshot is written once, never over."""

from __future__ import annotations

from pathlib import Path

from .console import EXIT_PROBLEMS, print_problems


def run(args) -> int:
    from ..editions import freeze
    from ..pipeline import Run
    from ..pipeline import run as run_stages

    root = Path(args.root).resolve()
    state = run_stages(Run(root=root), ("load", "validate", "parse", "resolve", "render"))
    if state.errors or state.output is None or state.book is None:
        print_problems(state.errors or state.problems)
        return EXIT_PROBLEMS
    folder, problems = freeze(root, state.book, state.output["claims.json"], state.translations)
    if problems:
        print_problems(problems)
        return EXIT_PROBLEMS
    assert folder is not None  # freeze says why it wrote nothing
    print(f"froze edition {folder.name} in {folder.relative_to(root)}/: commit it with the release")
    return 0
