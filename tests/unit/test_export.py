"""The e-book editions (atlas-site export epub), without a browser, on the small zh/en fixture book
with Lab A: each language's EPUB keeps its reading order and landmarks, MathML, the lab's formulas and
worked example with its web address, has no script, cites into the bibliography, carries the glossary
and the numbers, and is byte-identical when made twice (the Atlas's own EPUBs are its editions gate's:
navigation and epubcheck, in `check --release`); the editions gate on the same book makes
both EPUBs, passes them through epubcheck and names a section missing from the navigation and a
script; the second fixture book exports through the CLI, its download links resolve with their
sizes, a plain build keeps them and an edit retires them; bad settings and a missing browser are
one located line each."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zipfile
from io import BytesIO

import pytest

from atlas_site.build import assemble
from atlas_site.export.assemble import assemble_edition
from atlas_site.export.downloads import human_size
from atlas_site.export.epub import make_epub
from atlas_site.render.templates import make_environment
from atlas_site.render.typography import set_identifiers
from conftest import edit, make_project, run_cli, with_memory_lab

EPUBCHECK = ["java", "-jar", "/usr/share/java/epubcheck.jar"]  # Debian's epubcheck 4.2.6
OPF = {"opf": "http://www.idpf.org/2007/opf", "dc": "http://purl.org/dc/elements/1.1/"}
XHTML = "{http://www.w3.org/1999/xhtml}"
EPUB_TYPE = "{http://www.idpf.org/2007/ops}type"


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """The small zh/en book with Lab A on its chapter, the glossary and numbers pages and an author
    (one copy per module: read, never changed)."""
    project = with_memory_lab(make_project(tmp_path_factory.mktemp("mini-epub"), "mini"))
    edit(
        project / "book.yaml",
        "  - generated: bibliography",
        "  - generated: glossary\n  - generated: bibliography",
    )
    with (project / "book.yaml").open("a", encoding="utf-8") as profile:
        profile.write(
            'downloads: {basename: mini, author: {zh: "迷你书作者", en: "The mini book authors"}}\n'
        )
    return project


@pytest.fixture(scope="module")
def book(project):
    result = assemble(project)
    assert result.output is not None and not result.errors, [str(e) for e in result.errors]
    return result


@pytest.fixture(scope="module")
def editions(book, project):
    env = make_environment(project)
    return {lang: assemble_edition(book.book, book.output, lang, env) for lang in book.book.languages}


@pytest.fixture(scope="module")
def epubs(book, editions, project, tmp_path_factory):
    env = make_environment(project)
    folder = tmp_path_factory.mktemp("epub")
    made = {}
    for lang, edition in editions.items():
        data = make_epub(edition, env, project)
        (folder / f"{lang}.epub").write_bytes(data)
        made[lang] = (folder / f"{lang}.epub", data)
    return made


def _zip(data: bytes) -> zipfile.ZipFile:
    return zipfile.ZipFile(BytesIO(data))


def _xml(archive: zipfile.ZipFile, name: str) -> ET.Element:
    return ET.fromstring(archive.read(name))


def test_the_zip_starts_with_a_stored_mimetype_and_is_byte_identical_when_made_again(epubs, project):
    again = assemble(project)  # a second, independent render of the same inputs
    env = make_environment(project)
    for lang, (_, data) in epubs.items():
        archive = _zip(data)
        first = archive.infolist()[0]
        assert (first.filename, first.compress_type) == ("mimetype", zipfile.ZIP_STORED)
        assert archive.read("mimetype") == b"application/epub+zip"
        assert {info.date_time for info in archive.infolist()} == {
            (2026, 7, 29, 0, 0, 0)
        }  # the newest last_verified
        assert make_epub(assemble_edition(again.book, again.output, lang, env), env, project) == data


def test_package_metadata_comes_from_the_book(epubs, book):
    for lang, (_, data) in epubs.items():
        package = _xml(_zip(data), "EPUB/package.opf")
        metadata = package.find("opf:metadata", OPF)
        html_lang = book.book.profile.language(lang).html_lang
        assert metadata.find("dc:language", OPF).text == html_lang
        assert metadata.find("dc:title", OPF).text == book.book.profile.title[lang]
        assert metadata.find("dc:creator", OPF).text == book.book.profile.downloads.author[lang]
        assert metadata.find("dc:identifier", OPF).text.startswith("urn:uuid:")
        modified = [
            m.text for m in metadata.findall("opf:meta", OPF) if m.get("property") == "dcterms:modified"
        ]
        newest = max(p.meta.last_verified for p in book.book.pages_in(lang) if p.meta.last_verified)
        assert modified == [f"{newest.isoformat()}T00:00:00Z"]
        cover = [
            i
            for i in package.iter("{http://www.idpf.org/2007/opf}item")
            if "cover-image" in (i.get("properties") or "")
        ]
        assert [c.get("href") for c in cover] == ["images/cover.svg"]
    assert (
        _xml(_zip(epubs["zh"][1]), "EPUB/package.opf").find("opf:metadata/dc:identifier", OPF).text
        != _xml(_zip(epubs["en"][1]), "EPUB/package.opf").find("opf:metadata/dc:identifier", OPF).text
    )


def test_reading_order_is_the_books_one_file_per_page(epubs, book):
    for lang, (_, data) in epubs.items():
        package = _xml(_zip(data), "EPUB/package.opf")
        hrefs = {i.get("id"): i.get("href") for i in package.iter("{http://www.idpf.org/2007/opf}item")}
        spine = [hrefs[ref.get("idref")] for ref in package.find("opf:spine", OPF)]
        parts = [
            f"text/{part.generated}.xhtml" if part.generated else f"text/{page_id}.xhtml"
            for part in book.book.profile.parts
            for page_id in (
                [None] if part.generated else [i for i in part.page_ids if book.book.page(lang, i)]
            )
        ]
        assert (
            "text/numbers.xhtml" in parts and "text/glossary.xhtml" in parts
        )  # generated pages are parts too
        assert spine == ["cover.xhtml", "nav.xhtml"] + parts


def test_the_navigation_ends_with_the_landmarks(epubs):
    """Every chapter and section in the navigation is the editions gate's check (check --release);
    the landmarks an e-reader jumps to are the engine's."""
    for _lang, (_, data) in epubs.items():
        nav = _xml(_zip(data), "EPUB/nav.xhtml")
        landmarks = next(n for n in nav.iter(f"{XHTML}nav") if n.get(EPUB_TYPE) == "landmarks")
        assert [a.get(EPUB_TYPE) for a in landmarks.iter(f"{XHTML}a")] == [
            "cover",
            "toc",
            "bodymatter",
            "glossary",
            "bibliography",
        ]


