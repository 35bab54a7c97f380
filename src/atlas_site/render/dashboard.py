"""The contributors' ledger dashboard: what is covered, used, open and failing (not in reader nav)."""
from __future__ import annotations

from collections import Counter, defaultdict

from ..model import LANGS, Book
from .templates import make_environment


def _uses(parsed: dict, kind: str) -> dict[str, list[str]]:
    places = defaultdict(list)
    for (lang, page_id), page in sorted(parsed.items()):
        for use in page.uses_of(kind):
            places[use.key].append(f"{lang}/{page_id}#{use.section}")
    return places


def dashboard_context(book: Book, parsed: dict, gate_reports: list) -> dict:
    registry = book.registry
    cited_works = defaultdict(set)  # (lang, page kind) -> works
    for (lang, _), page in parsed.items():
        for use in page.uses_of("cite"):
            work = registry.work_of(use.key)
            if work:
                cited_works[(lang, page.page.id if page.page.id == "ch14" else page.page.meta.kind)].add(work.key)
    nodes = []
    for number, node in sorted(registry.nodes.items()):
        nodes.append({"number": number, "title": node.title,
                      "cited": {lang: node.work in cited_works[(lang, "ch14")] for lang in LANGS}})
    refs = []
    for number, ref in sorted(registry.references.items(), key=lambda item: int(item[0][1:])):
        refs.append({"number": number, "title": ref.title, "status": ref.url_status,
                     "cited": {lang: ref.work in cited_works[(lang, "tutorial")] for lang in LANGS}})
    claim_uses = _uses(parsed, "claim")
    example_uses = _uses(parsed, "ex")
    example_ids = Counter(key.partition(".")[0] for key, places in example_uses.items() for _ in places)
    blocks = _uses(parsed, "misconception")
    return {
        "nodes": nodes, "refs": refs,
        "node_cover": {lang: sum(n["cited"][lang] for n in nodes) for lang in LANGS},
        "ref_cover": {lang: sum(r["cited"][lang] for r in refs) for lang in LANGS},
        "claims": [{"id": c.id, "kind": c.kind, "source": ", ".join(c.source), "places": claim_uses.get(c.id, [])} for c in book.claims.values()],
        "claim_kinds": Counter(c.kind for c in book.claims.values()),
        "examples": [{"id": e.id, "fn": e.fn, "uses": example_ids.get(e.id, 0)} for e in book.examples.values()],
        "gaps": [{"key": w.key, "title": w.title, "numbers": ", ".join(registry.numbers_of(w.key))} for w in registry.works.values() if w.url is None],
        "leads": sorted(book.leads, key=lambda lead: (lead.status, lead.id)),
        "lead_counts": Counter(lead.status for lead in book.leads),
        "misconceptions": [{"id": m.id, "statement": m.statement.en, "section": m.section, "blocks": blocks.get(m.id, [])} for m in book.misconceptions],
        "gates": [r.line() for r in gate_reports],
        "pages": [{"lang": p.lang, "id": p.id, "status": p.meta.status} for p in book.pages],
    }


def render_dashboard(book: Book, parsed: dict, gate_reports: list, root) -> str:
    env = make_environment(root)
    from .site import CSP, nav_entries

    return env.get_template("dashboard.html.j2").render(
        lang="en", html_lang="en", t=lambda key: {"site": "LLM Atlas", "skip": "Skip to content", "home": "Contents",
                                                  "bibliography": "Bibliography", "theme": "Toggle dark/light"}.get(key, key),
        root="", csp=CSP, other_lang="zh", twin_href=None, nav=nav_entries(book, "en"), series=[], **dashboard_context(book, parsed, gate_reports))
