"""The print edition of the real book, printed once per language by Chromium (atlas-site export pdf):
a bookmark for every chapter and section, table-of-contents numbers that are the pages the
headings start on (read back from the PDF), every CJK character of the Chinese text in the text
layer, internal links that land, embedded fonts only, the language and metadata, labs with the
address of their interactive version, running headers and printed URLs; and for the second
fixture book, the same PDF bytes from two exports."""

from __future__ import annotations

import re
import subprocess
from html import unescape

import pytest
from pypdf import PdfReader

from atlas_site.export.assemble import assemble_edition
from atlas_site.export.pdf import anchor, make_pdf
from atlas_site.render.templates import make_environment
from conftest import ROOT, make_project, run_cli

XHTML = "{http://www.w3.org/1999/xhtml}"
SVG = "{http://www.w3.org/2000/svg}"
WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff\u3001-\u303f\uff01-\uffef]")


@pytest.fixture(scope="module")
def printed(tmp_path_factory, real_book, chromium):
    result = real_book
    env = make_environment(ROOT)
    folder = tmp_path_factory.mktemp("pdf")
    made = {}  # printed by the run's Chromium
    for lang in result.book.languages:
        edition = assemble_edition(result.book, result.output, lang, env)
        data, _ = make_pdf(edition, env, ROOT, result.output, chromium)
        path = folder / f"{lang}.pdf"
        path.write_bytes(data)
        # -raw: the text in the order Chromium wrote it (the document's), hyphens at line ends kept
        pages = subprocess.run(
            ["pdftotext", "-raw", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, check=True
        ).stdout
        made[lang] = {"path": path, "reader": PdfReader(path), "edition": edition, "pages": pages.split("\f")}
    return made


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def destinations(reader: PdfReader) -> dict[str, int]:
    return {
        name.lstrip("/"): reader.get_destination_page_number(dest)
        for name, dest in reader.named_destinations.items()
    }


def link_targets(reader: PdfReader):
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


def outline(reader: PdfReader) -> list[tuple[str, int, list]]:
    """(title, page index, children) of every bookmark."""

    def tree(items):
        found = []
        for item in items:
            if isinstance(item, list):
                found[-1] = (found[-1][0], found[-1][1], tree(item))
            else:
                found.append((item.title, reader.get_destination_page_number(item), []))
        return found

    return tree(reader.outline)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_chapter_and_section_has_a_bookmark_on_its_page(printed, lang):
    made = printed[lang]
    marks = {}
    for title, page, children in outline(made["reader"]):
        for child_title, child_page, grandchildren in children:
            marks[squeeze(child_title)] = (child_page, [(squeeze(t), p) for t, p, _ in grandchildren])
        marks.setdefault(squeeze(title), (page, [(squeeze(t), p) for t, p, _ in children]))
    for chapter in made["edition"].chapters:
        page, sections = marks[squeeze(chapter.title)]
        assert squeeze(chapter.title) in squeeze(made["pages"][page]), (
            f"{lang}: bookmark '{chapter.title}' is not on its page"
        )
        wanted = [
            squeeze(h.text) for h in chapter.headings if h.level == 2 <= chapter.listed
        ]  # not the glossary's letters
        assert [title for title, _ in sections] == wanted, f"{lang}/{chapter.id}: its sections' bookmarks"
        for title, section_page in sections:
            assert title in squeeze(made["pages"][section_page]), (
                f"{lang}: bookmark '{title}' is not on page {section_page + 1}"
            )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_contents_page_numbers_are_the_pages_the_headings_start_on(printed, lang):
    made = printed[lang]
    reader, edition = made["reader"], made["edition"]
    landed = destinations(reader)
    first_chapter = landed[anchor(edition.chapters[0].id, edition.chapters[0].start)]
    toc_pages = range(1, first_chapter)  # after the cover, before the first chapter
    checked = 0
    for index in toc_pages:
        bbox = subprocess.run(
            ["pdftotext", "-bbox", "-f", str(index + 1), "-l", str(index + 1), str(made["path"]), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        height = float(re.search(r'<page width="[\d.]+" height="([\d.]+)"', bbox).group(1))
        words = [
            (float(a), float(b), float(c), float(d), unescape(w)) for a, b, c, d, w in WORD.findall(bbox)
        ]
        for page_index, (x1, y1, x2, y2), name in link_targets(reader):
            if page_index != index:
                continue
            top, bottom = height - y2, height - y1
            inside = [
                w for w in words if x1 <= (w[0] + w[2]) / 2 <= x2 and top <= (w[1] + w[3]) / 2 <= bottom
            ]
            number = max(inside, key=lambda w: w[2])[4]
            assert number == str(landed[name] + 1), (
                f"{lang}: contents say {number} for {name}, it starts on {landed[name] + 1}"
            )
            chapter_id, _, element_id = name.partition("--")
            heading = next(h for h in edition.chapter(chapter_id).headings if h.id == element_id)
            assert squeeze(heading.text) in squeeze(made["pages"][landed[name]]), (
                f"{lang}: '{heading.text}' is not on page {number}"
            )
            checked += 1
    expected = sum(1 for c in edition.chapters for h in c.headings if h.level <= min(2, c.listed))
    assert checked == expected > 50


def test_every_cjk_character_of_the_chinese_text_is_in_the_text_layer(printed):
    made = printed["zh"]
    shown = set()
    for chapter in made["edition"].chapters:
        hidden = {
            id(e)
            for svg_text in chapter.body.iter()
            if svg_text.tag in (f"{SVG}title", f"{SVG}desc")
            for e in svg_text.iter()
        }
        for element in chapter.body.iter():
            if id(element) not in hidden:
                shown.update(element.text or "")
            shown.update(element.tail or "")
    wanted = {c for c in shown if CJK.match(c)}
    layer = set("".join(made["pages"]))
    assert len(wanted) > 1000
    missing = sorted(wanted - layer)
    assert not missing, (
        f"{len(missing)} CJK characters of the zh text are not in the PDF text layer: {''.join(missing[:80])}"
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_internal_links_land_and_citations_jump_into_the_bibliography(printed, lang):
    made = printed[lang]
    reader, edition = made["reader"], made["edition"]
    landed = destinations(reader)
    links = list(link_targets(reader))
    assert len(links) > 1000
    assert not [name for _, _, name in links if name not in landed]
    bibliography = landed[anchor("bibliography", edition.chapter("bibliography").start)]
    citations = [(page, name) for page, _, name in links if name.startswith("bibliography--src-")]
    assert len(citations) > 500
    assert all(landed[name] >= bibliography > page for page, name in citations if page < bibliography)
    sections = [
        name
        for page, _, name in links
        if name.startswith("ch14--q") and page >= landed["ch14--" + edition.chapter("ch14").start]
    ]
    assert sections, "the question cards link to their sections"
    uris = [
        a.get_object()["/A"]["/URI"]
        for p in reader.pages
        for a in p.get("/Annots") or []
        if a.get_object().get("/A", {}).get("/S") == "/URI"
    ]
    assert len(uris) > 100 and all(uri.startswith("https://") for uri in uris)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_fonts_are_embedded_and_the_document_is_tagged_in_its_language(printed, lang):
    made = printed[lang]
    fonts = subprocess.run(
        ["pdffonts", str(made["path"])], capture_output=True, text=True, check=True
    ).stdout.splitlines()[2:]
    assert fonts and all(line.split()[-5] == "yes" for line in fonts), "\n".join(fonts)
    reader, edition = made["reader"], made["edition"]
    root = reader.trailer["/Root"]
    assert root["/Lang"] == edition.html_lang
    assert root["/MarkInfo"]["/Marked"] and "/StructTreeRoot" in root
    assert reader.metadata.title == edition.title and reader.metadata.author == edition.author
    assert reader.metadata["/CreationDate"] == edition.date.strftime("D:%Y%m%d000000Z")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_labs_show_their_formulas_and_worked_example_with_the_interactive_address(printed, lang):
    made = printed[lang]
    text = squeeze("".join(made["pages"]))
    panels = [e for e in made["edition"].chapter("ch14").body.iter() if "lab-panel" in (e.get("class") or "")]
    assert len(panels) == 4
    for panel in panels:
        assert squeeze(f"{lang}/ch14.html#{panel.get('id')}") in text
        for part in ("lab-formulas", "lab-static"):
            block = next(e for e in panel.iter() if part in (e.get("class") or "").split())
            assert squeeze("".join(block.itertext()))[:60] in text, (
                f"{lang} {panel.get('id')}: {part} not printed"
            )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_pages_carry_the_chapter_title_and_a_page_number(printed, lang):
    made = printed[lang]
    landed = destinations(made["reader"])
    chapter = made["edition"].chapter("ch14")
    for heading in chapter.headings[1:6]:
        page = landed[anchor("ch14", heading.id)]
        lines = made["pages"][page].strip().splitlines()
        assert squeeze(lines[0]) == squeeze(made["edition"].title + chapter.running), lines[0]  # the header
        assert lines[1].strip() == str(page + 1), f"no page number {page + 1} on its page"  # the footer


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_external_addresses_are_printed_for_paper(printed, lang):
    made = printed[lang]
    text = squeeze("".join(made["pages"]))
    shown = [
        a.get("href")
        for c in made["edition"].chapters
        for a in c.body.iter(f"{XHTML}a")
        if "show-url" in (a.get("class") or "")
    ]
    assert len(shown) > 50
    missing = [href for href in shown if squeeze(href) not in text]
    assert not missing, f"{len(missing)} addresses not printed, e.g. {missing[:3]}"


def test_the_pdf_is_byte_identical_across_two_exports(tmp_path):
    """Chromium writes the clock into its PDF; the edition's date replaces it (second fixture book,
    English and German, so the check is quick)."""
    workshop = make_project(tmp_path, "workshop")
    for out in ("a", "b"):
        result = run_cli("export", "pdf", "--no-search", "--out", str(tmp_path / out), cwd=workshop)
        assert result.returncode == 0, result.stderr
    for lang in ("en", "de"):
        first = (tmp_path / "a" / "downloads" / f"caching-workshop-{lang}.pdf").read_bytes()
        assert first == (tmp_path / "b" / "downloads" / f"caching-workshop-{lang}.pdf").read_bytes()
        assert (
            PdfReader(tmp_path / "a" / "downloads" / f"caching-workshop-{lang}.pdf").trailer["/Root"]["/Lang"]
            == lang
        )