def test_pages_keep_mathml_and_svg_and_hold_no_script(epubs, book):
    for lang, (_, data) in epubs.items():
        archive = _zip(data)
        site = book.output.document(f"{lang}/ch14.html")  # the editions keep the chapter whole
        chapter = archive.read("EPUB/text/ch14.xhtml").decode("utf-8")
        assert chapter.count("<math ") == site.count("<math ") >= 1
        main = site[site.index("<main") : site.index("</main>")]
        figures = len(book.manifest.record(lang, "ch14").figures)
        assert chapter.count('<figure class="figure') == main.count('<figure class="figure') == figures
        assert (
            chapter.count("<svg ") == main.count("<svg ") == main.count('<svg class="fig-panel"') >= figures
        )
        for name in archive.namelist():
            if name.endswith(".xhtml"):
                text = archive.read(name).decode("utf-8")
                assert not re.search(r"<script\b|\son[a-z]+=|\sstyle=|<button\b|<input\b|<output\b", text), (
                    name
                )


def test_labs_are_their_formulas_and_worked_example_with_the_web_address(epubs):
    for lang, (_, data) in epubs.items():
        chapter = _xml(_zip(data), "EPUB/text/ch14.xhtml")
        panels = [s for s in chapter.iter(f"{XHTML}section") if "lab-panel" in (s.get("class") or "")]
        assert len(panels) == 1  # Lab A
        for panel in panels:
            classes = {c for e in panel.iter() for c in (e.get("class") or "").split()}
            assert {"lab-formulas", "lab-static", "lab-online", "lab-defaults"} <= classes
            assert not classes & {"lab-body", "lab-presets", "lab-tablist", "lab-summary"}
            # review 31-l #1: what the lab gives for its defaults, to read its formulas by
            defaults = next(e for e in panel.iter() if "lab-defaults" in (e.get("class") or ""))
            shown = " ".join("".join(defaults.itertext()).split())
            assert "131072" in shown and "14.90" in shown and ("FIT:" in shown or "放得下：" in shown), shown
            assert not [e for e in defaults.iter() if e.get("id") or e.tag == f"{XHTML}output"]
            address = "".join(
                next(e for e in panel.iter() if "lab-online" in (e.get("class") or "")).itertext()
            )
            assert (
                f"{lang}/ch14.html#{panel.get('id')}" in address
            )  # book.yaml has no site_url: the relative path


