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
        date_label=edition.ui("export_edition_date"),
        date=edition.date.isoformat() if edition.date else "",
    )
