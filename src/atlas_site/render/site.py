"""Render every page, the bibliographies, the entry page and the assets into an Output."""
from __future__ import annotations

import re
from pathlib import Path

from markdown_it import MarkdownIt
from markupsafe import Markup

from ..cache import BuildCache, NoCache, digest
from ..markdown.syntax import directive_ids
from ..model import LANGS, Book
from ..model.sources import EVIDENCE_CLASSES
from ..resolve.pages import ParsedPage
from .blocks import BlockRenderer
from .dependencies import Dependencies
from .i18n import URL_STATUS, UI, ui
from .inline import CiteIndex, InlineRenderer, cite_label
from .output import Output
from .templates import make_environment

# stylesheets: one for every page, and one per feature for the pages that have it
STYLESHEETS = {"atlas.css": ("templates/static/site.css", "templates/figures/figures.css"),
               "labs.css": ("templates/labs/labs.css",), "devmap.css": ("templates/static/devmap.css",)}
# a lab model names the other modules it uses as lib.model('name'); the page loads them before it
LAB_DEPENDENCY = re.compile(r"lib\.model\('([a-z_]+)'\)")
# 'wasm-unsafe-eval' lets Pagefind's WebAssembly search run; it does not allow eval() of strings.
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'")


def _page_lab_ids(parsed_page: ParsedPage) -> list[str]:
    return [lab for use in parsed_page.uses_of("labs") for lab in directive_ids(use.key)]


def lab_scripts(root: Path, ids: list[str]) -> list[str]:
    """The scripts the labs `ids` need, in load order: shared/define.js (every module calls it as
    it loads), the other shared helpers (tabs.js only when several labs form a tablist), then per
    lab the modules its model names with lib.model (labs_js/<name>/model.js or formulas/<name>.js),
    its model.js and its ui.js."""
    base = root / "labs_js"
    shared = sorted(p.relative_to(base).as_posix() for p in (base / "shared").glob("*.js"))
    shared.sort(key=lambda name: name != "shared/define.js")
    scripts = [s for s in shared if s != "shared/tabs.js" or len(ids) > 1]

    def add_module(name: str) -> None:
        own = base / name / "model.js"
        path = own if own.exists() else base / "formulas" / f"{name}.js"
        script = path.relative_to(base).as_posix()
        if script in scripts:
            return
        for dependency in LAB_DEPENDENCY.findall(path.read_text(encoding="utf-8")):
            add_module(dependency)
        scripts.append(script)

    for lab in ids:
        add_module(lab)
        scripts.append(f"{lab}/ui.js")
    return scripts


def _lab_scripts(root: Path) -> list[str]:
    """Every lab's scripts: what the site ships under assets/labs/."""
    base = root / "labs_js"
    return lab_scripts(root, sorted(p.name for p in base.iterdir() if (p / "model.js").exists()))


def eager_lab_scripts(ids: list[str]) -> list[str]:
    """Loaded with the page: the module wrapper, and the tabs when there is a tablist (the keyboard
    works at once); the rest of the lab code loads near the labs (labs-loader.js)."""
    return ["shared/define.js"] + (["shared/tabs.js"] if len(ids) > 1 else [])


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


def _render_parts(book, lang, page, parsed_page, computed, md, env, root, cache, code_version, places: CiteIndex, dependencies) -> str:
    """A page's body, part by part: a part is re-rendered only when its text, what it shows, or the
    state the parts before it leave (section, citation count, terms already defined) changed."""
    state = ("", 0, (), ())
    html = []
    for part, tokens in parsed_page.parts:
        uses = [u for u in parsed_page.uses if u.location.path == part.path]

        def render_part(part=part, tokens=tokens, state=state):
            local = CiteIndex()
            inline = InlineRenderer(book, lang, page.output_path, computed, local)
            inline.restore(state)
            blocks = BlockRenderer(book, lang, inline, env, root, cache, code_version)
            return md.renderer.render(tokens, md.options, {"inline": inline, "blocks": blocks}), inline.state(), local.places

        key = lambda part=part, uses=uses, state=state: digest(part.model_dump(mode="json"), state, lang, page.output_path,
                                                              dependencies.of_uses(uses), code_version)
        text, state, part_places = cache.get("part-html", key, render_part)
        places.merge(part_places)
        html.append(text)
    return "".join(html)


