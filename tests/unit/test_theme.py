"""The default theme ships with the engine: a book without templates/ builds with it, overrides a
theme file by its name, adds its own stylesheet (book.yaml theme: css); `atlas-site init` starts
such a book and refuses to write over anything."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path

import yaml

from atlas_site.theme import CHECKOUT, theme_folders
from conftest import ROOT, run_cli


def init(tmp_path: Path, *extra: str) -> tuple[Path, object]:
    book = tmp_path / "mybook"
    return book, run_cli("init", str(book), *extra, cwd=tmp_path)


def test_init_writes_the_smallest_book_and_it_passes_the_gate(tmp_path):
    book, made = init(tmp_path)
    assert made.returncode == 0, made.stderr
    assert not (book / "templates").exists()  # the default theme serves it
    assert sorted(
        p.relative_to(book).as_posix()
        for p in book.rglob("*")
        if p.is_file() and ".atlas-cache" not in p.parts
    ) == [
        ".gitignore",
        "book.yaml",
        "content/en/start/00-start.md",
        "content/translations.lock",
        "content/translations.synced",
        "content/zh/start/00-start.md",
        "ledger/claims.md",
        "ledger/glossary.md",
        "sources/references.yaml",
        "sources/works.bib",
    ]
    checked = run_cli("check", cwd=book)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "warning" not in checked.stdout + checked.stderr
    built = run_cli("build", "--no-search", cwd=book)
    assert built.returncode == 0, built.stderr
    page = (book / "_site" / "en" / "start.html").read_text(encoding="utf-8")
    assert 'class="claim' in page and "author-reported" in page and "machine translation" in page


def test_init_with_one_language(tmp_path):
    book, made = init(tmp_path, "--languages", "en")
    assert made.returncode == 0, made.stderr
    assert not (book / "content" / "zh").exists()
    assert yaml.safe_load((book / "book.yaml").read_text(encoding="utf-8"))["languages"][0]["code"] == "en"
    checked = run_cli("check", cwd=book)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_init_never_writes_into_a_folder_that_holds_something(tmp_path):
    book = tmp_path / "mybook"
    book.mkdir()
    (book / "thesis.tex").write_bytes(b"\\chapter{Mine}\n")
    made = run_cli("init", str(book), cwd=tmp_path)
    assert made.returncode == 2 and "init.not-empty" in made.stderr
    assert [p.name for p in book.iterdir()] == ["thesis.tex"]
    assert (book / "thesis.tex").read_bytes() == b"\\chapter{Mine}\n"


def test_init_refuses_a_language_the_theme_has_no_strings_for(tmp_path):
    book, made = init(tmp_path, "--languages", "en,de")
    assert made.returncode == 2 and "init.languages" in made.stderr
    assert not book.exists()


def test_a_book_stylesheet_is_shipped_and_linked_after_the_theme(tmp_path):
    book, _ = init(tmp_path)
    (book / "templates").mkdir()
    (book / "templates" / "brand.css").write_text(":root { --accent: #b0127a; }\n", encoding="utf-8")
    with (book / "book.yaml").open("a", encoding="utf-8") as profile:
        profile.write("theme:\n  css: [brand.css]\n")
    built = run_cli("build", "--no-search", cwd=book)
    assert built.returncode == 0, built.stderr
    assert "--accent:#b0127a" in (book / "_site" / "assets" / "book.css").read_text(encoding="utf-8")
    for page in ("en/start.html", "zh/start.html", "en/bibliography.html", "en/index.html"):
        sheets = re.findall(
            r'<link rel="stylesheet" href="[./]*assets/([a-z.-]+)"',
            (book / "_site" / page).read_text(encoding="utf-8"),
        )
        assert sheets[-1] == "book.css" and "atlas.css" in sheets[:-1], (page, sheets)


def test_a_missing_book_stylesheet_is_located_in_book_yaml(tmp_path):
    book, _ = init(tmp_path)
    lines = len((book / "book.yaml").read_text(encoding="utf-8").splitlines())
    with (book / "book.yaml").open("a", encoding="utf-8") as profile:
        profile.write("theme:\n  css:\n    - brand.css\n")
    checked = run_cli("check", cwd=book)
    assert checked.returncode != 0
    assert f"book.yaml:{lines + 3}:7: error[theme.css-missing]" in checked.stderr, checked.stderr


def test_a_book_file_of_the_same_name_overrides_the_theme(tmp_path):
    book, _ = init(tmp_path)
    (book / "templates").mkdir()
    home = (CHECKOUT / "home.html.j2").read_text(encoding="utf-8")
    (book / "templates" / "home.html.j2").write_text(
        home.replace("<h1>{{ title }}</h1>", "<h1>{{ title }} (own home)</h1>"), encoding="utf-8"
    )
    assert theme_folders(book) == (book / "templates", CHECKOUT)
    built = run_cli("build", "--no-search", cwd=book)
    assert built.returncode == 0, built.stderr
    assert "My book (own home)" in (book / "_site" / "en" / "index.html").read_text(encoding="utf-8")
    assert "(own home)" not in (book / "_site" / "en" / "start.html").read_text(
        encoding="utf-8"
    )  # page.html.j2: the theme's


def test_the_default_theme_holds_nothing_of_this_repository_s_book():
    """The files setup.py packages (templates/ minus pyproject's book-only patterns) name neither
    the Atlas's title nor its part, series or page ids."""
    book = yaml.safe_load((ROOT / "book.yaml").read_text(encoding="utf-8"))
    names = {*book["title"].values(), *book["short_title"].values()}
    for part in book["parts"]:
        names |= {
            part.get("chapter"),
            part.get("series"),
            *part.get("pages", ()),
            *(part.get("title") or {}).values(),
        }
    names.discard(None)
    book_only = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["atlas-site"][
        "theme"
    ]["book-only"]
    theme = [
        p
        for p in sorted(CHECKOUT.rglob("*"))
        if p.is_file()
        and not any(fnmatch.fnmatch(p.relative_to(CHECKOUT).as_posix(), pattern) for pattern in book_only)
    ]
    assert len(theme) > 30
    found = [
        (p.relative_to(CHECKOUT).as_posix(), name)
        for p in theme
        for name in names
        if re.search(
            rf"(?<![\w-]){re.escape(name)}(?![\w-])", p.read_text(encoding="utf-8", errors="replace")
        )
    ]
    assert found == []
