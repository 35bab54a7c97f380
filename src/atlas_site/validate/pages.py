"""content/<lang>/<page>/*.md -> pages, checked against the profile: every page the profile names
exists in every language, and every page is named by the profile."""

from __future__ import annotations

from collections import defaultdict

from ..diagnostics import Collector, SourceLocation, closest
from ..model import Page, PageMeta, PagePart
from ..model.profile import GENERATED_PAGES
from .prose_text import prose_text_problems
from .schema import build_item

# pages the engine generates: a content page may not take their paths
GENERATED = (*GENERATED_PAGES, "index", "dashboard", "404")


def validate_pages(
    raw, profile, profile_data, out: Collector, unreadable: frozenset[str] | set[str] = frozenset()
) -> tuple[Page, ...]:
    """`unreadable`: content files whose front matter did not parse (reported as the cause: the
    page they begin, and its missing twin, are its follow-ons, counted, not said again)."""
    languages = profile.codes
    failed = {(lang, page_dir) for lang, page_dir, doc in raw.content if doc.path in unreadable}
    grouped: dict[tuple[str, str], list] = defaultdict(list)
    bidi_allowed = {language.code: language.bidi_controls for language in profile.languages}
    for lang, page_dir, doc in raw.content:
        if lang not in languages:
            out.error(
                SourceLocation(doc.path),
                "page.unknown-language",
                f"content language '{lang}' is not one of book.yaml languages ({', '.join(languages)})",
            )
            continue
        out.extend(prose_text_problems(doc, bidi_allowed[lang]))
        grouped[(lang, page_dir)].append(doc)
    pages = []
    for (lang, page_dir), docs in sorted(grouped.items()):
        if (lang, page_dir) in failed and docs[0].meta is None:
            out.quiet()  # its front matter failed to parse: that is the problem reported
            continue
        page = _page(lang, page_dir, docs, out)
        if page is not None:
            pages.append(page)
    by_id: defaultdict[str, dict] = defaultdict(dict)
    for page in pages:
        by_id[page.id][page.lang] = page
    named = profile.reading_order()
    for page_id, versions in sorted(by_id.items()):
        other = next(iter(versions.values()))
        for lang in languages:
            if lang not in versions and (lang, page_id) in failed:
                out.quiet()
            elif lang not in versions:
                out.error(
                    other.origin,
                    "page.missing-translation",
                    f"page '{page_id}' has no {lang} twin (expected content/{lang}/{page_id}/)",
                )
        if page_id not in named:
            out.error(
                other.origin,
                "profile.unlisted-page",
                f"page '{page_id}' is not in any part of book.yaml",
                "add it to a chapter or series under `parts:` (or delete the folder)",
            )
    for part_index, part in enumerate(profile.parts):
        for page_index, page_id in enumerate(part.page_ids):
            if page_id not in by_id:
                path = (
                    ("parts", part_index, "chapter")
                    if part.chapter
                    else ("parts", part_index, "pages", page_index)
                )
                out.error(
                    profile_data.at(path),
                    "profile.missing-page",
                    f"book.yaml names page '{page_id}', but content/<lang>/{page_id}/ does not exist",
                    closest(page_id, by_id) or f"create it with `atlas-site new chapter {page_id}`",
                )
    return tuple(pages)


def _page(lang, page_dir, docs, out: Collector) -> Page | None:
    head, rest = docs[0], docs[1:]
    if head.meta is None:
        out.error(
            SourceLocation(head.path, 1, 1),
            "page.no-front-matter",
            f"the first part of page '{page_dir}' needs front matter (page, title, status)",
        )
        return None
    meta = build_item(out, PageMeta, head.meta.data, head.meta, ())
    for doc in rest:
        if doc.meta is not None:
            out.error(
                doc.meta.origin.shifted(-1),
                "page.part-front-matter",
                "only the first part file of a page carries front matter",
            )
    if meta is None:
        return None
    if meta.page != page_dir:
        out.error(
            head.meta.at(("page",)),
            "page.id-mismatch",
            f"page id '{meta.page}' differs from its folder '{page_dir}'",
        )
        return None
    if meta.status == "published" and meta.last_verified is None:
        out.error(
            head.meta.at(("status",)),
            "page.unverified",
            f"published page '{meta.page}' ({lang}) has no last_verified date",
            "add `last_verified: YYYY-MM-DD`, the day its facts were last checked against the sources",
        )
    if meta.page in GENERATED:
        out.error(
            head.meta.at(("page",)),
            "page.reserved-id",
            f"page id '{meta.page}' is the path of a generated page ({', '.join(GENERATED)})",
        )
        return None
    if meta.status == "published" and not (meta.description or "").strip():
        out.error(
            head.meta.at(("description",)),
            "page.no-description",
            f"published page '{meta.page}' ({lang}) has no description",
            "add `description:` to its front matter: one or two sentences, in the page's language, on what the page teaches",
        )
    parts = tuple(PagePart(path=d.path, body=d.body, body_line=d.body_line) for d in docs)
    return Page(lang=lang, meta=meta, parts=parts)
