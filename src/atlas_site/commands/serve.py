"""`atlas-site serve`: build, serve on localhost, rebuild and update open pages on every edit."""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import AtlasError
from .console import EXIT_PROBLEMS, print_problems


def run(args) -> int:
    from ..serve import serve

    root = Path(args.root).resolve()
    try:
        serve(root, root / "_site", port=args.port, search=args.search)
    except AtlasError as error:
        print_problems(error.diagnostics)
        return EXIT_PROBLEMS
    return 0
