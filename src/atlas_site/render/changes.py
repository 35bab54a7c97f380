"""The "what changed" page of each language and the Atom feed of editions (editions.py): made only
when book.yaml names an edition. The feed's days are the editions' days, never the clock."""

from __future__ import annotations

import json
import uuid
from xml.sax.saxutils import escape

from ..editions import Changes, compare, sections_record, sources_record
from ..model import Book


def book_changes(book: Book, claims_json: bytes, translations, snapshots) -> Changes:
    """This edition against the newest earlier one that is frozen."""
    edition = book.profile.edition
    earlier = [s for s in snapshots if edition is not None and s.number < edition.number]
    claims = {c["id"]: c for c in json.loads(claims_json)["claims"]}
    return compare(
        earlier[-1] if earlier else None, claims, sources_record(book), sections_record(translations)
    )


def changes_context(book: Book, changes: Changes, lang: str) -> dict:
    """What the page template shows, in `lang`."""

    def text(record) -> str:
        return record["text"].get(lang) or next(iter(record["text"].values()))

    return {
        "edition": book.profile.edition,
        "since": changes.since,
        "added": [{"id": r["id"], "text": text(r)} for r in changes.added],
        "changed": [
            {"id": new["id"], "old": text(old), "new": text(new), "what": what}
            for old, new, what in changes.changed
        ],
        "retired": [{"id": r["id"], "text": text(r)} for r in changes.retired],
        "sources_added": [
            {"key": key, "title": r["title"], "url": r.get("url")} for key, r in changes.sources_added
        ],
        "sources_verified": [
            {"key": key, "old": old, "new": new} for key, old, new in changes.sources_verified
        ],
        "sections": changes.sections.get(lang, []),
    }


def atom_feed(book: Book, snapshots, changes: Changes) -> str:
    """changes.atom: one entry per edition (the frozen ones and this one), newest first."""
    edition = book.profile.edition
    site = book.profile.site_url or ""
    first = book.languages[0]
    editions = {s.number: s.date for s in snapshots}
    if edition is not None:
        editions[edition.number] = edition.date.isoformat()
    base = book.profile.downloads.basename
    feed_id = f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'atlas-site:{base}:editions')}"
    updated = max(editions.values()) if editions else "1970-01-01"
    title = escape(book.profile.title[first])
    author = book.profile.downloads.author
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        f"  <title>{title}</title>",
        f"  <id>{feed_id}</id>",
        f"  <updated>{updated}T00:00:00Z</updated>",
        f'  <link rel="alternate" href="{site}{first}/changes.html"/>',
        f"  <author><name>{escape(author[first] if author else book.profile.title[first])}</name></author>",
    ]
    for number, day in sorted(editions.items(), reverse=True):
        entry_id = f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'atlas-site:{base}:edition:{number}')}"
        summary = ""
        if edition is not None and number == edition.number and changes.since is not None:
            summary = (
                f"{len(changes.added)} claims added, {len(changes.changed)} changed, {len(changes.retired)} retired; "
                f"{len(changes.sources_added)} sources added, {len(changes.sources_verified)} verified again"
            )
        lines += [
            "  <entry>",
            f"    <title>{title} · {number}</title>",
            f"    <id>{entry_id}</id>",
            f"    <updated>{day}T00:00:00Z</updated>",
            *[
                f'    <link rel="alternate" hreflang="{book.profile.language(lang).html_lang}" href="{site}{lang}/changes.html"/>'
                for lang in book.languages
            ],
            *([f"    <summary>{escape(summary)}</summary>"] if summary else []),
            "  </entry>",
        ]
    return "\n".join([*lines, "</feed>", ""])
