"""Render every page, the bibliographies, the entry page and the assets into an Output, and tell
the gates what each page placed (the manifest)."""

from __future__ import annotations

from pathlib import Path

from markdown_it import MarkdownIt
from markupsafe import Markup

from ..cache import BuildCache, Versioned, digest
from ..diagnostics import AtlasError
from ..editions import read_snapshots
from ..manifest import Manifest, PageRecord
from ..model import Book
from ..model.sources import registry_kind
from ..output import Output
from ..resolve.pages import ParsedPage
from ..translations.sections import TOP
from .assets import GENERATED_PAGE_STYLES, add_assets, page_assets, shipped_css
from .bibliography import render_bibliography
from .changes import atom_feed, book_changes, changes_context
from .citation import cite_page
from .dated import dated
from .dependencies import Dependencies
from .glossary import render_glossary
from .home import render_chooser, render_home, render_not_found
from .layout import frame, series_of
from .not_found import recovery_map
from .numbers import claim_rows, render_numbers
from .open_data import open_data_files
from .placeholders import with_lengths
from .previews import linked_sections, render_previews
from .search_terms import search_terms, term_homes
from .split import MARKER, split_chapters
from .state import CiteIndex, RenderState, source_label
from .web import add_web_files


def render_body(
    book: Book,
    parsed_page: ParsedPage,
    computed: dict,
    md: MarkdownIt,
    env,
    root: Path,
    cache,
    notices: dict,
    dependencies,
    tokens_of,
) -> tuple[str, RenderState]:
    """A page's article content and the state it leaves (what it cites and places). `notices`:
    section id -> the notice that its twin changed (translations/). `tokens_of`: part -> tokens
    (the parse stage's: the index holds none). `cache`: the render stage's (pipeline.py)."""
    page = parsed_page.page
    state = RenderState(
        book,
        page.lang,
        page.output_path,
        computed,
        env,
        root,
        cache,
        figure_numbers=parsed_page.figure_numbers(),
    )
    state.notices = notices
    return _render_parts(state, parsed_page, md, dependencies, tokens_of), state


def _render_parts(
    state: RenderState, parsed_page: ParsedPage, md: MarkdownIt, dependencies, tokens_of
) -> str:
    """A page's body, part by part: a part is re-rendered only when its text, what it shows, the
    state the parts before it leave (section, counters, terms already defined) or the notices of
    its own sections changed (a notice quotes the twin's text: an edit there changes only the
    parts it touches). The notice on the page's opening comes first."""
    carried = state.carry()
    html = [state.notices.get(TOP, "")]
    chapter = state.book.part_of(parsed_page.page.id)
    between = MARKER if chapter is not None and chapter.split else ""  # where render/split.py cuts
    for index, part in enumerate(parsed_page.page.parts):
        if index:
            html.append(between)
        if between:
            carried = RenderState.on_a_new_page(carried)
        uses = [u for u in parsed_page.uses if u.location.path == part.path]
        notices = [
            (s.id, state.notices[s.id])
            for s in parsed_page.sections
            if s.location.path == part.path and s.id in state.notices
        ]  # a notice sits under its heading

        def render_part(part=part, carried=carried):
            local = RenderState(
                state.book,
                state.lang,
                state.page_path,
                state.computed,
                state.env,
                state.root,
                state.cache,
                figure_numbers=state.figure_numbers,
            )
            local.resume(carried)
            local.notices = state.notices
            text = with_lengths(md.renderer.render(tokens_of(part), md.options, {"state": local}))
            local.record.bare_terms = [
                [part.path, part.body_line + line, col] for line, col in local.record.bare_terms
            ]
            return text, local.carry(), local.cites.places, local.record.dump()

        key = lambda part=part, uses=uses, carried=carried, notices=notices: digest(
            part.model_dump(mode="json"),
            carried,
            state.lang,
            state.page_path,
            state.figure_numbers,
            dependencies.of_uses(uses),
            notices,
        )
        text, carried, places, record = state.cache.get("part-html", key, render_part)
        state.cites.merge(places)
        state.record.merge(PageRecord.load(record))
        html.append(text)
    return "".join(html)


