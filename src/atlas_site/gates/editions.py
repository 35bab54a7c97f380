"""The e-book editions in `check --release`: what a release publishes as downloads is made from the
pages just rendered and checked before anyone downloads it.

Each language's EPUB is made in memory (export/epub.py, as `export epub` makes it) and checked for
what a reader of it relies on: its navigation lists every chapter and every section of each (an
e-reader's contents are all the book's structure it has), its pages hold no script, handler or
inline style (reading systems refuse or strip them), and Debian's epubcheck finds no error and no
warning when it is installed (the gate says when it is not, and did not run it)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from io import BytesIO
from pathlib import Path

from ..diagnostics import Diagnostic, SourceLocation
from .report import GateReport

EPUBCHECK_JAR = Path("/usr/share/java/epubcheck.jar")  # Debian's epubcheck package
XHTML = "{http://www.w3.org/1999/xhtml}"
EPUB_TYPE = "{http://www.idpf.org/2007/ops}type"
SCRIPTED = re.compile(r"<script\b|\son[a-z]+=|\sstyle=")
EPUBCHECK_SUMMARY = re.compile(r"Messages: (\d+) fatals? / (\d+) errors? / (\d+) warnings?")
EPUBCHECK_PROBLEM = re.compile(r"^(FATAL|ERROR|WARNING)\(([\w-]+)\): (.*)$", re.M)
GLOSSARY = "glossary"  # its sections are its initial letters: not contents


def epubcheck_command() -> list[str] | None:
    """How to run epubcheck here (ATLAS_EPUBCHECK names a jar), or None when it is not installed."""
    jar = Path(os.environ.get("ATLAS_EPUBCHECK", EPUBCHECK_JAR))
    java = shutil.which("java")
    return [java, "-jar", str(jar)] if java and jar.is_file() else None


def edition_gates(result, root: Path) -> list[GateReport]:
    """The EPUB of every language of the book: made, its navigation and pages read, epubcheck run."""
    from ..export.assemble import assemble_edition
    from ..export.downloads import site_path
    from ..export.epub import make_epub

    book, output, env = result.book, result.output, result.env
    problems: list[Diagnostic] = []
    made: dict[str, bytes] = {}
    sections = 0
    for lang in book.languages:
        data = make_epub(assemble_edition(book, output, lang, env), env, root)
        path = site_path(book, lang, "epub")
        made[path] = data
        found, checked = _navigation_and_pages(path, data)
        problems += found
        sections += checked
    command = epubcheck_command()
    if command is not None:
        problems += _epubcheck(command, made)
    if command is None:
        epubcheck = "epubcheck is not installed: not run (apt-get install epubcheck)"
    else:
        said = sum(p.code == "gate.editions.epubcheck" for p in problems)
        epubcheck = f"epubcheck: {said} errors or warnings"

    return [
        GateReport(
            "editions",
            f"{len(made)} EPUBs ({', '.join(made)}): {sections} sections in their navigation, "
            f"no script or inline style; {epubcheck}",
            problems,
        )
    ]


def _navigation_and_pages(path: str, data: bytes) -> tuple[list[Diagnostic], int]:
    """Every chapter and every section heading (h2, h3 with an id) of each is in the navigation;
    no page holds a script, an event handler or an inline style."""
    where = SourceLocation(f"_site/{path}")
    archive = zipfile.ZipFile(BytesIO(data))
    nav = ET.fromstring(archive.read("EPUB/nav.xhtml"))
    toc = next((n for n in nav.iter(f"{XHTML}nav") if n.get(EPUB_TYPE) == "toc"), None)
    if toc is None:
        return [Diagnostic(where, "gate.editions.navigation", f"{path}: no table of contents")], 0
    listed = {a.get("href") for a in toc.iter(f"{XHTML}a")}
    problems, checked = [], 0
    for name in sorted(n for n in archive.namelist() if n.startswith("EPUB/text/") and n.endswith(".xhtml")):
        text = archive.read(name).decode("utf-8")
        if SCRIPTED.search(text):
            problems.append(
                Diagnostic(
                    where,
                    "gate.editions.scripted",
                    f"{path}: {name} holds a script, an event handler or an inline style",
                )
            )
        href = name.removeprefix("EPUB/")
        chapter = Path(href).stem
        if href not in listed:
            problems.append(
                Diagnostic(where, "gate.editions.navigation", f"{path}: {href} is not in the navigation")
            )
        if chapter == GLOSSARY:
            continue
        for heading in ET.fromstring(text).iter():
            if heading.tag in (f"{XHTML}h2", f"{XHTML}h3") and heading.get("id"):
                checked += 1
                if f"{href}#{heading.get('id')}" not in listed:
                    problems.append(
                        Diagnostic(
                            where,
                            "gate.editions.navigation",
                            f"{path}: section {href}#{heading.get('id')} is not in the navigation",
                        )
                    )
    return problems, checked


def _epubcheck(command: list[str], made: dict[str, bytes]) -> list[Diagnostic]:
    """epubcheck over every EPUB at once (one Java each; they take seconds to start): one line per
    message it prints, located at the EPUB."""
    problems = []
    with tempfile.TemporaryDirectory(prefix="atlas-epub-") as folder:
        runs = {}
        for path, data in made.items():
            file = Path(folder) / Path(path).name
            file.write_bytes(data)
            runs[path] = subprocess.Popen(
                [*command, str(file)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
            )
        for path, run in runs.items():
            report = run.communicate(timeout=900)[0]
            where = SourceLocation(f"_site/{path}")
            messages = EPUBCHECK_PROBLEM.findall(report)
            problems += [
                Diagnostic(
                    where,
                    "gate.editions.epubcheck",
                    f"{path}: epubcheck {level} {code}: {text.replace(folder + '/', '')}",
                )
                for level, code, text in messages
            ]
            summary = EPUBCHECK_SUMMARY.search(report)
            if not messages and (
                run.returncode != 0 or summary is None or summary.groups() != ("0", "0", "0")
            ):
                last = report.strip().splitlines()[-1:] or ["no output"]
                problems.append(
                    Diagnostic(
                        where,
                        "gate.editions.epubcheck",
                        f"{path}: epubcheck exited with {run.returncode}: {last[0]}",
                    )
                )
    return problems
