"""`atlas-site new chapter ID`: a draft chapter in every language, and its book.yaml entry."""

from __future__ import annotations

from pathlib import Path

from .console import EXIT_PROBLEMS, print_problems


def run(args) -> int:
    from ..scaffold import new_chapter

    root = Path(args.root).resolve()
    titles = {}
    for item in args.title or []:
        lang, sep, text = item.partition("=")
        titles[lang.strip()] = text.strip() if sep else ""
    written, problems = new_chapter(root, args.id, titles)
    if problems:
        print_problems(problems)
        return EXIT_PROBLEMS
    print(
        "created "
        + ", ".join(written)
        + f": chapter '{args.id}' is a draft; write its sections, then add its rules to book.yaml"
    )
    return 0