def _lists_cited(book: Book, lang: str, cites: CiteIndex) -> list[dict]:
    """The registries a page's citations number from, each with the first label it shows and the
    list's name: where there are two ("[N25]" beside "[41]"), the labels' key says what each is."""
    first: dict[str, str] = {}
    for (_lang, key), entries in cites.places.items():
        numbers = book.registry.numbers_of(key)
        for _path, _section, label in entries:
            number = next((n for n in numbers if source_label(book, n) == label), None)
            if number is not None:
                first.setdefault(registry_kind(number), label)
    return [
        {"sample": label, "title": book.profile.sources[kind].title[lang]}
        for kind, label in first.items()
        if kind in book.profile.sources
    ]


def _entering(book: Book, lang: str, part, following) -> str | None:
    """The name of the series the next page opens, when it is not the part being read: the last
    page of a chapter says "Next: Token factory · Overview" (review 31-i #12: "Next: Overview &
    cost" left a reader unaware they were leaving Chapter 14)."""
    if following is None:
        return None
    other = book.part_of(following.id)
    if other is None or other is part or not other.series or other.title is None:
        return None
    return other.title[lang]


def _verified_both(book: Book, lang: str, parsed_page) -> Markup | None:
    """The header's two days, where a number on the page was verified after its prose ("Text
    verified 2026-07-29; numbers up to 2026-10-02"; review 30-o D2: the prose's day alone, above
    numbers stamped later, read as a contradiction); None where the prose's day says it all."""
    days = [book.claims[use.key].verified for use in parsed_page.uses_of("claim") if use.key in book.claims]
    newest = max(days, default=None)
    prose = parsed_page.page.meta.last_verified
    if not (newest and prose and newest > prose):
        return None
    return Markup(dated(book.ui("page_verified_both", lang), text=prose, numbers=newest))


def _works_cited(book: Book, cites: CiteIndex) -> list[dict]:
    """The works one page cites, in the order it first cites them, with the labels it uses: the
    list printed at the end of the page so that "[N25]" can be looked up on paper."""
    works = []
    for (_lang, key), entries in cites.places.items():
        work = book.registry.works[key]
        works.append(
            {
                "labels": list(dict.fromkeys(label for _path, _section, label in entries)),
                "title": work.title,
                "year": work.year,
            }
        )
    return works


