"""The Jinja environment shared by pages, labs and figures."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from jinja2 import FileSystemLoader, StrictUndefined, select_autoescape

from ..template_memo import MemoEnvironment


@lru_cache(maxsize=4)
def make_environment(root: Path) -> MemoEnvironment:
    """One environment per project: compiled templates are reused across rebuilds (Jinja checks
    each template's file and recompiles the ones that changed)."""
    env = MemoEnvironment(
        loader=FileSystemLoader(str(root / "templates")),
        autoescape=select_autoescape(enabled_extensions=("html", "j2", "svg"), default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # Jinja's optimizer folds constant expressions at compile time: a quarter of the compile of
        # templates a build renders a few times each, for output that is the same byte for byte
        optimized=False,
    )
    env.globals["editions"] = ()  # the print and e-book editions a site links (render_site sets them per build)
    return env
