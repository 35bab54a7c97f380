"""One language of the book as a PDF, paginated by Chromium's own print (the engine that already
renders the site's MathML and SVG): a cover, the table of contents with page numbers, every page
of the book in reading order under a running header with its chapter's title, page numbers, a
bookmark for every chapter and section (the table of contents), tagged, in the edition's language.

Chromium cannot print a page number it has not laid out yet (no `target-counter`), so the table
of contents takes two passes: print with the numbers left blank, read back with pypdf on which
page each heading's link target landed, print again with the numbers. The numbers sit in a box of
fixed width, so filling them in moves nothing; a third pass is made if it did, and a PDF whose
contents still disagree is refused."""

from __future__ import annotations

import copy
import re
import tempfile
from pathlib import Path

from markupsafe import Markup

from ..output import Output
from ..theme import theme_path
from .assemble import ID_REFERENCES, Edition
from .cover import render_cover
from .pdf_finish import finish_pdf, heading_pages, radical_equivalents
from .print_fonts import cff_faces, document_text, write_print_fonts
from .xhtml import XHTML, serialize, text_of

# the site's own, from the rendered output (a book without labs or a bibliography has fewer)
SITE_STYLESHEETS = ("atlas.css", "pages.css", "labs.css", "devmap.css", "bibliography.css")
EDITION_STYLESHEETS = ("fonts.css", "print.css", "running.css")
PASSES = 3
URL_REFERENCE = re.compile(r"url\(#([^)]+)\)")
CJK_FONTS = ("Noto Serif CJK SC", "Noto Sans CJK SC")  # the CJK families print.css names (fonts-noto-cjk)
# the width of the text on an A4 page with print.css's 20 mm side margins, in CSS pixels
TEXT_WIDTH_PX = round((210 - 2 * 20) / 25.4 * 96)
# A formula or table wider than the page scrolls in its own box on screen; on paper it is scaled
# down to the text width instead (a wide box would otherwise make Chromium shrink whole pages).
FIT_WIDE_BLOCKS = """() => {
  for (const box of document.querySelectorAll('.book-chapter .math-block, .book-chapter .table-scroll')) {
    if (box.scrollWidth > box.clientWidth + 1) box.style.zoom = (box.clientWidth / box.scrollWidth).toFixed(3);
  }
  /* then what still reaches past the text width (the cover has a page of its own): one such box
     and Chromium shrinks every page to fit it (review 31-x #4: the English edition at 94 %, its
     cover short of the paper's edges, for a table 48 px too wide) */
  const width = document.documentElement.clientWidth, wide = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('.cover') || !el.getClientRects().length) continue;
    const over = el.getBoundingClientRect().right - width;
    if (over > 1 && !(el.parentElement && el.parentElement.getBoundingClientRect().right - width > 1)) {
      const name = el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className ? '.' + el.className.split(' ')[0] : '');
      wide.push(name + ' "' + el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40) + '" ' + Math.round(over) + ' px');
    }
  }
  return wide;
}"""


class TocMismatch(Exception):
    """The table of contents still names other pages than the headings landed on."""


class TooWide(Exception):
    """Something of the print document reaches past the page's text width: Chromium would shrink
    every page to fit it."""

    def __init__(self, lang: str, wide: list[str]):
        shown = "; ".join(wide[:3]) + (f" and {len(wide) - 3} more" if len(wide) > 3 else "")
        super().__init__(
            f"the {lang} print edition is wider than its page ({shown}): every page would be shrunk"
        )
        self.lang, self.wide = lang, wide


def anchor(chapter_id: str, element_id: str) -> str:
    """An id of the one print document: ids of different pages may be equal, so each is prefixed
    by its chapter."""
    return f"{chapter_id}--{element_id}"


def make_pdf(edition: Edition, env, root: Path, output: Output, browser) -> tuple[bytes, int]:
    """(the PDF, the number of print passes it took)."""
    document = PrintDocument(edition, env, root, output)
    with tempfile.TemporaryDirectory(prefix="atlas-print-") as name:
        folder = Path(name)
        document.write_assets(folder)
        pages: dict[str, int] = {}
        document.write(folder, pages)  # its text chooses the glyphs of the print faces
        (folder / "fonts.css").write_text(
            write_print_fonts(folder, cff_faces(), document_text(folder)), encoding="utf-8"
        )
        for passes in range(1, PASSES + 1):
            path = document.write(folder, pages)
            data, wide = _print(browser, path, final=passes > 1)
            if wide:
                raise TooWide(edition.lang, wide)
            landed = heading_pages(data, document.targets)
            if landed == pages:
                used = set("".join(text_of(c.body) for c in edition.chapters))
                return finish_pdf(
                    data, edition, document.bookmarks(), radical_equivalents(CJK_FONTS), used
                ), passes
            pages = landed
    raise TocMismatch(f"after {PASSES} passes the table of contents still moves the pages it numbers")


