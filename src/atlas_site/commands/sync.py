"""`atlas-site sync`: declare sections in step across languages (content/translations.lock)."""

from __future__ import annotations

from pathlib import Path

from ..write import project_lock
from .console import EXIT_PROBLEMS, announce, print_problems


def run(args) -> int:
    from ..pipeline import UNTIL_PARSE, Run
    from ..pipeline import run as run_stages
    from ..translations.sync import run_sync

    root = Path(args.root).resolve()

    def pages():  # the book's pages as they read: the pipeline up to the parse
        state = run_stages(Run(root=root), UNTIL_PARSE)
        return state.book, state.parsed, state.problems

    # two syncs at once would each read the lock, add their declaration and write: one would be lost
    with project_lock(root, "sync", announce=announce):
        code, problems = run_sync(
            root,
            pages,
            args.sections,
            everything=args.all,
            minor=args.minor,
            status=args.status,
            day=args.date,
        )
    print_problems(problems)
    return EXIT_PROBLEMS if code else 0
