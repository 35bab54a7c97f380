"""The editions in `check --release`: what a release publishes as downloads is made from the
pages just rendered and checked before anyone downloads it.

Each language's EPUB is made in memory (export/epub.py, as `export epub` makes it) and checked for
what a reader of it relies on: its navigation lists every chapter and every section of each (an
e-reader's contents are all the book's structure it has), its pages hold no script, handler or
inline style (reading systems refuse or strip them), and Debian's epubcheck finds no error and no
warning when it is installed (the gate says when it is not, and did not run it).

With --browser, each language's PDF is printed (export/run.py, as `export pdf` prints it) and read
back: a bookmark for every chapter and section, in the contents' order, each opening the page its
heading is on; every internal link landing on a destination the document has; every font embedded,
as a font (no Type 3: glyphs drawn into the page); the document tagged, in its language."""

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

from ..diagnostics import AtlasError, Diagnostic, SourceLocation
from .report import GateReport

EPUBCHECK_JAR = Path("/usr/share/java/epubcheck.jar")  # Debian's epubcheck package
# A check lasts seconds: Java's quick compiler only, and one garbage-collector thread. On the Atlas's
# EPUB this took epubcheck from 9.2 to 4.1 CPU-seconds (5.8 to 3.1 s wall), with the same report.
JAVA_FLAGS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]
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
    return [java, *JAVA_FLAGS, "-jar", str(jar)] if java and jar.is_file() else None


def edition_gates(result, root: Path) -> list[GateReport]:
    """The EPUB of every language of the book: made, its navigation and pages read, epubcheck run."""
    return start_edition_gates(result, root, assembled_editions(result)).reports()


def assembled_editions(result) -> list:
    """Each language's edition (export/assemble.py), assembled once for the EPUB and the PDF, as
    `export` does: assembling re-parses every page."""
    from ..export.assemble import assemble_edition

    return [assemble_edition(result.book, result.output, lang, result.env) for lang in result.book.languages]


class EditionGates:
    """The EPUBs made and read, and epubcheck started on them: Java runs in processes of its own
    while the caller does other work (`check --release --browser` walks the pages meanwhile);
    `reports()` waits for it."""

    def __init__(self, made: dict[str, bytes], problems: list[Diagnostic], sections: int):
        self.made, self.problems, self.sections = made, problems, sections
        self.command = epubcheck_command()
        self.folder = tempfile.TemporaryDirectory(prefix="atlas-epub-")
        self.runs = {} if self.command is None else _start_epubcheck(self.command, made, self.folder.name)

    def reports(self) -> list[GateReport]:
        problems = list(self.problems)
        try:
            for path, run in self.runs.items():
                problems += _epubcheck_said(path, run, self.folder.name)
        finally:
            self.folder.cleanup()
        if self.command is None:
            epubcheck = "epubcheck is not installed: not run (apt-get install epubcheck)"
        else:
            said = sum(p.code == "gate.editions.epubcheck" for p in problems)
            epubcheck = f"epubcheck: {said} errors or warnings"
        return [
            GateReport(
                "editions",
                f"{len(self.made)} EPUBs ({', '.join(self.made)}): {self.sections} sections in their "
                f"navigation, no script or inline style; {epubcheck}",
                problems,
            )
        ]


def start_edition_gates(result, root: Path, editions: list) -> EditionGates:
    from ..export.downloads import site_path
    from ..export.epub import make_epub

    problems: list[Diagnostic] = []
    made: dict[str, bytes] = {}
    sections = 0
    for edition in editions:
        data = make_epub(edition, result.env, root)
        path = site_path(result.book, edition.lang, "epub")
        made[path] = data
        found, checked = _navigation_and_pages(path, data)
        problems += found
        sections += checked
    return EditionGates(made, problems, sections)


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


