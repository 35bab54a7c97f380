"""`atlas-site build` and `atlas-site export`: the site (and the editions) written atomically."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ..diagnostics import AtlasError
from ..uptodate import inputs_digest, is_up_to_date, record
from ..write import check_destination, project_lock
from .console import EXIT_PROBLEMS, announce, print_problems, print_warnings, progress, summary

EXPORT_FORMATS = {"pdf": ("pdf",), "epub": ("epub",), "all": ("pdf", "epub")}


def run(args) -> int:
    root = Path(args.root).resolve()
    out = Path(args.out).resolve() if args.out else root / "_site"
    start = time.perf_counter()
    options = {"search": not args.no_search, "as_of": str(args.as_of) if args.as_of else None}
    export = EXPORT_FORMATS[args.export] if getattr(args, "export", None) else ()
    try:
        check_destination(out, root)  # before any work: a folder we may not replace stops here
    except AtlasError as error:
        print_problems(error.diagnostics)
        return EXIT_PROBLEMS
    with project_lock(root, announce=announce):
        inputs = None if args.no_cache else inputs_digest(root, options)
        if not export and not args.no_cache and is_up_to_date(root, out, options, inputs):
            print(f"{out} is up to date (no input changed) in {time.perf_counter() - start:.2f} s")
            return 0
        from ..build import ASKED_AGAIN, build
        from ..cache import BuildCache, NoCache

        # one build: in memory only what it reads again; the rest is read from the folder once
        cache = (
            NoCache(ASKED_AGAIN)
            if args.no_cache
            else BuildCache(root / ".atlas-cache" / "artefacts", remember=ASKED_AGAIN)
        )
        try:
            result = build(
                root,
                out,
                progress=progress if args.progress else None,
                search=not args.no_search,
                cache=cache,
                as_of=args.as_of,
                export=export,
            )
        except AtlasError as error:
            print_problems(error.diagnostics, error.suppressed)
            print_warnings(cache)
            print(f"build failed: {len(error.diagnostics)} problem(s); {out} left as it was", file=sys.stderr)
            return EXIT_PROBLEMS
        if not args.no_cache:
            cache.forget_unused()
            if not cache.warnings:
                try:
                    record(root, out, options, inputs)
                except OSError as error:
                    cache.warn(f"cannot record the build ({error.strerror or error})")
    print_warnings(cache)
    print_problems([p for p in result.problems if p.severity == "warning"])  # warnings never fail a build
    for made in result.exported:
        print(f"exported {out / made.path}: {made.size}, {made.detail}, {made.seconds:.1f} s")
    print(f"built {out}: " + summary(result, time.perf_counter() - start))
    print(f"open {out / 'index.html'} in a browser, or serve it: python -m http.server -d {out}")
    return 0


def run_export(args) -> int:
    args.export = args.format
    return run(args)
