"""The Jinja environment of one build, shared by its pages, labs and figures."""

from __future__ import annotations

from pathlib import Path

from jinja2 import FileSystemLoader, StrictUndefined, TemplateNotFound, TemplateSyntaxError, select_autoescape

from ..diagnostics import Diagnostic, SourceLocation
from ..template_memo import MemoEnvironment
from ..theme import theme_folders

TEMPLATE_ERRORS = (TemplateNotFound, TemplateSyntaxError)  # the theme is an input too: a located line each


def make_environment(root: Path, editions=(), book_css: bool = False) -> MemoEnvironment:
    """One environment per build, never changed once made (serve renders on two threads: a shared
    one whose globals each build set was a race). `editions`: the print and e-book editions the
    site links (export/downloads.py). Compiling again per build costs little: template_memo.py
    keeps each template source's code for the process."""
    env = MemoEnvironment(
        loader=FileSystemLoader([str(folder) for folder in theme_folders(root)]),
        autoescape=select_autoescape(enabled_extensions=("html", "j2", "svg"), default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # Jinja's optimizer folds constant expressions at compile time: a quarter of the compile of
        # templates a build renders a few times each, for output that is the same byte for byte
        optimized=False,
    )
    env.globals["editions"] = tuple(editions)  # every page's footer links those of its language
    env.globals["book_css"] = book_css  # the book's own stylesheet (book.yaml theme: css), after the theme's
    return env


def template_problem(error) -> Diagnostic:
    """A missing or broken template of the theme, as one located line."""
    if isinstance(error, TemplateSyntaxError):
        name = error.filename or error.name or "?"
        path = Path(name).as_posix()
        shown = "templates/" + path.split("/templates/", 1)[1] if "/templates/" in path else path
        return Diagnostic(
            SourceLocation(shown, error.lineno or 0, 1),
            "template.syntax",
            f"the template does not parse: {error.message}",
            "fix the template",
        )
    return Diagnostic(
        SourceLocation(f"templates/{error.name}"),
        "template.missing",
        f"the theme has no template '{error.name}'",
        "restore the file (git checkout templates/)",
    )
