"""Render every page, the bibliographies, the entry page and the assets into an Output, and tell
the gates what each page placed (the manifest)."""
from __future__ import annotations

from pathlib import Path

from markdown_it import MarkdownIt
from markupsafe import Markup

from ..cache import BuildCache, NoCache, digest
from ..manifest import Manifest, PageRecord
from ..model import Book
from ..output import Output
from ..resolve.pages import ParsedPage
from .assets import add_assets, page_assets
from .bibliography import render_bibliography, render_source_cards
from .dependencies import Dependencies
from .layout import frame, series_of
from .state import CiteIndex, RenderState
from .templates import make_environment


def _render_parts(state: RenderState, parsed_page: ParsedPage, md: MarkdownIt, dependencies) -> str:
    """A page's body, part by part: a part is re-rendered only when its text, what it shows, or the
    state the parts before it leave (section, counters, terms already defined) changed."""
    carried = state.carry()
    html = []
    for part, tokens in parsed_page.parts:
        uses = [u for u in parsed_page.uses if u.location.path == part.path]

        def render_part(part=part, tokens=tokens, carried=carried):
            local = RenderState(state.book, state.lang, state.page_path, state.computed, state.env, state.root,
                                state.cache, state.code_version)
            local.resume(carried)
            text = md.renderer.render(tokens, md.options, {"state": local})
            return text, local.carry(), local.cites.places, local.record.dump()

        key = lambda part=part, uses=uses, carried=carried: digest(part.model_dump(mode="json"), carried, state.lang, state.page_path,
                                                                  dependencies.of_uses(uses), state.code_version)
        text, carried, places, record = state.cache.get("part-html", key, render_part)
        state.cites.merge(places)
        state.record.merge(PageRecord.load(record))
        html.append(text)
    return "".join(html)


def render_site(book: Book, parsed: dict[tuple[str, str], ParsedPage], computed: dict, md: MarkdownIt, root: Path,
                cache: BuildCache | None = None, code_version: str = "", downloads=()) -> tuple[Output, Manifest]:
    """`downloads`: the print and e-book editions of this book (export/downloads.py), shipped and
    linked from every page's footer."""
    cache = cache or NoCache()
    linked = [(d.path, d.size) for d in downloads]
    env = make_environment(root)
    output, manifest = Output(), Manifest()
    cites = CiteIndex()
    dependencies = Dependencies(book, computed)
    for lang in book.languages:
        pages = book.pages_in(lang)
        for position, page in enumerate(pages):
            parsed_page = parsed[(lang, page.id)]

            def render_page(page=page, parsed_page=parsed_page, position=position, pages=pages, lang=lang):
                state = RenderState(book, lang, page.output_path, computed, env, root, cache, code_version)
                body = _render_parts(state, parsed_page, md, dependencies)
                scripts, styles = page_assets(parsed_page, lang)
                part = book.part_of(page.id)
                html = env.get_template("page.html.j2").render(
                    **frame(book, lang, page.output_path, page.id, downloads),
                    page=page, body=Markup(body), chapter_number=part.number if part else None,
                    series=series_of(book, lang, page.id),
                    toc=[s for s in parsed_page.sections if s.level == 2],
                    prev=pages[position - 1] if position > 0 else None,
                    next=pages[position + 1] if position + 1 < len(pages) else None,
                    scripts=scripts, styles=styles)
                return html, state.cites.places, state.record.dump()

            key = lambda page=page, parsed_page=parsed_page: digest(page.model_dump(mode="json"), dependencies.of_page(parsed_page), code_version, linked)
            html, places, record = cache.get("page-html", key, render_page)
            cites.merge(places)
            manifest.record(lang, page.id).merge(PageRecord.load(record))
            output.add(page.output_path, html)
    registry_version = digest(book.registry.model_dump(mode="json"), book.profile.model_dump(mode="json"), code_version)
    nav_version = digest(book.profile.model_dump(mode="json"), [[p.lang, p.id, p.meta.title, p.meta.short_title] for p in book.pages])
    for lang in book.languages:
        places = sorted((work, entries) for (place_lang, work), entries in cites.places.items() if place_lang == lang)
        output.add(f"{lang}/bibliography.html", cache.get("bibliography", digest(registry_version, nav_version, places, lang, linked),
                                                          lambda lang=lang: render_bibliography(book, env, lang, cites, downloads)))
        output.add(f"assets/sources-{lang}.js", cache.get("source-cards", digest(registry_version, lang), lambda lang=lang: render_source_cards(book, lang)))
    first = book.languages[0]
    output.add("index.html", cache.get("entry-page", digest(nav_version, code_version, linked), lambda: env.get_template("index.html.j2").render(
        **frame(book, first, "index.html", None), entries=_entry_points(book, downloads), titles=book.profile.title.root)))
    add_assets(root, output)
    for download in downloads:
        output.add(download.path, download.data)
    return output, manifest


def _entry_points(book: Book, downloads=()) -> list[dict]:
    return [{"lang": lang.code, "html_lang": lang.html_lang, "label": lang.name, "pages": book.pages_in(lang.code),
             "bibliography": book.ui("bibliography", lang.code), "choose": book.ui("choose", lang.code),
             "downloads": [d for d in downloads if d.lang == lang.code], "t": lambda key, code=lang.code: book.ui(key, code)}
            for lang in book.profile.languages]
