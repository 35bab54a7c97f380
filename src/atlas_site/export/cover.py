"""The cover both editions share: an SVG made from the book's title, its parts and the edition's
date (templates/export/cover.svg.j2), so the same book always gets the same cover."""

from __future__ import annotations

from .assemble import Edition


def cover_lines(edition: Edition) -> list[str]:
    """What the book holds, in reading order: each chapter's title and each series' name."""
    lines = []
    for part in edition.profile.parts:
        if part.chapter and any(c.id == part.chapter for c in edition.chapters):
            lines.append(edition.chapter(part.chapter).title)
        elif part.series:
            lines.append(part.title[edition.lang])
    return lines


def render_cover(edition: Edition, env, edition_key: str) -> str:
    """The cover as a standalone SVG document; `edition_key` names the edition's string
    (export_print_edition / export_ebook_edition)."""
    return env.get_template("export/cover.svg.j2").render(
        title=edition.title,
        lines=cover_lines(edition),
        edition=edition.ui(edition_key),
        dated=_dated(edition),
    )


def _dated(edition: Edition) -> str:
    """The cover's date line: "Edition 1, 2026-12-05" where book.yaml numbers the edition."""
    if edition.date is None:
        return ""
    numbered = edition.profile.edition
    if numbered is not None:
        return edition.ui("export_edition_numbered").format(n=numbered.number, date=edition.date.isoformat())
    return f"{edition.ui('export_edition_date')} {edition.date.isoformat()}"