def lazy_lab_scripts(root: Path, ids: list[str]) -> list[str]:
    eager = eager_lab_scripts(ids)
    return [s for s in lab_scripts(root, ids) if s not in eager]


def _assets(root: Path, output: Output) -> None:
    for name, parts in STYLESHEETS.items():
        css = "\n".join((root / part).read_text(encoding="utf-8") for part in parts if (root / part).exists())
        output.add(f"assets/{name}", shipped(css, line_comments=False))
    for path in sorted((root / "templates" / "static").glob("*.js")):
        output.add(f"assets/{path.name}", shipped(path.read_text(encoding="utf-8")))
    for script in _lab_scripts(root):
        output.add(f"assets/labs/{script}", shipped((root / "labs_js" / script).read_text(encoding="utf-8")))


def render_site(book: Book, parsed: dict[tuple[str, str], ParsedPage], computed: dict, md: MarkdownIt, root: Path,
                cache: BuildCache | None = None, code_version: str = "") -> Output:
    cache = cache or NoCache()
    env = make_environment(root)
    output = Output()
    cites = CiteIndex()
    lab_scripts = _lab_scripts(root)
    dependencies = Dependencies(book, computed)
    for lang in LANGS:
        pages = book.pages_in(lang)
        for position, page in enumerate(pages):
            parsed_page = parsed[(lang, page.id)]

            def render_page(page=page, parsed_page=parsed_page, position=position, pages=pages, lang=lang):
                local = CiteIndex()  # this page's citations, kept with its HTML for the bibliography
                body = _render_parts(book, lang, page, parsed_page, computed, md, env, root, cache, code_version, local, dependencies)
                page_scripts = [f"sources-{lang}.js", "site.js", "cards.js", "search.js"]
                if parsed_page.uses_of("dev-map"):
                    page_scripts.append("devmap.js")
                labs_here = _page_lab_ids(parsed_page)
                if labs_here:
                    page_scripts += [f"labs/{s}" for s in eager_lab_scripts(labs_here)] + ["labs-loader.js"]
                html = env.get_template("page.html.j2").render(
                    **_common(lang, page.output_path, book, page_id=page.id),
                    page=page, body=Markup(body),
                    toc=[s for s in parsed_page.sections if s.level == 2],
                    prev=pages[position - 1] if position > 0 else None,
                    next=pages[position + 1] if position + 1 < len(pages) else None,
                    scripts=page_scripts,
                    styles=["atlas.css"] + (["labs.css"] if parsed_page.uses_of("labs") else []) + (["devmap.css"] if parsed_page.uses_of("dev-map") else []),
                )
                return html, local.places

            key = lambda page=page, parsed_page=parsed_page: digest(page.model_dump(mode="json"), dependencies.of_page(parsed_page), code_version)
            html, places = cache.get("page-html", key, render_page)
            cites.merge(places)
            output.add(page.output_path, html)
    registry_version = digest(book.registry.model_dump(mode="json"), code_version)
    nav_version = digest([[p.lang, p.id, p.meta.title, p.meta.short_title, p.meta.order, p.meta.kind] for p in book.pages])
    for lang in LANGS:
        places = sorted((work, entries) for (place_lang, work), entries in cites.places.items() if place_lang == lang)
        output.add(f"{lang}/bibliography.html", cache.get("bibliography", digest(registry_version, nav_version, places, lang),
                                                          lambda lang=lang: _bibliography(book, env, lang, cites)))
        output.add(f"assets/sources-{lang}.js", cache.get("source-cards", digest(registry_version, lang), lambda lang=lang: _source_cards(book, lang)))
    output.add("index.html", cache.get("entry-page", digest(nav_version, code_version), lambda: env.get_template("index.html.j2").render(
        **_common("en", "index.html", book, page_id=None), entries=_entry_points(book))))
    _assets(root, output)
    return output


