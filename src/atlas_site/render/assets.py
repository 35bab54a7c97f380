"""The stylesheets and scripts readers download, and the lab code each page loads."""

from __future__ import annotations

import re
from pathlib import Path

import rcssmin
import rjsmin

from ..output import Output
from ..theme import theme_file, theme_glob

# stylesheets: one for every page, and one per feature for the pages that have it
# (files of the theme: the book's templates/ or the default theme, render/../theme.py)
STYLESHEETS = {
    "atlas.css": ("static/site.css", "figures/figures.css", "static/web.css"),
    "labs.css": ("labs/labs.css",),
    "devmap.css": ("static/devmap.css",),
    "bibliography.css": ("static/bibliography.css",),
    "pages.css": ("static/pages.css",),
}
GENERATED_PAGE_STYLES = ["atlas.css", "pages.css"]  # home, chooser, 404, numbers, glossary
NOT_LABS = ("shared", "tests", "formulas")  # folders of labs_js that are not one lab each
# a lab model names the other modules it uses as lib.model('name'); the page loads them before it
LAB_DEPENDENCY = re.compile(r"lib\.model\('([a-z_]+)'\)")
# 'wasm-unsafe-eval' lets Pagefind's WebAssembly search run; it does not allow eval() of strings.
CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'"
)


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
    return sorted(
        p.name for p in base.iterdir() if p.is_dir() and p.name not in NOT_LABS and (p / "model.js").exists()
    )


def eager_lab_scripts(lab_ids) -> list[str]:
    """Loaded with the page: the tabs when there is a tablist (the keyboard works at once, and the
    panels close before the reader scrolls past them, so nothing above the reader moves later); the
    rest of the lab code, the module wrapper too, loads near the labs (labs-loader.js)."""
    return ["shared/tabs.js"] if len(lab_ids) > 1 else []


def lab_scripts_for(root: Path, lab_ids) -> list[str]:
    """What a page with these labs loads when the reader nears them."""
    eager = eager_lab_scripts(lab_ids)
    return [s for s in lab_scripts(root, lab_ids) if s not in eager]


def shipped(source: str) -> str:
    """A script as readers download it: rjsmin's minification (comments and needless whitespace
    out; names, strings and regular expressions untouched). The lab tests and the browser gates run
    the shipped files, and the scripts gate parses each one."""
    return rjsmin.jsmin(source).strip() + "\n"


def shipped_css(source: str) -> str:
    """A stylesheet as shipped (every page's first load carries it): rcssmin's minification."""
    return rcssmin.cssmin(source).strip() + "\n"


def add_assets(root: Path, output: Output) -> None:
    for name, parts in STYLESHEETS.items():
        files = [theme_file(root, part) for part in parts]
        css = "\n".join(path.read_text(encoding="utf-8") for path in files if path is not None)
        output.add(f"assets/{name}", shipped_css(css))
    for path in theme_glob(root, "static", "*.js"):
        output.add(f"assets/{path.name}", shipped(path.read_text(encoding="utf-8")))
    for script in lab_scripts(root, every_lab(root)):
        output.add(f"assets/labs/{script}", shipped((root / "labs_js" / script).read_text(encoding="utf-8")))


def page_assets(parsed_page, lang: str) -> tuple[list[str], list[str]]:
    """The scripts and stylesheets one page loads, by what it holds."""
    scripts = [
        "site.js",
        "cards.js",
        "search.js",
    ]  # cards.js fetches assets/previews-<lang>.js when first needed
    # parallel.js (side-by-side reading) is not named either: site.js loads it when the reader asks
    # for it or kept it on (2.2 KB gzip of every page's first load; zh/tf-cluster was 330 B under)
    # devmap.js is not named: site.js loads it when the reader comes near the map (data-devmap-script),
    # and the map's list reads without it (5.7 KB gzip of zh/tf-map.html's first load)
    lab_ids = [lab for use in parsed_page.uses_of("labs") for lab in use.keys]
    if lab_ids:
        scripts += [f"labs/{s}" for s in eager_lab_scripts(lab_ids)] + ["labs-loader.js"]
    styles = (
        ["atlas.css"]
        + (["labs.css"] if parsed_page.uses_of("labs") else [])
        + (["devmap.css"] if parsed_page.uses_of("dev-map") else [])
    )
    return scripts, styles
