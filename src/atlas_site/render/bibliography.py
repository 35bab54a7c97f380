"""The bibliography of each language (one entry per distinct work, with all its ledger numbers and
back-links to every place that cites it) and the data the citation cards show."""
from __future__ import annotations

import json

from ..model import Book
from .layout import frame
from .state import CiteIndex, source_label


def render_bibliography(book: Book, env, lang: str, cites: CiteIndex, downloads=()) -> str:
    registry = book.registry
    entries = []
    for key, work in registry.works.items():
        numbers = registry.numbers_of(key)
        ledger = [registry.entry(n) for n in numbers]
        refs = [e for e in ledger if e is not None and hasattr(e, "ref")]
        entries.append({
            "work": work,
            "numbers": [source_label(book, n) for n in numbers],
            "evidence": sorted({book.profile.evidence[e.evidence][lang] for e in ledger if e is not None}),
            "roles": [registry.nodes[n].role[lang] for n in numbers if n in registry.nodes],
            "refs": [{
                "label": source_label(book, r.number), "title": r.title, "accessed": r.accessed,
                "material_date": r.material_date, "scope": r.scope[lang] if r.scope else None,
                "url_status": book.ui(f"url_status.{r.url_status}", lang), "url": r.url, "note": r.note,
            } for r in refs],
            "cited_from": [{"href": f"../{path}#{anchor}", "label": label}
                           for path, anchor, label in cites.places.get((lang, key), [])],
        })
    gaps = [e for e in entries if e["work"].url is None]
    return env.get_template("bibliography.html.j2").render(
        **frame(book, lang, f"{lang}/bibliography.html", "bibliography", downloads),
        entries=entries, gaps=gaps, title=book.ui("bibliography", lang))


def render_source_cards(book: Book, lang: str) -> str:
    """The data citation cards show, as a classic script so it also loads from file://."""
    registry = book.registry
    cards = {}
    for number in sorted(list(registry.nodes) + list(registry.references)):
        entry = registry.entry(number)
        work = registry.works[entry.work]
        cards[number] = {
            "title": work.title, "year": work.year, "evidence": book.profile.evidence[entry.evidence][lang],
            "numbers": [source_label(book, n) for n in registry.numbers_of(work.key)],
            "open": book.ui("open_entry", lang),
        }
    payload = json.dumps(cards, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"window.AtlasSources={payload};\n"
