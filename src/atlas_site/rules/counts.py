"""Rule kind: the book (or a part) has exactly the number of things it promises."""

from __future__ import annotations

from pydantic import Field, field_validator, model_validator

from .base import Args, Check, RuleKind

# what a `counts` rule can count: over the whole book, or what a part's pages place
BOOK_COUNTS = {
    "nodes": lambda book: len(book.registry.nodes),
    "references": lambda book: len(book.registry.references),
    "works": lambda book: len(book.registry.works),
    "claims": lambda book: len(book.claims),
    "examples": lambda book: len(book.examples),
    "questions": lambda book: len(book.questions),
    "misconceptions": lambda book: len(book.misconceptions),
    "terms": lambda book: len(book.terms),
    "figures": lambda book: len(book.figures),
    "labs": lambda book: len(book.labs),
}
PART_COUNTS = {
    "figures": lambda pages: len({u.key for p in pages for u in p.uses_of("figure")}),
    "labs": lambda pages: len({k for p in pages for u in p.uses_of("labs") for k in u.keys}),
    "sections": lambda pages: sum(len(p.sections) for p in pages),
}


class Counts(RuleKind):
    name = "counts"
    scopes = ("book", "part")
    rule = (
        "The book has exactly the promised number of each thing (book-wide: registry entries and ledger records; "
        "in a part: the figures and labs its pages place). A count that differs is a broken promise, not a detail."
    )
    fix = (
        "Add or remove what the message names, or change the promise in book.yaml if the book really changed."
    )

    class Args(Args):
        expect: dict[str, int] = Field(min_length=1)

        @model_validator(mode="before")
        @classmethod
        def _bare_mapping(cls, data):
            return {"expect": data} if isinstance(data, dict) and "expect" not in data else data

        @field_validator("expect")
        @classmethod
        def _non_negative(cls, expect):
            bad = [k for k, v in expect.items() if v < 0]
            if bad:
                raise ValueError(f"counts are not negative: {', '.join(bad)}")
            return expect

    @classmethod
    def describe(cls, args) -> str:
        return "counts " + ", ".join(f"{v} {k}" for k, v in args.expect.items())

    def known(self) -> dict:
        return PART_COUNTS if self.part else BOOK_COUNTS

    def references(self, book):
        unknown = [k for k in self.args.expect if k not in self.known()]
        return [f"cannot count {', '.join(unknown)} (known: {', '.join(self.known())})"] if unknown else []

    def check(self, ctx, lang, pages) -> Check:
        problems = []
        for thing, expected in self.args.expect.items():
            actual = PART_COUNTS[thing](pages) if self.part else BOOK_COUNTS[thing](ctx.book)
            if actual != expected:
                where = pages[0].page.origin if self.part else self.location
                problems.append(
                    self.problem(
                        where,
                        f"{lang + ': ' if self.part else ''}{actual} {thing}, the book promises {expected}",
                    )
                )
        return Check(len(self.args.expect), problems)


KINDS = (Counts,)
