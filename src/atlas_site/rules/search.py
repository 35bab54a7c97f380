"""Rule kind: the search box finds the section a reader means. The book keeps a set of queries (what
readers type, in each language) with the section each must bring into the first results; the static
half checks that every section named still exists, the browser half (gates/search.py) types every
query into the page's own search box and counts the hits."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import Field

from ..diagnostics import Diagnostic, SourceLocation
from ..load.yaml_source import parse_yaml
from .base import Args, Check, RuleKind


@dataclass(frozen=True)
class Query:
    """One query: typed on a page of `on`, it must bring one of `wants` (output paths with their
    fragment, e.g. "zh/ch14-memory.html#q3") into the first results, which are in `lang`."""

    text: str
    lang: str  # the language of the results it must find
    on: str  # the language of the page it is typed on (another one: the page offers `lang`'s results)
    wants: tuple[str, ...]
    location: SourceLocation


class SearchFinds(RuleKind):
    name = "search_finds"
    scopes = ("book",)
    browser = True
    rule = (
        "Typed into the page's own search box, at least `share` of the queries of the file `queries` bring the "
        "section each names into the first `top` results, in each language; a query listed under one language "
        "with `typed_on: <other>` is typed on a page of the other language, whose search must offer the first "
        "language's results. Every section a query names must exist."
    )
    fix = (
        "Make the section findable by the words readers use (its heading, a glossary term, the first sentence); "
        "when a section moved or was renamed, update the query file. A query that misses stays in the set."
    )

    class Args(Args):
        queries: str
        top: int = Field(default=3, ge=1, le=10)
        share: float = Field(default=0.95, gt=0, le=1)

    @classmethod
    def describe(cls, args) -> str:
        return f"{args.share:.0%} of {args.queries} in the top {args.top}"

    def queries(self, root: Path, output, languages) -> tuple[list[Query], list[Diagnostic]]:
        """The query file read and each wanted section found in the output; problems located in it."""
        path = (root / self.args.queries).resolve()
        if not path.is_relative_to(root.resolve()) or not path.is_file():
            why = "outside the project" if not path.is_relative_to(root.resolve()) else "not found"
            return [], [self.problem(self.location, f"query file {self.args.queries}: {why}")]
        origin = SourceLocation(self.args.queries, 1, 1)
        data, problems = parse_yaml(path.read_text(encoding="utf-8"), origin)
        if data is None:
            return [], problems
        found: list[Query] = []
        tree = data.data if isinstance(data.data, dict) else {}
        if not tree or set(tree) - set(languages):
            problems.append(
                self.problem(
                    origin,
                    f"the query file needs one list per language ({', '.join(languages)}), nothing else",
                )
            )
        for lang, items in tree.items():
            if lang not in languages:
                continue
            for number, item in enumerate(items if isinstance(items, list) else []):
                where = data.at((lang, number))
                query = _query(item, lang, languages, where, output)
                if isinstance(query, str):
                    problems.append(self.problem(where, query))
                else:
                    found.append(query)
        return found, problems

    def check(self, ctx, lang, pages) -> Check:  # static half: the file reads and its sections exist
        if ctx.root is None:
            return Check(0, [self.problem(self.location, "no project folder to read the query file from")])
        queries, problems = self.queries(ctx.root, ctx.output, ctx.book.languages)
        counts = ", ".join(f"{sum(q.lang == code for q in queries)} {code}" for code in ctx.book.languages)
        return Check(len(queries), problems, f"({counts} queries)")


def _query(item, lang: str, languages, where: SourceLocation, output) -> Query | str:
    """A `[query, section or [sections]]` or `{query, finds, typed_on}` item, or what is wrong with it.
    (`typed_on`, not `on`: YAML reads a bare `on` key as true.)"""
    if isinstance(item, list) and len(item) == 2:
        item = {"query": item[0], "finds": item[1]}
    if (
        not isinstance(item, dict)
        or set(item) - {"query", "finds", "typed_on"}
        or not {"query", "finds"} <= set(item)
    ):
        return "a query is [query, section] or {query: …, finds: section or [sections], typed_on: language}"
    text, finds, on = item["query"], item["finds"], item.get("typed_on", lang)
    finds = [finds] if isinstance(finds, str) else finds
    if not isinstance(text, str) or not text.strip():
        return "the query is empty"
    if on not in languages:
        return f"{text}: no language {on!r} in this book"
    if not isinstance(finds, list) or not finds or not all(isinstance(f, str) and "#" in f for f in finds):
        return f"{text}: name each section it must find as page#section"
    wants = []
    for target in finds:
        address = section_address(output, lang, target)
        if address is None:
            return f"{text}: no section {target} in {lang}"
        wants.append(address)
    return Query(text.strip(), lang, on, tuple(wants), where)


def section_address(output, lang: str, target: str) -> str | None:
    """Where `page#section` is published in `lang`: the page, or the part page of a chapter published
    as several that holds the section."""
    page, _, section = target.partition("#")
    holder = output.page_holding(lang, page, f'id="{section}"')
    return f"{holder}#{section}" if holder else None


KINDS = (SearchFinds,)
