"""The contributors' ledger dashboard: what is covered, used, open and failing (not in reader nav).
It is written in the first language of the book's interface that is English, else the first."""

from __future__ import annotations

from collections import Counter, defaultdict

from ..freshness import review_schedule
from ..model import Book, number_order
from ..rules.citations import prose_citations
from .layout import frame


def _uses(parsed: dict, kind: str) -> dict[str, list[str]]:
    places = defaultdict(list)
    for (lang, page_id), page in sorted(parsed.items()):
        for use in page.uses_of(kind):
            places[use.key].append(f"{lang}/{page_id}#{use.section}")
    return places


def _coverage(book: Book, parsed: dict, rules) -> list[dict]:
    """One table per `cites_all` rule: each registry entry and whether each language cites it."""
    tables = []
    for rule in rules:
        if rule.name != "cites_all":
            continue
        registry = book.registry
        entries = registry.of_kind(rule.args.registry)
        cited = {
            lang: {
                work.key
                for page_id in rule.page_ids()
                if (lang, page_id) in parsed
                for n, _ in prose_citations(book, parsed[(lang, page_id)])
                if (work := registry.work_of(n))
            }
            for lang in book.languages
        }
        rows = [
            {
                "number": n,
                "title": e.title_in(book.languages[0]) if hasattr(e, "title_in") else e.title,
                "status": getattr(e, "url_status", ""),
                "cited": {lang: e.work in cited[lang] for lang in book.languages},
            }
            for n, e in sorted(entries.items(), key=lambda item: number_order(item[0]))
        ]
        tables.append(
            {
                "registry": rule.args.registry,
                "pages": ", ".join(rule.page_ids()),
                "rows": rows,
                "cover": {lang: sum(r["cited"][lang] for r in rows) for lang in book.languages},
            }
        )
    return tables


def dashboard_context(book: Book, parsed: dict, gate_reports: list, rules) -> dict:
    registry = book.registry
    claim_uses = _uses(parsed, "claim")
    example_uses = _uses(parsed, "ex")
    example_ids = Counter(key.partition(".")[0] for key, places in example_uses.items() for _ in places)
    blocks = _uses(parsed, "misconception")
    lang = "en" if "en" in book.languages else book.languages[0]
    return {
        "coverage": _coverage(book, parsed, rules),
        "languages": book.languages,
        "claims": [
            {"id": c.id, "kind": c.kind, "source": ", ".join(c.source), "places": claim_uses.get(c.id, [])}
            for c in book.claims.values()
        ],
        "claim_kinds": Counter(c.kind for c in book.claims.values()),
        "examples": [
            {"id": e.id, "fn": e.fn, "uses": example_ids.get(e.id, 0)} for e in book.examples.values()
        ],
        "gaps": [
            {"key": w.key, "title": w.title, "numbers": ", ".join(registry.numbers_of(w.key))}
            for w in registry.works.values()
            if w.url is None
        ],
        "leads": sorted(book.leads, key=lambda lead: (lead.status, lead.id)),
        "lead_counts": Counter(lead.status for lead in book.leads),
        "misconceptions": [
            {"id": m.id, "statement": m.statement[lang], "section": m.section, "blocks": blocks.get(m.id, [])}
            for m in book.misconceptions
        ],
        "gates": [r.line() for r in gate_reports],
        "pages": [{"lang": p.lang, "id": p.id, "status": p.meta.status} for p in book.pages],
    }


def _reviews(book: Book, as_of) -> dict:
    """Every dated piece of evidence, soonest review first; past due only when a date is given."""
    reviews = review_schedule(book)
    return {
        "as_of": as_of,
        "intervals": book.profile.review_months,
        "rows": [
            {
                "kind": r.kind,
                "name": r.name,
                "verified": r.verified,
                "months": r.months,
                "rolling": r.rolling,
                "due": r.due,
                "overdue": r.overdue(as_of),
            }
            for r in reviews
        ],
        "overdue": sum(r.overdue(as_of) for r in reviews),
    }


def render_dashboard(
    book: Book, parsed: dict, gate_reports: list, rules, env, translations=None, as_of=None
) -> str:
    """The gates' verdict as a page (pipeline.py's dashboard stage), in the build's environment."""
    lang = "en" if "en" in book.languages else book.languages[0]
    return env.get_template("dashboard.html.j2").render(
        **frame(book, lang, "dashboard.html", None),
        **dashboard_context(book, parsed, gate_reports, rules),
        translations=translations.table() if translations is not None else [],
        translation_counts=translations.counts() if translations is not None else {},
        lock_exists=translations.lock_exists if translations is not None else False,
        reviews=_reviews(book, as_of),
    )