def test_citations_are_note_references_into_the_bibliography(epubs):
    for _lang, (_, data) in epubs.items():
        archive = _zip(data)
        entries = {
            li.get("id")
            for li in _xml(archive, "EPUB/text/bibliography.xhtml").iter(f"{XHTML}li")
            if li.get(EPUB_TYPE) == "endnote"
        }
        cites = [
            a
            for name in archive.namelist()
            if name.startswith("EPUB/text/") and "bibliography" not in name
            for a in _xml(archive, name).iter(f"{XHTML}a")
            if "cite" in (a.get("class") or "").split()
        ]
        assert cites
        for cite in cites:
            assert cite.get(EPUB_TYPE) == "noteref"
            target, _, anchor = cite.get("href").partition("#")
            assert target == "bibliography.xhtml" and anchor in entries, cite.get("href")


def test_the_glossary_is_the_glossary_page_with_every_term_in_every_language(editions, book):
    for lang, edition in editions.items():
        glossary = edition.chapter("glossary")
        entries = {e.get("id"): e for e in glossary.body.iter() if (e.get("id") or "").startswith("term-")}
        assert len(entries) == len(book.book.terms)
        for term in book.book.terms.values():
            entry = entries[f"term-{term.id}"]
            names = "".join(next(entry.iter(f"{XHTML}dt")).itertext())
            assert all(term.names[code] in names for code in book.book.languages), names
            # as the page sets it: an identifier (t_first) as its symbol (render/typography.py)
            definition = re.sub(r"<[^>]+>", "", set_identifiers(term.definition[lang]))
            assert definition in "".join(entry.itertext())
        links = [a.get("href") for a in glossary.body.iter(f"{XHTML}a")]
        assert links and all(re.fullmatch(r"[a-z0-9-]+\.html#[\w-]+", href) for href in links), links[:5]
        assert not [e for e in glossary.body.iter() if "glossary-letters" in (e.get("class") or "")]


def test_the_numbers_appendix_is_a_table_without_its_web_tools(editions, book):
    for lang, edition in editions.items():
        numbers = edition.chapter("numbers")
        table = next(numbers.body.iter(f"{XHTML}table"))
        assert not (table.text or "").strip() and table.find(f"{XHTML}caption") is None
        rows = table.findall(f"{XHTML}tbody/{XHTML}tr")
        assert (
            len(rows) == book.output.text(f"{lang}/numbers.html").count('<tr class="claim numbers-row"') >= 1
        )
        columns = ["".join(th.itertext()).strip() for th in table.iter(f"{XHTML}th")]
        for row in rows:  # each cell names its column for an e-reader's stacked rows
            labels = ["".join(td.find(f"{XHTML}span").itertext()) for td in row.findall(f"{XHTML}td")]
            assert labels == columns
        tags = {e.tag for e in numbers.body.iter()}
        assert not tags & {f"{XHTML}input", f"{XHTML}label"}


def test_what_the_web_pages_print_for_themselves_is_not_in_the_editions(editions):
    for lang, edition in editions.items():
        for chapter in edition.chapters:
            found = {c for e in chapter.body.iter() for c in (e.get("class") or "").split()}
            assert not found & {
                "print-only",
                "print-refs",
                "print-url",
                "toc",
                "toc-toggle",
                "search",
                "site-footer",
                "downloads",
                "cite-card",
            }, (lang, chapter.id)


