"""Packages the default theme: the repository's templates/ is the theme's source, and a wheel
carries it as atlas_site/default_theme/ (src/atlas_site/theme.py looks there first). The files that are
this book's own (pyproject.toml [tool.atlas-site.theme] book-only) stay out of it."""
from __future__ import annotations

import fnmatch
import shutil
import tomllib
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def _theme_files() -> list[Path]:
    settings = tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))
    book_only = settings["tool"]["atlas-site"]["theme"]["book-only"]
    source = HERE / "templates"
    return [path for path in sorted(source.rglob("*"))
            if path.is_file() and "__pycache__" not in path.parts
            and not any(fnmatch.fnmatch(path.relative_to(source).as_posix(), pattern) for pattern in book_only)]


class BuildWithTheme(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout's templates/ itself
        target = Path(self.build_lib) / "atlas_site" / "default_theme"
        shutil.rmtree(target, ignore_errors=True)
        for path in _theme_files():
            destination = target / path.relative_to(HERE / "templates")
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)


setup(cmdclass={"build_py": BuildWithTheme})
