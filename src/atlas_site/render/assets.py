"""The stylesheets and scripts readers download, and the lab code each page loads."""
from __future__ import annotations

import re
from pathlib import Path

from ..output import Output

# stylesheets: one for every page, and one per feature for the pages that have it
STYLESHEETS = {"atlas.css": ("templates/static/site.css", "templates/figures/figures.css", "templates/static/web.css"),
               "labs.css": ("templates/labs/labs.css",), "devmap.css": ("templates/static/devmap.css",),
               "bibliography.css": ("templates/static/bibliography.css",),
               "pages.css": ("templates/static/pages.css",)}
GENERATED_PAGE_STYLES = ["atlas.css", "pages.css"]  # home, chooser, 404, numbers, glossary
NOT_LABS = ("shared", "tests", "formulas")  # folders of labs_js that are not one lab each
# a lab model names the other modules it uses as lib.model('name'); the page loads them before it
LAB_DEPENDENCY = re.compile(r"lib\.model\('([a-z_]+)'\)")
# 'wasm-unsafe-eval' lets Pagefind's WebAssembly search run; it does not allow eval() of strings.
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'")


def lab_scripts(root: Path, lab_ids) -> list[str]:
    """The scripts the labs `lab_ids` need, in load order: shared/define.js (every module calls it
    as it loads), the other shared helpers (tabs.js only when several labs form a tablist), then per
    lab the modules its model names with lib.model (labs_js/<name>/model.js or formulas/<name>.js),
    its model.js and its ui.js."""
    base = root / "labs_js"
    shared = sorted(p.relative_to(base).as_posix() for p in (base / "shared").glob("*.js"))
    shared.sort(key=lambda name: name != "shared/define.js")
    scripts = [s for s in shared if s != "shared/tabs.js" or len(lab_ids) > 1]

    def add_module(name: str) -> None:
        own = base / name / "model.js"
        path = own if own.exists() else base / "formulas" / f"{name}.js"
        script = path.relative_to(base).as_posix()
        if script in scripts:
            return
        for dependency in LAB_DEPENDENCY.findall(path.read_text(encoding="utf-8")):
            add_module(dependency)
        scripts.append(script)

    for lab in lab_ids:
        add_module(lab)
        scripts.append(f"{lab}/ui.js")
    return scripts


def every_lab(root: Path) -> list[str]:
    base = root / "labs_js"
    if not base.is_dir():
        return []  # a book without labs needs no labs_js/
    return sorted(p.name for p in base.iterdir() if p.is_dir() and p.name not in NOT_LABS and (p / "model.js").exists())


def eager_lab_scripts(lab_ids) -> list[str]:
    """Loaded with the page: the tabs when there is a tablist (the keyboard works at once, and the
    panels close before the reader scrolls past them, so nothing above the reader moves later); the
    rest of the lab code, the module wrapper too, loads near the labs (labs-loader.js)."""
    return ["shared/tabs.js"] if len(lab_ids) > 1 else []


def lab_scripts_for(root: Path, lab_ids) -> list[str]:
    """What a page with these labs loads when the reader nears them."""
    eager = eager_lab_scripts(lab_ids)
    return [s for s in lab_scripts(root, lab_ids) if s not in eager]


BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
LINE_COMMENT = re.compile(r"^\s*//.*$", re.M)


def shipped(source: str, line_comments: bool = True) -> str:
    """What readers download: the repository's commented source without its comments and blank
    lines (our code has no comment markers inside strings or regexes; the lab tests and browser
    gates run the shipped files)."""
    text = BLOCK_COMMENT.sub("", source)
    if line_comments:
        text = LINE_COMMENT.sub("", text)
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    if not _text_spans_lines(text, lines):
        lines = [line.lstrip() for line in lines]  # indentation is for the repository's readers
    return "\n".join(lines) + "\n"


def _text_spans_lines(text: str, lines: list[str]) -> bool:
    """Could leading whitespace be part of a string? Only in a template literal or after a line
    continuation; a file with either keeps its indentation."""
    return "`" in text or any(line.endswith("\\") for line in lines)



CSS_STRING = re.compile(r"(\"[^\"]*\"|'[^']*')")
CSS_SPACE = re.compile(r"\s*([{};,>])\s*")


def shipped_css(source: str) -> str:
    """A stylesheet as shipped: comments, line breaks and the spaces around `{ } ; , >` removed
    outside strings (none of them is significant there; every page's first load carries it)."""
    pieces = CSS_STRING.split(shipped(source, line_comments=False).replace("\n", " "))
    return "".join(piece if index % 2 else CSS_SPACE.sub(r"\1", piece) for index, piece in enumerate(pieces)).strip() + "\n"


def add_assets(root: Path, output: Output) -> None:
    for name, parts in STYLESHEETS.items():
        css = "\n".join((root / part).read_text(encoding="utf-8") for part in parts if (root / part).exists())
        output.add(f"assets/{name}", shipped_css(css))
    for path in sorted((root / "templates" / "static").glob("*.js")):
        output.add(f"assets/{path.name}", shipped(path.read_text(encoding="utf-8")))
    for script in lab_scripts(root, every_lab(root)):
        output.add(f"assets/labs/{script}", shipped((root / "labs_js" / script).read_text(encoding="utf-8")))


def page_assets(parsed_page, lang: str) -> tuple[list[str], list[str]]:
    """The scripts and stylesheets one page loads, by what it holds."""
    scripts = ["site.js", "cards.js", "search.js"]  # cards.js fetches assets/previews-<lang>.js when first needed
    scripts.append("parallel.js")  # side-by-side reading: the twin's text is fetched only when asked for
    if parsed_page.uses_of("dev-map"):
        scripts.append("devmap.js")
    lab_ids = [lab for use in parsed_page.uses_of("labs") for lab in use.keys]
    if lab_ids:
        scripts += [f"labs/{s}" for s in eager_lab_scripts(lab_ids)] + ["labs-loader.js"]
    styles = ["atlas.css"] + (["labs.css"] if parsed_page.uses_of("labs") else []) + (["devmap.css"] if parsed_page.uses_of("dev-map") else [])
    return scripts, styles
