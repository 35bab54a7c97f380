"""One language of the book as an EPUB 3: a cover, the navigation document (every chapter and
section, and landmarks), one XHTML file per page in the profile's reading order, MathML and SVG
kept inline, no script, citations as note references into the bibliography, and a stylesheet for
e-readers. The zip is byte-identical for the same book: fixed dates and order, `mimetype` first
and stored."""

from __future__ import annotations

import copy
import uuid
import zipfile
from io import BytesIO

from markupsafe import Markup

from ..render.assets import shipped_css
from ..theme import theme_path
from .assemble import Chapter, Edition
from .cover import render_cover
from .css import expand_is
from .xhtml import EPUB, MATHML, SVG, XHTML, classes, serialize

TEXT = "text"  # the folder of the chapters inside EPUB/
STYLESHEETS = ("export/epub.css", "figures/figures.css")  # theme files (theme.py)
CONTAINER = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\n'
    '<rootfiles><rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/></rootfiles>\n'
    "</container>\n"
)
LANDMARK_TYPES = {"bibliography": "bibliography", "glossary": "glossary"}  # generated chapter -> epub:type


def make_epub(edition: Edition, env, root) -> bytes:
    files = _files(edition, env, root)
    return _zip(files, edition)


def chapter_file(chapter_id: str) -> str:
    return f"{TEXT}/{chapter_id}.xhtml"


def _files(edition: Edition, env, root) -> list[tuple[str, bytes]]:
    """The package's files in the order they are zipped (after mimetype and container.xml)."""
    chapters = []
    for chapter in edition.chapters:
        body, properties = _chapter_body(copy.deepcopy(chapter))
        text = env.get_template("export/chapter.xhtml.j2").render(
            html_lang=edition.html_lang,
            title=chapter.title,
            body=Markup(body),
            epub_type=LANDMARK_TYPES.get(chapter.id, "chapter"),
        )
        chapters.append(
            {
                "id": f"c-{chapter.id}",
                "href": chapter_file(chapter.id),
                "properties": properties,
                "text": text,
            }
        )
    css = "\n".join(theme_path(root, path).read_text(encoding="utf-8") for path in STYLESHEETS)
    context = {"edition": edition, "html_lang": edition.html_lang, "t": edition.ui}
    nav = env.get_template("export/nav.xhtml.j2").render(
        **context,
        contents=edition.contents(deepest=3),
        landmarks=_landmarks(edition),
        chapter_file=chapter_file,
    )
    package = env.get_template("export/package.opf.j2").render(
        **context,
        identifier=identifier(edition),
        chapters=chapters,
        modified=_modified(edition),
        date=edition.day.isoformat(),
    )
    cover = env.get_template("export/cover.xhtml.j2").render(**context)
    files = [
        ("EPUB/package.opf", package),
        ("EPUB/nav.xhtml", nav),
        ("EPUB/cover.xhtml", cover),
        ("EPUB/images/cover.svg", render_cover(edition, env, "export_ebook_edition")),
        ("EPUB/css/style.css", expand_is(shipped_css(css))),
    ]
    files += [(f"EPUB/{c['href']}", c["text"]) for c in chapters]
    return [(path, text.encode("utf-8")) for path, text in files]


def _chapter_body(chapter: Chapter) -> tuple[str, str]:
    """The chapter's XHTML with its links in EPUB form, and the manifest properties it needs."""
    for link in chapter.body.iter(f"{{{XHTML}}}a"):
        href = link.get("href", "")
        if href.startswith(("https://", "http://")):
            continue
        page, _, fragment = href.partition("#")
        page = page[: -len(".html")]
        link.set("href", f"#{fragment}" if page == chapter.id else f"{page}.xhtml#{fragment}")
        if "cite" in classes(link):
            link.set(f"{{{EPUB}}}type", "noteref")  # a reader shows the bibliography entry as a note
    if chapter.id == "bibliography":
        for entry in chapter.body.iter(f"{{{XHTML}}}li"):
            if "bib-entry" in classes(entry):
                entry.set(f"{{{EPUB}}}type", "endnote")
    namespaces = {
        e.tag.split("}", 1)[0][1:]
        for e in chapter.body.iter()
        if isinstance(e.tag, str) and e.tag.startswith("{")
    }
    properties = " ".join(p for p, ns in (("mathml", MATHML), ("svg", SVG)) if ns in namespaces)
    return serialize(chapter.body), properties


def _landmarks(edition: Edition) -> list[dict]:
    marks = [
        {"type": "cover", "href": "cover.xhtml", "title": edition.ui("export_cover")},
        {"type": "toc", "href": "nav.xhtml#toc", "title": edition.ui("export_contents")},
    ]
    first = next((c for c in edition.chapters if c.id not in LANDMARK_TYPES), None)
    if first is not None:
        marks.append({"type": "bodymatter", "href": chapter_file(first.id), "title": first.title})
    for chapter in edition.chapters:
        if chapter.id in LANDMARK_TYPES:
            marks.append(
                {"type": LANDMARK_TYPES[chapter.id], "href": chapter_file(chapter.id), "title": chapter.title}
            )
    return marks


def identifier(edition: Edition) -> str:
    """A stable identifier: the same book and language always get the same one."""
    profile = edition.profile
    name = f"{profile.site_url or 'atlas-site:'}{profile.downloads.basename}/{edition.lang}"
    return f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, name)}"


def _modified(edition: Edition) -> str:
    return f"{edition.day.isoformat()}T00:00:00Z"


def _zip(files: list[tuple[str, bytes]], edition: Edition) -> bytes:
    stamp = (edition.day.year, edition.day.month, edition.day.day, 0, 0, 0)
    buffer = BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        entries = [
            ("mimetype", b"application/epub+zip", zipfile.ZIP_STORED),
            ("META-INF/container.xml", CONTAINER.encode("utf-8"), zipfile.ZIP_DEFLATED),
        ]
        entries += [(path, data, zipfile.ZIP_DEFLATED) for path, data in files]
        for path, data, method in entries:
            info = zipfile.ZipInfo(path, date_time=stamp)
            info.compress_type = method
            info.create_system = 3
            info.external_attr = 0o644 << 16
            archive.writestr(
                info, data, compress_type=method, compresslevel=9 if method == zipfile.ZIP_DEFLATED else None
            )
    return buffer.getvalue()
