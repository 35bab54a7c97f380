"""The engine as another book's author gets it: a wheel built from this repository, installed into a
fresh virtual environment outside it, starts a book with `atlas-site init`, which builds and passes
`atlas-site check --browser` with the packaged default theme; a `theme: css` entry changes its colours."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.browser


def _run(*command, cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    done = subprocess.run(
        [str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=environment
    )
    assert done.returncode == 0, f"{command}: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done


def test_a_wheel_installed_elsewhere_starts_builds_and_checks_a_new_book(tmp_path, browser):
    wheels = tmp_path / "wheels"
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheels, ROOT, cwd=tmp_path)
    wheel = next(wheels.glob("atlas_site-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert (
        "atlas_site/default_theme/base.html.j2" in names
        and "atlas_site/default_theme/strings/zh.yaml" in names
    )
    assert not [
        n
        for n in names
        if n.startswith("atlas_site/default_theme/figures/")
        and not n.rsplit("/", 1)[1].startswith(("_", "figures.css"))
    ]

    venv = tmp_path / "venv"
    # a bare environment, filled by this interpreter's pip (--python): what an author's pip would
    # install, without seeding a second pip into it (a third of the test's time)
    _run("python3", "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    _run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        venv / "bin" / "python",
        "install",
        "-q",
        f"{wheel}[browser]",
        cwd=tmp_path,
    )
    tool = venv / "bin" / "atlas-site"
    _run(tool, "init", "mybook", cwd=tmp_path)
    book = tmp_path / "mybook"
    assert not (book / "templates").exists()
    _run(tool, "build", cwd=book)
    _run(tool, "check", "--browser", cwd=book)

    def link_colour() -> str:
        page = browser.new_page()
        page.goto((book / "_site" / "en" / "start.html").as_uri())
        colour = page.evaluate("getComputedStyle(document.querySelector('main p a[href]')).color")
        page.close()
        return colour

    before = link_colour()
    (book / "templates").mkdir()
    (book / "templates" / "brand.css").write_text(":root { --c-link: #8a1060; }\n", encoding="utf-8")
    with (book / "book.yaml").open("a", encoding="utf-8") as profile:
        profile.write("theme:\n  css: [brand.css]\n")
    _run(tool, "build", cwd=book)
    after = link_colour()
    assert before != after == "rgb(138, 16, 96)"
    # the book's stylesheet is an input the gates know (the contrast of a brand colour is the
    # accessibility gate's, tested on a fixture in test_gates_browser.py: not a second walk here)
    _run(tool, "check", cwd=book)
