"""Shared test helpers: fixture projects are copied beside the real templates and lab code."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
os.environ["ATLAS_STRICT_CODES"] = "1"  # every Diagnostic made while the suite runs must have an --explain entry
PROJECTS = ROOT / "tests" / "projects"


def make_project(tmp_path: Path, name: str = "mini") -> Path:
    """A throwaway project: the repo's templates and labs, with the fixture's own files (book.yaml,
    content, sources, ledger and any templates it adds, e.g. the strings of another language) on top."""
    target = tmp_path / name
    for folder in ("templates", "labs_js"):
        shutil.copytree(ROOT / folder, target / folder, ignore=shutil.ignore_patterns("tests", "node_modules"))
    shutil.copytree(PROJECTS / name, target, ignore=shutil.ignore_patterns("expected"), dirs_exist_ok=True)
    return target


def run_cli(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-m", "atlas_site", "--root", str(cwd), *args],
                          capture_output=True, text=True, cwd=cwd, env=environment)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture text not found in {path}: {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    return make_project(tmp_path, "mini")