# -- the second book, through the CLI ---------------------------------------------------------------
@pytest.fixture
def workshop(tmp_path):
    return make_project(tmp_path, "workshop")


def _footer_links(site):
    """Every page of a language (and the 404 page, each language's in its section) with its download
    links; the chooser at the root has no language, and links the home pages that carry them."""
    for page in sorted(site.rglob("*.html")):
        if page.name == "dashboard.html" or page == site / "index.html":
            continue
        links = re.findall(
            r'<a href="([^"]*downloads/[^"]+)"[^>]* download[^>]*>[^<]*</a><span class="download-size">([^<]*)</span>',
            page.read_text(encoding="utf-8"),
        )
        yield page, links


def test_exported_editions_are_linked_with_their_sizes_kept_by_a_build_and_retired_by_an_edit(workshop):
    result = run_cli("export", "epub", "--no-search", cwd=workshop)
    assert result.returncode == 0, result.stderr
    site = workshop / "_site"
    assert sorted(p.name for p in (site / "downloads").iterdir()) == [
        "caching-workshop-de.epub",
        "caching-workshop-en.epub",
    ]
    chooser = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="en/index.html"' in chooser and 'href="de/index.html"' in chooser
    for page, links in _footer_links(site):
        assert links, f"{page} does not link the downloads"
        for href, size in links:
            target = (page.parent / href).resolve()
            assert target.is_file(), f"{page}: {href}"
            assert human_size(target.stat().st_size) in size
    not_found = dict(_footer_links(site))[site / "404.html"]
    assert sorted(href for href, _ in not_found) == [
        "downloads/caching-workshop-de.epub",
        "downloads/caching-workshop-en.epub",
    ], "the 404 page speaks every language: it links every language's editions (review 31-r #1)"
    assert run_cli("check", cwd=workshop).returncode == 0  # the links gate sees the downloads too
    again = run_cli("build", "--no-search", "--no-cache", cwd=workshop)
    assert again.returncode == 0 and (site / "downloads" / "caching-workshop-en.epub").is_file()
    edit(workshop / "content" / "en" / "caching" / "00-caching.md", "cache", "Cache")
    assert run_cli("build", "--no-search", cwd=workshop).returncode == 0
    assert not (site / "downloads").exists(), "an edited book must not ship editions of its old text"
    assert all(not links for _, links in _footer_links(site))


def test_the_epub_is_byte_identical_across_two_exports_whatever_the_hash_seed(workshop, tmp_path):
    first = run_cli(
        "export",
        "epub",
        "--no-search",
        "--out",
        str(tmp_path / "a"),
        cwd=workshop,
        env={"PYTHONHASHSEED": "1"},
    )
    second = run_cli(
        "export",
        "epub",
        "--no-search",
        "--out",
        str(tmp_path / "b"),
        cwd=workshop,
        env={"PYTHONHASHSEED": "977"},
    )
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    for name in ("caching-workshop-en.epub", "caching-workshop-de.epub"):
        assert (tmp_path / "a" / "downloads" / name).read_bytes() == (
            tmp_path / "b" / "downloads" / name
        ).read_bytes()


