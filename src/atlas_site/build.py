"""A build, as the commands ask for it: `assemble` runs the pipeline's stages in memory (check,
serve, the tests), `build` runs them to the written site (build, export). The stages themselves,
and what each reads and makes, are declared once in pipeline.py."""

from __future__ import annotations

from pathlib import Path

from .cache import BuildCache, NoCache
from .diagnostics import AtlasError
from .pipeline import ASKED_AGAIN, IN_MEMORY, Run, run

BuildResult = Run  # what a build leaves: every stage's results, its problems and its timings

__all__ = ["ASKED_AGAIN", "BuildResult", "assemble", "build"]


def assemble(
    root: Path,
    progress=None,
    release: bool = False,
    cache: BuildCache | None = None,
    as_of=None,
    rendered=None,
) -> BuildResult:
    """Load, validate, parse, resolve, render and gate, all in memory. Never writes. With a cache,
    only what an edit affects is parsed, computed and rendered again (content hashes decide).
    `rendered(result)`, when given, sees the result as soon as its pages are rendered, before the
    gates (serve pushes an edit to open pages from there; the gates' verdict follows).
    `as_of` (a date) is the day evidence freshness is judged on; None judges nothing: the build
    never reads the clock, so the same inputs always give the same bytes."""
    state = Run(root=root, cache=cache or NoCache(ASKED_AGAIN), release=release, as_of=as_of)
    return run(state, IN_MEMORY, progress, after={"render": rendered} if rendered else None)


def build(
    root: Path,
    destination: Path,
    progress=None,
    search: bool = True,
    cache: BuildCache | None = None,
    as_of=None,
    export: tuple[str, ...] = (),
    rendered=None,
) -> BuildResult:
    """`export` names the editions to make first (pdf, epub): made of the pages just rendered, then
    the same run renders and gates again (nothing loaded or parsed again) so that every page links
    them. `rendered` as for assemble()."""
    result = assemble(root, progress, cache=cache, as_of=as_of, rendered=None if export else rendered)
    if result.errors:
        raise AtlasError(result.errors, result.suppressed)
    if export:
        result.formats = export
        run(result, ("export",), progress)
        if result.errors:
            raise AtlasError(result.errors, result.suppressed)
        first = dict(result.timings)
        run(
            result,
            ("render", "gates", "dashboard"),
            progress,
            after={"render": rendered} if rendered else None,
        )
        relink = sum(result.timings[name] - first.get(name, 0.0) for name in ("render", "gates", "dashboard"))
        result.timings = {**first, "relink": relink}
        if result.errors:
            raise AtlasError(result.errors, result.suppressed)
    result.destination, result.search = destination, search
    return run(result, ("write",), progress)