def _start_epubcheck(command: list[str], made: dict[str, bytes], folder: str) -> dict:
    """epubcheck over every EPUB at once (one Java each; they take seconds to start)."""
    runs = {}
    for path, data in made.items():
        file = Path(folder) / Path(path).name
        file.write_bytes(data)
        runs[path] = subprocess.Popen(
            [*command, str(file)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
    return runs


def _epubcheck_said(path: str, run, folder: str) -> list[Diagnostic]:
    """One line per message epubcheck printed about the EPUB at `path`, located at it."""
    report = run.communicate(timeout=900)[0]
    where = SourceLocation(f"_site/{path}")
    messages = EPUBCHECK_PROBLEM.findall(report)
    problems = [
        Diagnostic(
            where,
            "gate.editions.epubcheck",
            f"{path}: epubcheck {level} {code}: {text.replace(folder + '/', '')}",
        )
        for level, code, text in messages
    ]
    summary = EPUBCHECK_SUMMARY.search(report)
    if not messages and (run.returncode != 0 or summary is None or summary.groups() != ("0", "0", "0")):
        last = report.strip().splitlines()[-1:] or ["no output"]
        problems.append(
            Diagnostic(
                where, "gate.editions.epubcheck", f"{path}: epubcheck exited with {run.returncode}: {last[0]}"
            )
        )
    return problems


# -- the print edition ------------------------------------------------------------------------------
def print_gates(
    result, root: Path, editions: list, browser=None
) -> tuple[list[GateReport], dict[str, bytes]]:
    """The PDF of every language (`editions`: assembled_editions): printed by Chromium (`browser`,
    or one of its own), its outline, links, fonts and tags read. Returns the report and the PDFs
    (site path -> bytes; none when they could not be printed)."""
    from ..export.run import printed_editions

    try:
        printed = printed_editions(root, result, editions, browser)
    except AtlasError as error:
        return [GateReport("print editions", "not printed", error.diagnostics)], {}
    return [printed_report(result, editions, printed)], printed


def printed_report(result, editions, printed: dict[str, bytes]) -> GateReport:
    """The print gate's reading of PDFs already printed (`printed`: site path -> bytes, as
    export/run.printed_editions gives them): each edition's outline against its contents, its
    internal links, its fonts and tags."""
    from pypdf import PdfReader

    from ..export.downloads import site_path

    problems: list[Diagnostic] = []
    marks = links = 0
    fonts: dict[str, int] = {}  # kind -> fonts of that kind in all the PDFs
    for edition in editions:  # assembled once: printed, then read back against its contents
        path = site_path(result.book, edition.lang, "pdf")
        reader = PdfReader(BytesIO(printed[path]))
        where = SourceLocation(f"_site/{path}")
        found, checked = bookmark_problems(reader, edition.contents(deepest=2), path, where)
        problems += found
        marks += checked
        found, checked = _links(reader, path, where)
        problems += found
        links += checked
        found, kinds = _fonts_and_tags(reader, edition, path, where)
        problems += found
        for kind, count in kinds.items():
            fonts[kind] = fonts.get(kind, 0) + count
    embedded = ", ".join(f"{count} {kind}" for kind, count in sorted(fonts.items())) or "none"
    return GateReport(
        "print editions",
        f"{len(printed)} PDFs ({', '.join(printed)}): {marks} bookmarks on their headings' pages, "
        f"{links} internal links landing, fonts embedded: {embedded}, tagged in their languages",
        problems,
    )


def destinations(reader) -> dict[str, int]:
    """Named destination -> page index."""
    return {
        name.lstrip("/"): reader.get_destination_page_number(dest)
        for name, dest in reader.named_destinations.items()
    }


def outline(reader) -> list[tuple[str, int, list]]:
    """(title, page index, children) of every bookmark."""

    def tree(items):
        found: list[tuple[str, int, list]] = []
        for item in items:
            if isinstance(item, list):
                if found:
                    found[-1][2].extend(tree(item))
                continue
            found.append((str(item.title), reader.get_destination_page_number(item), []))
        return found

    return tree(reader.outline)


def link_targets(reader):
    """(page index, rect, named destination) of every internal link."""
    for index, page in enumerate(reader.pages):
        for annotation in page.get("/Annots") or []:
            annotation = annotation.get_object()
            if annotation.get("/Subtype") != "/Link":
                continue
            action = annotation.get("/A")
            name = (
                annotation.get("/Dest")
                if action is None
                else (action.get("/D") if action.get("/S") == "/GoTo" else None)
            )
            if name is not None:
                yield index, [float(v) for v in annotation["/Rect"]], str(name).lstrip("/")


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def bookmark_problems(reader, contents, path: str, where) -> tuple[list[Diagnostic], int]:
    """The outline is the contents: the same titles in the same order, each opening its heading's
    page (a series' name opens its first page's)."""
    from ..export.pdf import anchor

    landed = destinations(reader)
    problems: list[Diagnostic] = []
    checked = 0

    def compare(entries, marks, trail: str) -> None:
        nonlocal checked
        if [_squeeze(e.title) for e in entries] != [_squeeze(m[0]) for m in marks]:
            problems.append(
                Diagnostic(
                    where,
                    "gate.editions.bookmarks",
                    f"{path}: the bookmarks{trail} are {[m[0] for m in marks]}; "
                    f"the contents say {[e.title for e in entries]}",
                )
            )
            return
        for entry, (title, page, children) in zip(entries, marks, strict=True):
            first = entry if entry.chapter else entry.children[0]
            target = anchor(first.chapter, first.anchor)
            checked += 1
            if landed.get(target) != page:
                at = f"page {landed[target] + 1}" if target in landed else "no page of the document"
                problems.append(
                    Diagnostic(
                        where,
                        "gate.editions.bookmarks",
                        f"{path}: bookmark '{title}' opens page {page + 1}; its heading is on {at}",
                    )
                )
            compare(entry.children, children, f" under '{title}'")

    compare(contents, outline(reader), "")
    return problems, checked


def _links(reader, path: str, where) -> tuple[list[Diagnostic], int]:
    landed = destinations(reader)
    links = list(link_targets(reader))
    missing = sorted({name for _, _, name in links if name not in landed})
    return [
        Diagnostic(where, "gate.editions.links", f"{path}: a link leads to #{name}, which the document lacks")
        for name in missing
    ], len(links)


FONT_KINDS = {"/Type0": "CID", "/TrueType": "TrueType", "/Type1": "Type 1", "/Type3": "Type 3"}


def font_kinds(reader) -> tuple[dict[str, int], dict[str, tuple[int, int]]]:
    """(kind -> fonts of that kind, e.g. {'CID TrueType': 12}; Type 3 face -> (fonts, glyphs)):
    Chromium writes a face it cannot embed as Type 3 fonts of at most 256 glyphs each, named after
    the face in their descriptor."""
    from ..export.pdf_finish import fonts_used

    kinds: dict[str, int] = {}
    drawn: dict[str, tuple[int, int]] = {}
    for font in fonts_used(reader):
        subtype = str(font.get("/Subtype"))
        kind = FONT_KINDS.get(subtype, subtype.lstrip("/"))
        if subtype == "/Type0":
            descendant = font["/DescendantFonts"][0].get_object()
            kind = "CID TrueType" if descendant.get("/Subtype") == "/CIDFontType2" else "CID Type 0"
        kinds[kind] = kinds.get(kind, 0) + 1
        if subtype == "/Type3":
            descriptor = font.get("/FontDescriptor")
            name = descriptor.get_object().get("/FontName") if descriptor is not None else None
            face = str(name or font.get("/Name") or "unnamed").lstrip("/").split("+", 1)[-1]  # no subset tag
            fonts, glyphs = drawn.get(face, (0, 0))
            drawn[face] = (fonts + 1, glyphs + len(font.get("/CharProcs") or {}))
    return kinds, drawn


def _fonts_and_tags(reader, edition, path: str, where) -> tuple[list[Diagnostic], dict[str, int]]:
    from ..export.pdf_finish import fonts_used

    problems = []
    kinds, drawn = font_kinds(reader)
    for face, (fonts, glyphs) in sorted(drawn.items()):
        problems.append(
            Diagnostic(
                where,
                "gate.editions.type3",
                f"{path}: font {face} is drawn as {fonts} Type 3 fonts ({glyphs} glyphs), not embedded as a "
                "font: its text prints unhinted and is read worse by search, copying and screen readers",
                "a face with CFF outlines that export/print_fonts.py does not convert (PRINT_FAMILIES), "
                "or text the print stylesheet leaves to the system's font fallback",
            )
        )
    for font in fonts_used(reader):
        subtype = font.get("/Subtype")
        if subtype == "/Type3":  # its glyphs are drawn inside the document (gate.editions.type3)
            continue
        described = font["/DescendantFonts"][0].get_object() if subtype == "/Type0" else font
        descriptor = described.get("/FontDescriptor")
        descriptor = descriptor.get_object() if descriptor is not None else {}
        if not any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")):
            problems.append(
                Diagnostic(
                    where,
                    "gate.editions.fonts",
                    f"{path}: font {font.get('/BaseFont')} is not embedded (a reader without it sees another)",
                )
            )
    catalog = reader.trailer["/Root"]
    if catalog.get("/Lang") != edition.html_lang:
        problems.append(
            Diagnostic(
                where,
                "gate.editions.tags",
                f"{path}: the document's language is {catalog.get('/Lang')}, not {edition.html_lang}",
            )
        )
    if not (catalog.get("/MarkInfo") or {}).get("/Marked") or "/StructTreeRoot" not in catalog:
        problems.append(
            Diagnostic(where, "gate.editions.tags", f"{path}: the document is not tagged (no structure tree)")
        )
    return problems, kinds
