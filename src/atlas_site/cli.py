"""argv -> the command that runs it (commands/). This module only parses and dispatches; what a
command does and prints lives in commands/<name>.py."""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys

from .commands import build, check, edition, init, new, serve, sync
from .commands.build import EXPORT_FORMATS
from .commands.console import EXIT_INTERNAL, EXIT_INTERRUPTED
from .diagnostics import one_line


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date YYYY-MM-DD, got '{text}'") from None


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: give 1-65535 (0 picks a free one)")
    return port


def _nonempty(what: str):
    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{what} is empty")
        if not text.isprintable():
            raise argparse.ArgumentTypeError(f"{what} '{one_line(text)}' holds a control character")
        return text

    return parse


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="atlas-site", description="Build, check and serve a bilingual textbook described by book.yaml."
    )
    parser.add_argument("--root", default=".", help="project folder (default: current folder)")
    commands = parser.add_subparsers(dest="command", required=True)
    build_options = argparse.ArgumentParser(add_help=False)
    build_options.add_argument(
        "--out", type=_nonempty("the folder name"), help="output folder (default: <root>/_site)"
    )
    build_options.add_argument("--progress", action="store_true", help="print each stage as it starts")
    build_options.add_argument("--no-search", action="store_true", help="skip the Pagefind search index")
    build_options.add_argument(
        "--no-cache", action="store_true", help="a cold build: ignore and do not update .atlas-cache/"
    )
    build_options.add_argument(
        "--as-of",
        type=_date,
        metavar="DATE",
        help="judge evidence freshness on this day (the dashboard marks what is past due)",
    )
    build_cmd = commands.add_parser(
        "build", parents=[build_options], help="build the site into _site/ (atomically)"
    )
    build_cmd.add_argument(
        "--export",
        choices=sorted(EXPORT_FORMATS),
        help="also make the print (pdf) and e-book (epub) editions: export",
    )
    build_cmd.set_defaults(run=build.run)
    export_cmd = commands.add_parser(
        "export",
        parents=[build_options],
        help="make the PDF (Chromium) and EPUB editions of every language, then build the site that links them",
    )
    export_cmd.add_argument("format", choices=sorted(EXPORT_FORMATS), help="pdf, epub or all")
    export_cmd.set_defaults(run=build.run_export)
    check_cmd = commands.add_parser(
        "check", help="validate, render in memory and run the gates; writes nothing"
    )
    check_cmd.add_argument("--browser", action="store_true", help="also run the browser gates in Chromium")
    check_cmd.add_argument(
        "--release",
        action="store_true",
        help="fail while a page is a draft, a translation is behind or evidence is past due",
    )
    check_cmd.add_argument(
        "--explain",
        type=_nonempty("the code"),
        metavar="CODE",
        help="explain a diagnostic code and how to fix it",
    )
    check_cmd.add_argument(
        "--reproducible", action="store_true", help="also build twice and compare every byte"
    )
    check_cmd.add_argument(
        "--as-of",
        type=_date,
        metavar="DATE",
        help="judge evidence freshness and translation grace on this day (--release without it: book.yaml's edition date, else today)",
    )
    check_cmd.add_argument(
        "--warn-due-by",
        type=_date,
        metavar="DATE",
        help="also list, as warnings, the evidence past due on this day (the verdict stays the judged day's)",
    )
    check_cmd.set_defaults(run=check.run)
    edition_cmd = commands.add_parser(
        "edition",
        help="keep the edition book.yaml names in ledger/editions/<n>/ (what changed is measured against it)",
    )
    edition_cmd.add_argument(
        "action", choices=["freeze"], help="freeze: write the snapshot (never over an existing one)"
    )
    edition_cmd.set_defaults(run=edition.run)
    init_cmd = commands.add_parser(
        "init", help="start a new book in an empty folder (the default theme, one sample page)"
    )
    init_cmd.add_argument(
        "dir", type=_nonempty("the folder"), metavar="DIR", help="the new book's folder (absent or empty)"
    )
    init_cmd.add_argument(
        "--languages",
        default="zh,en",
        metavar="CODES",
        help="its languages, comma-separated (default: zh,en)",
    )
    init_cmd.set_defaults(run=init.run)
    new_cmd = commands.add_parser(
        "new", help="scaffold a new chapter (a draft in every language, and its book.yaml entry)"
    )
    new_cmd.add_argument("kind", choices=["chapter"], help="what to create")
    new_cmd.add_argument("id", type=_nonempty("the chapter id"), help="the chapter's page id, e.g. ch15")
    new_cmd.add_argument(
        "--title",
        action="append",
        type=_nonempty("the title"),
        metavar="LANG=TITLE",
        help="the title in one language; repeat for each",
    )
    new_cmd.set_defaults(run=new.run)
    sync_cmd = commands.add_parser(
        "sync", help="declare sections in step across languages (content/translations.lock)"
    )
    sync_cmd.add_argument(
        "sections", nargs="*", metavar="SECTION", help="PAGE#SECTION, PAGE (all its sections) or a part FILE"
    )
    sync_cmd.add_argument(
        "--all", action="store_true", help="declare every section in step (after a full review)"
    )
    sync_cmd.add_argument(
        "--minor", action="store_true", help="the edits since the last sync need no translation"
    )
    sync_cmd.add_argument(
        "--status", action="store_true", help="print what is outdated, missing or not yet in step"
    )
    sync_cmd.add_argument(
        "--date", type=_date, metavar="DATE", help="the day to record changes on (default: today)"
    )
    sync_cmd.set_defaults(run=sync.run)
    serve_cmd = commands.add_parser(
        "serve", help="build, serve on localhost, rebuild and reload on every edit"
    )
    serve_cmd.add_argument("--port", type=_port, default=8000, help="port on 127.0.0.1 (0 picks a free one)")
    serve_cmd.add_argument(
        "--search", action="store_true", help="rebuild the search index on every edit too (slower)"
    )
    serve_cmd.set_defaults(run=serve.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    if os.environ.get("ATLAS_STRICT_CODES"):  # the test suite's processes: every code must be explained
        from .diagnostics import explain_codes_from
        from .explain import codes

        explain_codes_from(codes)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print("atlas-site: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `atlas-site sync --status | head -1`: the reader left; nothing more to say
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush does not fail again
        return 0
    except Exception as error:  # a bug of ours: one line, never a traceback (ATLAS_TRACEBACK=1 shows it)
        if os.environ.get("ATLAS_TRACEBACK"):
            raise
        print(
            f"atlas-site: internal error: {type(error).__name__}: {error} "
            "(hint: this is a bug in atlas-site; ATLAS_TRACEBACK=1 shows where)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