def render_site(
    book: Book,
    parsed: dict[tuple[str, str], ParsedPage],
    computed: dict,
    md: MarkdownIt,
    root: Path,
    env,
    cache: BuildCache | Versioned,
    notices: dict,
    downloads,
    dependencies: Dependencies,
    tokens_of,
    translations=None,
) -> tuple[Output, Manifest]:
    """`env`: the build's Jinja environment (make_environment: its `editions` are `downloads`).
    `cache`: the render stage's (pipeline.py). `notices`: (lang, page id) -> {section id: HTML}
    of the sections a twin changed under (translations/). `dependencies`: the records' hashes
    (serve keeps them for its hot path). `downloads`: the print and e-book editions of this book
    (export/downloads.py), shipped and linked from every page's footer. `tokens_of`: the parse
    stage's part -> tokens (the index holds no tokens)."""
    linked = [(d.path, d.size) for d in downloads]
    output, manifest = Output(), Manifest()
    cites = CiteIndex()
    for lang in book.languages:
        pages = book.pages_in(lang)
        for position, page in enumerate(pages):
            parsed_page = parsed[(lang, page.id)]

            def render_page(page=page, parsed_page=parsed_page, position=position, pages=pages, lang=lang):
                body, state = render_body(
                    book,
                    parsed_page,
                    computed,
                    md,
                    env,
                    root,
                    cache,
                    notices.get((lang, page.id), {}),
                    dependencies,
                    tokens_of,
                )
                scripts, styles = page_assets(parsed_page, lang)
                part = book.part_of(page.id)
                following = pages[position + 1] if position + 1 < len(pages) else None
                html = env.get_template("page.html.j2").render(
                    **frame(book, lang, page.output_path, page.id, page.meta.title, page.meta.description),
                    page=page,
                    body=Markup(body),
                    chapter_number=part.number if part else None,
                    series=series_of(book, lang, page.id),
                    toc=[s for s in parsed_page.sections if s.level == 2],
                    prev=pages[position - 1] if position > 0 else None,
                    next=following,
                    entering=_entering(book, lang, part, following),
                    scripts=scripts,
                    styles=styles,
                    cited=_works_cited(book, state.cites),
                    cited_lists=_lists_cited(book, lang, state.cites),
                    cite=cite_page(book, lang, page.output_path, page.id, page.meta.title),
                    verified_both=_verified_both(book, lang, parsed_page),
                    page_url=f"{book.profile.site_url}{page.output_path}" if book.profile.site_url else "",
                )
                return html, state.cites.places, state.record.dump()

            key = lambda page=page, parsed_page=parsed_page: digest(
                page.model_dump(mode="json"),
                dependencies.of_page(parsed_page),
                linked,
                sorted(notices.get((page.lang, page.id), {}).items()),
            )
            html, places, record = cache.get("page-html", key, render_page)
            cites.merge(places)
            manifest.record(lang, page.id).merge(PageRecord.load(record))
            output.add(page.output_path, html)
    registry_version = digest(book.registry.model_dump(mode="json"), book.profile.model_dump(mode="json"))
    nav_version = digest(
        book.profile.model_dump(mode="json"),
        book.strings,
        [[p.lang, p.id, p.meta.model_dump(mode="json")] for p in book.pages],
        linked,
    )  # the frame every page shows
    ledgers = digest(
        [
            [r.model_dump(mode="json") for r in records.values()]
            for records in (book.claims, book.terms, book.figures, book.labs)
        ]
    )
    generated = {part.generated for part in book.profile.parts if part.generated}
    data_files = open_data_files(book, parsed, computed, "numbers" in generated)
    changes = _changes(book, root, data_files["claims.json"], translations)
    for lang in book.languages:
        _render_generated(
            book,
            env,
            parsed,
            computed,
            lang,
            cites,
            output,
            cache,
            generated,
            digest(registry_version, nav_version, ledgers, lang),
            changes,
        )
    output.add("index.html", cache.get("entry-page", nav_version, lambda: render_chooser(book, env)))
    homes = term_homes(book, parsed)
    output.add(
        "assets/search-terms.js",
        cache.get("search-terms", digest(ledgers, sorted(homes.items())), lambda: search_terms(book, homes)),
    )
    for path, data in data_files.items():
        output.add(path, data)
    add_web_files(book, output)
    add_assets(root, output)
    split_chapters(book, output)  # after every page and the previews are made: it moves links in them
    # after the split: the 404 page guesses from the pages and sections as published
    recovery = recovery_map(output, book.languages)
    output.add(
        "404.html",
        cache.get("not-found", digest(nav_version, recovery), lambda: render_not_found(book, env, recovery)),
    )
    if book.stylesheet:
        output.add("assets/book.css", shipped_css(book.stylesheet))
    for download in downloads:
        output.add(download.path, download.data)
    return output, manifest


def _changes(book: Book, root: Path, claims_json: bytes, translations):
    """This edition against the frozen ones (editions.py), or None when book.yaml names no edition."""
    if book.profile.edition is None:
        return None
    problems: list = []
    snapshots = read_snapshots(root, problems)
    if problems:
        raise AtlasError(problems)
    return book_changes(book, claims_json, translations, snapshots), snapshots


