"""The bibliography of each language (one entry per distinct work, with all its ledger numbers and
back-links to every place that cites it) (the data the citation cards show is in render/previews.py)."""
from __future__ import annotations

from ..model import Book
from .layout import frame
from .state import CiteIndex, source_label


def render_bibliography(book: Book, env, lang: str, cites: CiteIndex, claims_by_work: dict | None = None) -> str:
    """`claims_by_work`: work key -> the numbers page rows of the claims it is a source of."""
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
            "claims": (claims_by_work or {}).get(key, []),
        })
    gaps = [e for e in entries if e["work"].url is None]
    return env.get_template("bibliography.html.j2").render(
        **frame(book, lang, f"{lang}/bibliography.html", "bibliography", book.ui("bibliography", lang),
                book.ui("bibliography_description", lang)),
        entries=entries, gaps=gaps, title=book.ui("bibliography", lang))
