"""The engine as another book's author gets it: a wheel built from this repository, installed into a
fresh virtual environment outside it, starts a book with `atlas-site init`, which builds and passes
`atlas-site check --browser` with the packaged default theme; a `theme: css` entry changes its colours."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
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


def _met(requirement: str, extra: str) -> bool:
    """Whether this environment's installed distributions meet one Requires-Dist line (its marker
    read with `extra`; a line for another extra needs nothing)."""
    import importlib.metadata

    from packaging.requirements import Requirement

    wanted = Requirement(requirement)
    if wanted.marker is not None and not wanted.marker.evaluate({"extra": extra}):
        return True
    try:
        version = importlib.metadata.version(wanted.name)
    except importlib.metadata.PackageNotFoundError:
        return False
    return wanted.specifier.contains(version, prereleases=True)


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
    # a bare environment holding the wheel alone, by this interpreter's pip (--python), with this
    # environment's libraries after its own on its path: the engine and its theme come from the
    # wheel, its dependencies are the versions the suite tests (installing them again took 30 s of
    # the test's 40). The wheel's declared dependencies are its metadata's (checked here against
    # what the engine runs on), and that every library the engine imports is declared is
    # tests/unit/test_layers.py's.
    _run("python3", "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    _run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        venv / "bin" / "python",
        "install",
        "-q",
        "--no-deps",
        wheel,
        cwd=tmp_path,
    )
    ours = sysconfig.get_paths()["purelib"]
    theirs = _run(
        venv / "bin" / "python",
        "-c",
        "import sysconfig; print(sysconfig.get_paths()['purelib'])",
        cwd=tmp_path,
    )
    (Path(theirs.stdout.strip()) / "libraries-of-the-test.pth").write_text(ours + "\n", encoding="utf-8")
    where = _run(venv / "bin" / "python", "-c", "import atlas_site; print(atlas_site.__file__)", cwd=tmp_path)
    assert where.stdout.strip().startswith(str(venv)), (
        f"the engine came from {where.stdout.strip()}, not the wheel"
    )
    requires = [
        line.split(":", 1)[1].strip()
        for line in zipfile.ZipFile(wheel)
        .read(next(n for n in names if n.endswith(".dist-info/METADATA")))
        .decode()
        .splitlines()
        if line.startswith("Requires-Dist:")
    ]
    unmet = [r for r in requires if not _met(r, extra="browser")]
    assert len(requires) > 10 and unmet == [], (
        f"declared dependencies this environment does not meet: {unmet}"
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
