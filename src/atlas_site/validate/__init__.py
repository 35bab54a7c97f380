"""Stage 2: raw located records -> model.Book and the profile's rule instances, every problem
located. The profile comes first: it names the book's languages, so when it cannot be read,
nothing else is checked (its problems are the causes; everything else would be consequences)."""

from __future__ import annotations

from ..diagnostics import Collector, SourceLocation
from ..files import read_regular
from ..load.project import RawProject
from ..model import Book
from .dates import check_claim_dates
from .ledgers import ids_in_unreadable, validate_ledgers
from .pages import validate_pages
from .profile import rule_problems, validate_profile
from .sources import validate_registry
from .strings import validate_strings

UNREADABLE = ("yaml.syntax", "yaml.value", "frontmatter.unclosed", "file.encoding", "bib.syntax")


def validate(raw: RawProject) -> tuple[Book | None, list, list, int]:
    """(book, rule instances, problems, follow-on problems left out); book is None when the
    profile is unusable."""
    out = Collector(list(raw.problems))
    profile, rules = validate_profile(raw.profile, out)
    if profile is None:
        return None, [], out.items, 0
    where: dict[str, SourceLocation] = {}
    broken = _unreadable(raw, out)
    registry = validate_registry(raw, profile, out, where, broken)
    ledgers = validate_ledgers(raw, profile.codes, out, where, broken)
    strings = validate_strings(raw, profile.codes, out)
    unreadable_content = {
        p.location.path for p in out.items if p.code in UNREADABLE and p.location.path.startswith("content/")
    }
    pages = validate_pages(raw, profile, raw.profile, out, unreadable_content)
    check_claim_dates(ledgers.get("claims", []), registry, where, out)
    book = Book(
        profile=profile,
        strings=strings,
        registry=registry,
        claims={c.id: c for c in ledgers.get("claims", [])},
        examples={e.id: e for e in ledgers.get("examples", [])},
        questions=tuple(ledgers.get("questions", [])),
        misconceptions=tuple(ledgers.get("misconceptions", [])),
        open_questions=tuple(ledgers.get("open_questions", [])),
        waves=tuple(ledgers.get("waves", [])),
        lineages={lineage.id: lineage for lineage in ledgers.get("lineages", [])},
        terms={t.id: t for t in ledgers.get("terms", [])},
        leads=tuple(ledgers.get("leads", [])),
        figures={f.id: f for f in ledgers.get("figures", [])},
        labs={lab.id: lab for lab in ledgers.get("labs", [])},
        lab_strings=ledgers["strings"],
        stylesheet="\n".join(raw.stylesheets),
        map_routes=tuple(ledgers.get("routes", [])),
        map_nodes=tuple(sorted(ledgers.get("map_nodes", []), key=lambda n: (n.year, n.id))),
        pages=pages,
        where=where,
        broken=frozenset(broken),
    )
    rules = rule_problems(rules, book, out)
    return book, rules, out.items, out.suppressed


def _unreadable(raw: RawProject, out: Collector) -> set[str]:
    """What files that failed to parse would have defined: their record ids, or a whole registry."""
    broken: set[str] = set()
    for problem in out.items:
        if problem.code not in UNREADABLE:
            continue
        path = problem.location.path
        if path.startswith("ledger/"):
            try:
                broken |= ids_in_unreadable(read_regular(raw.root / path).decode("utf-8", errors="replace"))
            except OSError:
                pass
        elif path.startswith("sources/") and path.endswith(".yaml"):
            broken |= {f"registry:{path[len('sources/') : -len('.yaml')]}", f"file:{path}"}
        elif path.startswith("sources/"):
            broken.add("registry:works")
    return broken