class PrintDocument:
    """The print edition as one HTML document and its stylesheets, in a folder Chromium opens."""

    def __init__(self, edition: Edition, env, root: Path, output: Output):
        self.edition, self.env, self.root, self.output = edition, env, root, output
        self.chapters = [{"id": c.id, "body": Markup(_print_body(c))} for c in edition.chapters]
        self.contents = edition.contents(deepest=2)
        self.targets = [
            anchor(entry.chapter, entry.anchor) for entry in _walk(self.contents) if entry.chapter
        ]
        self.cover = Markup(render_cover(edition, env, "export_print_edition"))
        self.stylesheets = [s for s in SITE_STYLESHEETS if f"assets/{s}" in output] + list(
            EDITION_STYLESHEETS
        )

    def bookmarks(self) -> list:
        """The table of contents as the PDF's outline: (title, destination, children); a series'
        name leads to its first page."""

        def marks(entries):
            found = []
            for entry in entries:
                children = marks(entry.children)
                target = anchor(entry.chapter, entry.anchor) if entry.chapter else children[0][1]
                found.append((entry.title, target, children))
            return found

        return marks(self.contents)

    def write_assets(self, folder: Path) -> None:
        for sheet in self.stylesheets[: -len(EDITION_STYLESHEETS)]:
            (folder / sheet).write_bytes(self.output[f"assets/{sheet}"])
        (folder / "print.css").write_bytes(theme_path(self.root, "export/print.css").read_bytes())
        (folder / "running.css").write_text(_running_css(self.edition, self.env), encoding="utf-8")

    def write(self, folder: Path, pages: dict[str, int]) -> Path:
        """The document with these page numbers in its table of contents (blank where unknown)."""
        edition = self.edition
        text = self.env.get_template("export/print.html.j2").render(
            html_lang=edition.html_lang,
            title=edition.title,
            author=edition.author,
            cover=self.cover,
            t=edition.ui,
            contents=self.contents,
            pages=pages,
            anchor=anchor,
            chapters=self.chapters,
            stylesheets=self.stylesheets,
        )
        path = folder / "book.html"
        path.write_text(text, encoding="utf-8")
        return path


def _walk(entries):
    for entry in entries:
        yield entry
        yield from _walk(entry.children)


def _print_body(chapter) -> str:
    """The chapter's XHTML with its ids prefixed and its links pointing into the one document."""
    body = copy.deepcopy(chapter.body)
    own = chapter.id
    for element in body.iter():
        if element.get("id"):
            element.set("id", anchor(own, element.get("id")))
        for attribute in ID_REFERENCES:
            if element.get(attribute):
                element.set(
                    attribute, " ".join(anchor(own, token) for token in element.get(attribute).split())
                )
        for attribute, value in element.attrib.items():  # a figure's fill="url(#gradient)", marker-end, …
            if "url(#" in value:
                element.set(attribute, URL_REFERENCE.sub(lambda m: f"url(#{anchor(own, m.group(1))})", value))
    for link in body.iter(f"{{{XHTML}}}a"):
        href = link.get("href", "")
        if href.startswith(("https://", "http://")):
            continue
        page, _, fragment = href.partition("#")
        link.set("href", "#" + anchor(page[: -len(".html")], fragment))
    return serialize(body)


def css_string(text: str) -> Markup:
    """`text` as a quoted CSS string (for `content:` in the running header)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\A ")
    return Markup(f'"{escaped}"')


def _running_css(edition: Edition, env) -> str:
    return env.get_template("export/running.css.j2").render(
        title=css_string(edition.title),
        chapters=[{"id": c.id, "running": css_string(c.running)} for c in edition.chapters],
    )


def _print(browser, document: Path, final: bool = True) -> tuple[bytes, list[str]]:
    """Chromium's PDF of the document. A pass that only measures where headings land leaves out
    the tags (they do not move anything); the bookmarks are the table of contents (finish_pdf)."""
    context = browser.new_context(viewport={"width": TEXT_WIDTH_PX, "height": 1000})
    try:
        page = context.new_page()
        page.emulate_media(media="print", color_scheme="light")
        page.goto(document.as_uri(), wait_until="load")
        # the document itself has no script: this is ours, measuring its layout
        wide = page.evaluate(FIT_WIDE_BLOCKS)
        return page.pdf(prefer_css_page_size=True, print_background=True, tagged=final), wide
    finally:
        context.close()
