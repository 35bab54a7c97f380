"""`atlas-site export pdf|epub|all`: every language of the book as a PDF and an EPUB, made from the
site just rendered in memory and kept in the downloads store (downloads.py). The EPUB needs
nothing but Python; the PDF needs Chromium and the Noto CJK fonts, and says how to get them."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import AtlasError, Diagnostic, SourceLocation
from ..theme import shown_name, theme_path
from ..validate.strings import theme_template_keys
from .downloads import human_size, keep, site_path

INSTALL_HINT = (
    "bash scripts/test.sh installs it (apt-get install chromium fonts-noto-cjk; pip install -e '.[test]'); "
    "ATLAS_CHROMIUM names another Chromium"
)
PRINT_CSS = "export/print.css"  # a theme file (theme.py)


@dataclass(frozen=True)
class Made:
    path: str  # in the site
    size: str
    seconds: float
    detail: str  # pages and passes of a PDF, files of an EPUB


def export_editions(root: Path, result, formats: tuple[str, ...], version: str) -> list[Made]:
    """Make the editions in `formats` for every language from the build's rendered pages, in its
    environment, keep them (under `version`, the export stage's), and say what was made. Raises
    AtlasError with one located line per problem."""
    book, output = result.book, result.output
    _check_inputs(root, book, formats)
    from .assemble import assemble_edition

    env = result.env
    editions = [assemble_edition(book, output, lang, env) for lang in book.languages]
    made: list[Made] = []
    files: dict[str, bytes] = {}
    if "epub" in formats:
        from .epub import make_epub

        for edition in editions:
            start = time.perf_counter()
            data = make_epub(edition, env, root)
            path = site_path(book, edition.lang, "epub")
            files[path] = data
            made.append(
                Made(
                    path,
                    human_size(len(data)),
                    time.perf_counter() - start,
                    f"{len(edition.chapters)} chapters",
                )
            )
    if "pdf" in formats:
        made += _pdfs(root, editions, env, output, files)
    keep(root, book, version, files)
    return made


def printed_editions(root: Path, result, editions, browser=None) -> dict[str, bytes]:
    """The PDFs of `editions` (export/assemble.py) in memory, printed as `export pdf` prints them
    (the editions gate reads them) by `browser` or a Chromium of its own; AtlasError with one
    located line per problem, as for export."""
    _check_inputs(root, result.book, ("pdf",))
    files: dict[str, bytes] = {}
    _pdfs(root, editions, result.env, result.output, files, browser)
    return files


def _pdfs(root: Path, editions, env, output, files: dict[str, bytes], browser=None) -> list[Made]:
    from .pdf import TocMismatch, TooWide, make_pdf
    from .pdf_finish import page_count

    made = []
    with contextlib.nullcontext(browser) if browser else _browser() as browser:
        for edition in editions:
            start = time.perf_counter()
            try:
                data, passes = make_pdf(edition, env, root, output, browser)
            except TocMismatch as mismatch:
                raise AtlasError(
                    [
                        Diagnostic(
                            SourceLocation(shown_name(root, theme_path(root, PRINT_CSS))),
                            "export.pdf-toc",
                            f"{edition.lang}: {mismatch}",
                            "a rule that changes a line's height by its page number (e.g. on .toc-page)",
                        )
                    ]
                ) from None
            except TooWide as wide:
                raise AtlasError(
                    [
                        Diagnostic(
                            SourceLocation(shown_name(root, theme_path(root, PRINT_CSS))),
                            "export.pdf-too-wide",
                            str(wide),
                            "let it wrap on paper (overflow-wrap, a fixed table layout) or fit it to the text width",
                        )
                    ]
                ) from None
            except (
                Exception
            ) as error:  # Playwright reports a crash or a timeout of the print as its own Error
                raise AtlasError(
                    [
                        Diagnostic(
                            SourceLocation("templates/export/print.html.j2"),
                            "export.print",
                            f"{edition.lang}: Chromium could not print the book: {_first_line(error)}",
                        )
                    ]
                ) from None
            path = site_path(edition.book, edition.lang, "pdf")
            files[path] = data
            made.append(
                Made(
                    path,
                    human_size(len(data)),
                    time.perf_counter() - start,
                    f"{page_count(data)} pages, {passes} passes",
                )
            )
    return made


@contextlib.contextmanager
def _browser():
    """Chromium through Playwright, or one located line saying what is missing and how to get it."""
    from ..gates.browser import chromium_path, launched_browser

    binary = chromium_path()
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)) and shutil.which(binary) is None:
        raise AtlasError(
            [
                Diagnostic(
                    SourceLocation(binary),
                    "export.browser",
                    "the PDF edition is printed by Chromium, which is not installed here",
                    INSTALL_HINT,
                )
            ]
        )
    with contextlib.ExitStack() as stack:
        try:
            browser = stack.enter_context(launched_browser())
        except ImportError:
            raise AtlasError(
                [
                    Diagnostic(
                        SourceLocation(binary),
                        "export.browser",
                        "the PDF edition is printed by Chromium through Playwright, which is not installed",
                        INSTALL_HINT,
                    )
                ]
            ) from None
        except Exception as error:  # Playwright's own Error: the binary would not start
            raise AtlasError(
                [
                    Diagnostic(
                        SourceLocation(binary),
                        "export.browser",
                        f"Chromium would not start: {_first_line(error)}",
                        INSTALL_HINT,
                    )
                ]
            ) from None
        yield browser


def _check_inputs(root: Path, book, formats: tuple[str, ...]) -> None:
    """What the editions need from the book and the machine, checked before any is made."""
    problems = []
    needed = theme_template_keys(root, "export")
    for lang in book.languages:
        missing = sorted(needed - set(book.strings.get(lang, {})))
        if missing:
            problems.append(
                Diagnostic(
                    SourceLocation(f"templates/strings/{lang}.yaml", 1, 1),
                    "strings.missing-key",
                    f"templates/strings/{lang}.yaml lacks {', '.join(missing)}, which the editions use (templates/export/)",
                )
            )
        pages = book.pages_in(lang)
        if pages and not any(p.meta.last_verified for p in pages):
            problems.append(
                Diagnostic(
                    pages[0].origin,
                    "export.no-date",
                    f"no page in '{lang}' has `last_verified`: the editions are dated by their newest page, never by the clock",
                )
            )
    if "pdf" in formats:
        problems += _missing_fonts(root)
    if problems:
        raise AtlasError(problems)


def _missing_fonts(root: Path) -> list[Diagnostic]:
    from .pdf import CJK_FONTS

    try:
        listed = subprocess.run(
            ["fc-list", "--format", "%{family}\n"], capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        listed = ""
    families = {name.strip() for line in listed.splitlines() for name in line.split(",")}
    css = theme_path(root, PRINT_CSS).read_text(encoding="utf-8").splitlines()
    problems = []
    for family in CJK_FONTS:
        if family not in families:
            line = next((number for number, text in enumerate(css, 1) if family in text), 0)
            col = css[line - 1].index(family) + 1 if line else 0
            problems.append(
                Diagnostic(
                    SourceLocation(shown_name(root, theme_path(root, PRINT_CSS)), line, col),
                    "export.font",
                    f"the font '{family}' that print.css names is not installed",
                    "apt-get install fonts-noto-cjk",
                )
            )
    return problems


def _first_line(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__
