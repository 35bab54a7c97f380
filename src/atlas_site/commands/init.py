"""`atlas-site init DIR [--languages zh,en]`: start a new book with the default theme."""

from __future__ import annotations

import argparse
import datetime
from pathlib import Path

from . import sync
from .console import EXIT_PROBLEMS, print_problems


def run(args) -> int:
    from ..starter import init_book

    target = Path(args.dir)
    languages = [code.strip() for code in args.languages.split(",") if code.strip()]
    today = datetime.date.today()
    written, problems = init_book(target, languages, today)
    if problems:
        print_problems(problems)
        return EXIT_PROBLEMS
    if len(languages) > 1:  # the sample says the same in every language: declare its sections in step
        declared = argparse.Namespace(
            root=str(target), sections=[], all=True, minor=False, status=False, date=today
        )
        if sync.run(declared) != 0:
            return EXIT_PROBLEMS
    print(f"created {target}/ ({len(written)} files): cd {target} && atlas-site serve")
    return 0
