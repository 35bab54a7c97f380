"""The stylesheets and scripts readers download, and the lab code each page loads."""
from __future__ import annotations

import re
from pathlib import Path

from ..output import Output

# stylesheets: one for every page, and one per feature for the pages that have it
STYLESHEETS = {"atlas.css": ("templates/static/site.css", "templates/figures/figures.css"),
               "labs.css": ("templates/labs/labs.css",), "devmap.css": ("templates/static/devmap.css",)}
# the tabs work at once (keyboard); the rest of the lab code loads near the labs (labs-loader.js)
EAGER_LAB_SCRIPTS = ("shared/define.js", "shared/tabs.js")
NOT_LABS = ("shared", "tests", "formulas")  # folders of labs_js that are not one lab each
# 'wasm-unsafe-eval' lets Pagefind's WebAssembly search run; it does not allow eval() of strings.
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'")


def lab_scripts(root: Path, lab_ids=None) -> list[str]:
    """Lab scripts in load order: shared/define.js (every model and shared/format.js call it as
    they load), the other shared helpers, then each lab's model before its ui — every lab's, or
    those of `lab_ids`."""
    base = root / "labs_js"
    shared = sorted(p.relative_to(base).as_posix() for p in (base / "shared").glob("*.js"))
    shared.sort(key=lambda name: name != "shared/define.js")
    labs = []
    for folder in sorted(p for p in base.iterdir() if p.is_dir() and p.name not in NOT_LABS):
        if lab_ids is not None and folder.name not in lab_ids:
            continue
        for name in ("model.js", "ui.js"):
            if (folder / name).exists():
                labs.append(f"{folder.name}/{name}")
    return shared + labs


def lab_scripts_for(root: Path, lab_ids) -> list[str]:
    """What a page with these labs loads when the reader nears them (the eager ones are already there)."""
    return [s for s in lab_scripts(root, lab_ids) if s not in EAGER_LAB_SCRIPTS]


BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
LINE_COMMENT = re.compile(r"^\s*//.*$", re.M)


def shipped(source: str, line_comments: bool = True) -> str:
    """What readers download: the repository's commented source without its comments and blank
    lines (our code has no comment markers inside strings or regexes; the lab tests and browser
    gates run the shipped files)."""
    text = BLOCK_COMMENT.sub("", source)
    if line_comments:
        text = LINE_COMMENT.sub("", text)
    return "\n".join(line.rstrip() for line in text.splitlines() if line.strip()) + "\n"


def add_assets(root: Path, output: Output) -> None:
    for name, parts in STYLESHEETS.items():
        css = "\n".join((root / part).read_text(encoding="utf-8") for part in parts if (root / part).exists())
        output.add(f"assets/{name}", shipped(css, line_comments=False))
    for path in sorted((root / "templates" / "static").glob("*.js")):
        output.add(f"assets/{path.name}", shipped(path.read_text(encoding="utf-8")))
    for script in lab_scripts(root):
        output.add(f"assets/labs/{script}", shipped((root / "labs_js" / script).read_text(encoding="utf-8")))


def page_assets(parsed_page, lang: str) -> tuple[list[str], list[str]]:
    """The scripts and stylesheets one page loads, by what it holds."""
    scripts = [f"sources-{lang}.js", "site.js", "cards.js", "search.js"]
    if parsed_page.uses_of("dev-map"):
        scripts.append("devmap.js")
    if parsed_page.uses_of("labs"):
        scripts += [f"labs/{s}" for s in EAGER_LAB_SCRIPTS] + ["labs-loader.js"]
    styles = ["atlas.css"] + (["labs.css"] if parsed_page.uses_of("labs") else []) + (["devmap.css"] if parsed_page.uses_of("dev-map") else [])
    return scripts, styles