def test_a_missing_browser_is_one_located_line_and_the_site_is_left_as_it_was(workshop):
    assert run_cli("build", "--no-search", cwd=workshop).returncode == 0
    before = (workshop / "_site" / "index.html").read_bytes()
    result = run_cli(
        "export", "pdf", "--no-search", cwd=workshop, env={"ATLAS_CHROMIUM": "/nowhere/chromium"}
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(
        "/nowhere/chromium: error[export.browser]: the PDF edition is printed by Chromium"
    ), result.stderr
    assert "bash scripts/test.sh" in result.stderr
    assert (workshop / "_site" / "index.html").read_bytes() == before


def test_the_downloads_setting_is_validated_at_its_line(workshop):
    edit(
        workshop / "book.yaml",
        "downloads: {basename: caching-workshop}",
        "downloads: {basename: Caching Workshop, cover: yes}",
    )
    result = run_cli("check", cwd=workshop)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert any(
        re.match(
            r"book\.yaml:\d+:\d+: error\[schema\.invalid\]: downloads\.basename: String should match pattern",
            line,
        )
        for line in lines
    ), result.stderr
    assert any(
        re.match(r"book\.yaml:\d+:\d+: error\[schema\.unknown-key\]: unknown key 'downloads\.cover'", line)
        for line in lines
    ), result.stderr


def test_strings_the_editions_need_are_checked_before_exporting(workshop):
    """A key only templates/export/ uses is not needed by a build, so the export checks it."""
    edit(workshop / "templates" / "strings" / "de.yaml", 'export_landmarks: "Orientierung"\n', "")
    edit(workshop / "templates" / "strings" / "en.yaml", 'export_landmarks: "Landmarks"\n', "")
    assert run_cli("build", "--no-search", cwd=workshop).returncode == 0
    result = run_cli("export", "epub", "--no-search", cwd=workshop)
    assert result.returncode == 2
    for lang in ("en", "de"):
        assert (
            f"templates/strings/{lang}.yaml:1:1: error[strings.missing-key]: templates/strings/{lang}.yaml lacks export_landmarks, "
            "which the editions use (templates/export/)"
        ) in result.stderr
    assert "Traceback" not in result.stderr


def test_with_a_site_url_a_lab_names_its_interactive_address_in_full(book, project):
    profile = book.book.profile.model_copy(update={"site_url": "https://atlas.example/"})
    deployed = book.book.model_copy(update={"profile": profile})
    edition = assemble_edition(deployed, book.output, "en", make_environment(project))
    lines = [e for e in edition.chapter("ch14").body.iter() if "lab-online" in (e.get("class") or "")]
    links = [a.get("href") for line in lines for a in line.iter(f"{XHTML}a")]
    assert links == ["https://atlas.example/en/ch14.html#lab-memory-panel"]


def test_a_numbered_edition_gives_its_day_to_the_cover_and_the_files(book, project):
    """Review 31-k #7: the site said edition 1 of 2026-12-05, the PDF and EPUB the newest page's
    verification day (2026-10-02). Where book.yaml numbers the edition, every edition gives its day."""
    import datetime as dt

    from atlas_site.export.cover import render_cover
    from atlas_site.model.profile import Edition as Numbered

    env = make_environment(project)
    unnumbered = assemble_edition(book.book, book.output, "en", env)
    assert unnumbered.date is not None and "Edition of " + unnumbered.date.isoformat() in render_cover(
        unnumbered, env, "export_print_edition"
    )
    day = dt.date(2027, 3, 1)
    profile = book.book.profile.model_copy(update={"edition": Numbered(number=2, date=day)})
    edition = assemble_edition(book.book.model_copy(update={"profile": profile}), book.output, "en", env)
    assert edition.date == day and edition.day == day
    assert "Edition 2, 2027-03-01</text>" in render_cover(edition, env, "export_ebook_edition")


def test_the_editions_drop_a_numbers_citation_to_copy():
    """Review 31-m #1: a number's "Cite this number" block, opened up on paper, filled the numbers
    table's first column one word a line; the bibliography holds the works."""
    from atlas_site.export.clean import clean_page
    from atlas_site.export.xhtml import parse_html

    main = parse_html(
        '<main><table><tr><td><strong>7.4×</strong><details class="cite-number"><summary>Cite this number'
        "</summary><p>DistServe (2024)</p></details></td><td>setting</td></tr></table></main>"
    )
    section = clean_page(next(main.iter("{http://www.w3.org/1999/xhtml}main")), lambda panel_id: None)
    cells = [
        " ".join("".join(cell.itertext()).split())
        for cell in section.iter("{http://www.w3.org/1999/xhtml}td")
    ]
    assert cells == ["7.4×", "setting"], cells


def test_text_layer_radicals_become_the_ideographs_that_share_their_glyph():
    from pypdf.generic import DecodedStreamObject

    from atlas_site.export.pdf import CJK_FONTS
    from atlas_site.export.pdf_finish import _parse_cmap, _repaired, radical_equivalents

    equivalents = radical_equivalents(CJK_FONTS)  # read from the Noto CJK fonts' own cmaps
    assert (
        equivalents["\u2ec5"] == ["见"]
        and equivalents["\u2f00"] == ["一"]
        and equivalents["\u2ed3"] == ["长"]
    )
    cmap = DecodedStreamObject()
    cmap.set_data(
        b"/CIDInit /ProcSet findresource begin\nbegincmap\n1 begincodespacerange\n<00> <FF>\nendcodespacerange\n"
        b"2 beginbfchar\n<01> <2EC5>\n<02> <0041>\nendbfchar\n1 beginbfrange\n<03> <04> <2F00>\nendbfrange\nendcmap\n"
    )
    repaired = _parse_cmap(_repaired(cmap, equivalents, used={"见", "一"}).get_data())
    assert repaired == {1: "见", 2: "A", 3: "一", 4: equivalents["\u2f01"][0]}
    kept = _repaired(cmap, {"\u2ec5": ["见"]}, used={"\u2ec5"})  # the book itself writes the radical: kept
    assert kept is None


# -- the editions gate (check --release), on the small zh/en book --------------------------------
def _edition_reports(mini):
    from atlas_site.gates.editions import edition_gates

    result = assemble(mini)
    assert result.output is not None and not result.errors
    return edition_gates(result, mini)


def test_the_editions_gate_passes_a_sound_epub_and_names_a_lost_section_and_a_script(
    mini, monkeypatch, real_epubcheck
):
    """One run of the gate (epubcheck is a Java start of 20-30 s per EPUB) over both languages: the
    zh EPUB as made passes epubcheck and the gate's own reading; the en EPUB, whose contents lose a
    section and whose chapter carries a script, gives one located line for each, and epubcheck (run
    by the gate) objects to the undeclared script as well."""
    import atlas_site.export.epub as epub

    made = epub.make_epub

    def broken_in_english(edition, env, root):
        data = made(edition, env, root)
        if edition.lang != "en":
            return data
        archive = _zip(data)
        out = BytesIO()
        with zipfile.ZipFile(out, "w") as copy:
            for info in archive.infolist():
                data = archive.read(info)
                if info.filename == "EPUB/nav.xhtml":
                    data = re.sub(rb'<li><a href="text/ch14.xhtml#q1">.*?</a></li>', b"", data, count=1)
                if info.filename == "EPUB/text/ch14.xhtml":
                    data = data.replace(b"</body>", b"<script>1</script></body>", 1)
                copy.writestr(info, data)
        return out.getvalue()

    monkeypatch.setattr(epub, "make_epub", broken_in_english)
    [report] = _edition_reports(mini)
    lines = [str(p) for p in report.problems]
    assert report.status == "FAIL"
    assert report.figures.startswith("2 EPUBs (downloads/book-zh.epub, downloads/book-en.epub): ")
    sections = int(report.figures.split(": ", 1)[1].split(" sections")[0])
    assert sections >= 4 - 1  # the chapter's and the bibliography's in both languages, but en's lost q1
    assert not [line for line in lines if "book-zh.epub" in line], lines  # epubcheck passed zh
    epubcheck_said = sum("[gate.editions.epubcheck]" in line for line in lines)
    assert report.figures.endswith(f"epubcheck: {epubcheck_said} errors or warnings")  # it ran
    assert (
        "_site/downloads/book-en.epub: error[gate.editions.navigation]: downloads/book-en.epub: "
        "section text/ch14.xhtml#q1 is not in the navigation" in lines
    ), lines
    assert any(
        "[gate.editions.scripted]: downloads/book-en.epub: EPUB/text/ch14.xhtml holds a script" in line
        for line in lines
    ), lines
    assert any("[gate.editions.epubcheck]: downloads/book-en.epub: epubcheck ERROR" in line for line in lines)


def test_without_epubcheck_the_gate_says_it_did_not_run_it(mini, monkeypatch):
    monkeypatch.setenv("ATLAS_EPUBCHECK", str(mini / "no-such.jar"))
    [report] = _edition_reports(mini)
    assert report.status == "pass" and report.figures.endswith(
        "epubcheck is not installed: not run (apt-get install epubcheck)"
    )