def _common(lang: str, path: str, book: Book, page_id: str | None) -> dict:
    depth = path.count("/")
    other = "en" if lang == "zh" else "zh"
    twin = f"{page_id}.html" if page_id else None
    return {
        "lang": lang,
        "html_lang": "zh-Hans" if lang == "zh" else "en",
        "t": lambda key: UI[key][lang],
        "root": "../" * depth,
        "csp": CSP,
        "other_lang": other,
        "twin_href": f"../{other}/{twin}" if twin else None,
        "nav": nav_entries(book, lang),
        "series": [p for p in book.pages_in(lang) if p.meta.kind in ("tutorial", "map")],
    }


def nav_entries(book: Book, lang: str) -> list[dict]:
    """Top navigation: each chapter, the tutorial as one entry (its pages have their own series nav)."""
    entries, tutorial_seen = [], False
    for page in book.pages_in(lang):
        if page.meta.kind in ("tutorial", "map"):
            if not tutorial_seen:
                entries.append({"href": page.output_path, "label": UI["token_factory"][lang]})
                tutorial_seen = True
            continue
        entries.append({"href": page.output_path, "label": page.meta.short_title or page.meta.title})
    return entries


def _source_cards(book: Book, lang: str) -> str:
    """The data citation cards show, as a classic script so it also loads from file://."""
    import json

    registry = book.registry
    cards = {}
    for number in sorted(list(registry.nodes) + list(registry.references)):
        entry = registry.entry(number)
        work = registry.works[entry.work]
        cards[number] = {
            "title": work.title, "year": work.year, "evidence": EVIDENCE_CLASSES[entry.evidence][lang],
            "numbers": [cite_label(n) for n in registry.numbers_of(work.key)],
            "open": "打开参考文献条目 →" if lang == "zh" else "Open the bibliography entry →",
        }
    payload = json.dumps(cards, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"window.AtlasSources={payload};\n"


def _entry_points(book: Book) -> list[dict]:
    entries = []
    for lang in LANGS:
        entries.append({"lang": lang, "label": UI["lang_name"][lang], "pages": book.pages_in(lang),
                        "bibliography": ui("bibliography", lang)})
    return entries


def _bibliography(book: Book, env, lang: str, cites: CiteIndex) -> str:
    registry = book.registry
    entries = []
    for key, work in registry.works.items():
        numbers = registry.numbers_of(key)
        ledger = [registry.entry(n) for n in numbers]
        refs = [e for e in ledger if e is not None and hasattr(e, "ref")]
        entries.append({
            "work": work,
            "numbers": [cite_label(n) for n in numbers],
            "evidence": sorted({EVIDENCE_CLASSES[e.evidence][lang] for e in ledger if e is not None}),
            "roles": [registry.nodes[n].role[lang] for n in numbers if n.startswith("n")],
            "refs": [{
                "label": cite_label(r.number), "title": r.title, "accessed": r.accessed,
                "material_date": r.material_date, "scope": r.scope[lang] if r.scope else None,
                "url_status": URL_STATUS[r.url_status][lang], "url": r.url, "note": r.note,
            } for r in refs],
            "cited_from": [
                {"href": f"../{path}#{anchor}", "label": label}
                for path, anchor, label in cites.places.get((lang, key), [])
            ],
        })
    gaps = [e for e in entries if e["work"].url is None]
    return env.get_template("bibliography.html.j2").render(
        **_common(lang, f"{lang}/bibliography.html", book, page_id="bibliography"),
        entries=entries, gaps=gaps, title=ui("bibliography", lang))