def _was(book: Book, changes, lang: str) -> dict[str, str]:
    """Claim id -> "changed in edition N: was X" for the claims this edition changed."""
    number = book.profile.edition.number if book.profile.edition else 0
    pattern = book.ui("changed_in", lang)
    return {
        new["id"]: pattern.replace("{n}", str(number)).replace("{old}", old["text"].get(lang, ""))
        for old, new, _what in changes.changed
    }


def _render_generated(
    book: Book,
    env,
    parsed: dict,
    computed: dict,
    lang: str,
    cites: CiteIndex,
    output: Output,
    cache,
    generated: set,
    version: str,
    changes=None,
) -> None:
    """One language's generated pages: home, bibliography, numbers and glossary (those book.yaml lists),
    and the data of its preview cards."""
    uses = digest(
        [
            [key, [[u.kind, u.key, u.section] for u in p.uses], [[s.id, s.title] for s in p.sections]]
            for key, p in sorted(parsed.items())
            if key[0] == lang
        ]
    )
    rows = claim_rows(book, parsed, lang)
    claims_by_work: dict = {}
    for row in rows:
        for work in dict.fromkeys(source["work"] for source in row["sources"]):
            claims_by_work.setdefault(work, []).append(row)
    places = sorted(
        (work, entries) for (place_lang, work), entries in cites.places.items() if place_lang == lang
    )
    output.add(
        f"{lang}/index.html",
        cache.get("home", digest(version, uses), lambda: render_home(book, env, parsed, lang)),
    )
    output.add(
        f"{lang}/bibliography.html",
        cache.get(
            "bibliography",
            digest(version, places, uses),
            lambda: render_bibliography(
                book, env, lang, cites, parsed, claims_by_work if "numbers" in generated else None
            ),
        ),
    )
    if "numbers" in generated:
        # the worked examples' rows show their computed outputs: their ledger and values key the page too
        examples = digest([e.model_dump(mode="json") for e in book.examples.values()], computed)
        was = _was(book, changes[0], lang) if changes else {}
        output.add(
            f"{lang}/numbers.html",
            cache.get(
                "numbers",
                digest(version, uses, examples, was),
                lambda: render_numbers(book, env, parsed, computed, lang, was),
            ),
        )
    if changes:
        context = changes_context(book, changes[0], lang)
        title = book.ui("changes", lang)
        output.add(
            f"{lang}/changes.html",
            env.get_template("changes.html.j2").render(
                **frame(
                    book, lang, f"{lang}/changes.html", "changes", title, book.ui("changes_description", lang)
                ),
                title=title,
                styles=GENERATED_PAGE_STYLES,
                scripts=["site.js", "search.js"],
                **context,
            ),
        )
        if lang == book.languages[0]:
            output.add("changes.atom", atom_feed(book, changes[1], changes[0]))
    if "glossary" in generated:
        output.add(
            f"{lang}/glossary.html",
            # its "used in" lists are every language's uses of the terms (render/uses.py shared_places)
            cache.get(
                "glossary",
                digest(version, uses, _term_uses(parsed)),
                lambda: render_glossary(book, env, parsed, lang),
            ),
        )
    # the pages are read one at a time (a copy of every page's HTML at once would be the largest
    # thing a big book's build holds), and hashed as the bytes they already are
    pages = sorted((page.id, page.output_path) for page in book.pages_in(lang) if page.output_path in output)
    key = lambda: digest(
        version, [page_id for page_id, _path in pages], *(output[path] for _id, path in pages)
    )
    output.add(
        f"assets/previews-{lang}.js",
        cache.get(
            "previews",
            key,
            lambda: render_previews(
                book,
                lang,
                ((page_id, output.text(path)) for page_id, path in pages),
                linked_sections(parsed, lang),
            ),
        ),
    )


def _term_uses(parsed: dict) -> list:
    return [[key, [[u.key, u.section] for u in p.uses_of("term")]] for key, p in sorted(parsed.items())]
