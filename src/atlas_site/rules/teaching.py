"""Rule kind: every listed question section teaches in full — besides its mechanism, a worked
example computed by the labs' code ({{ex:…}}) and a paragraph that says where the mechanism stops
holding, opened by the words book.yaml gives for each language. Without `boundary` words (a
tutorial whose boundaries are written in the flow of its text, not under one opening), only the
worked example is required."""

from __future__ import annotations

from pydantic import Field

from .base import Check, PageArgs, RuleKind


class ExampleAndBoundary(RuleKind):
    name = "example_and_boundary"
    rule = (
        "Each listed section (with its subsections) holds at least one worked example ({{ex:ID.OUTPUT}}, "
        "computed by the labs' code) and, where `boundary` is given, a boundary paragraph: a paragraph "
        'that begins with the words `boundary` gives for the page\'s language (e.g. en: "Where this stops holding").'
    )
    fix = (
        "Add a worked example from ledger/examples.md to the section, and a paragraph opening with the "
        "boundary words that says where the mechanism stops holding."
    )

    class Args(PageArgs):
        sections: tuple[str, ...] = Field(min_length=1)
        boundary: dict[str, str] | None = None  # language -> the words a boundary paragraph begins with

    @classmethod
    def describe(cls, args) -> str:
        kept = " and a boundary" if args.boundary else ""
        return f"{len(args.sections)} sections with a worked example{kept}"

    def references(self, book):
        if self.args.boundary is None:
            return []
        missing = [lang for lang in book.languages if not self.args.boundary.get(lang)]
        return [f"gives no boundary words for {', '.join(missing)}"] if missing else []

    def check(self, ctx, lang, pages) -> Check:
        marker = self.args.boundary[lang] if self.args.boundary else None
        problems = []
        for parsed in pages:
            openings = _paragraph_openings(ctx, parsed)
            for section_id in self.args.sections:
                section = parsed.section(section_id)
                if section is None:
                    problems.append(
                        self.problem(
                            parsed.page.origin, f"{lang}/{parsed.page.id}: no section '{section_id}'"
                        )
                    )
                    continue
                if not any(u.kind == "ex" and parsed.within(u.section, section_id) for u in parsed.uses):
                    problems.append(
                        self.problem(
                            section.location,
                            f"{lang}: section '{section_id}' has no worked example",
                            "add {{ex:ID.OUTPUT}} from ledger/examples.md",
                        )
                    )
                if marker is None:
                    continue
                if not any(parsed.within(s, section_id) and text.startswith(marker) for s, text in openings):
                    problems.append(
                        self.problem(
                            section.location,
                            f"{lang}: section '{section_id}' has no boundary paragraph "
                            f"(one beginning '{marker}')",
                        )
                    )
        return Check(len(self.args.sections) * len(pages), problems)


def _paragraph_openings(ctx, parsed) -> list[tuple[str, str]]:
    """(section id, first text) of every run of prose that opens a line, in reading order: a
    heading's text starts its section, and a text run at column 1 (or right after `**`) opens a
    paragraph."""
    starts = {(str(s.location.path), s.location.line): s.id for s in parsed.sections}
    current, found = "", []
    for event in ctx.reading_order(parsed):
        if event.use is not None:
            continue
        key = (str(event.location.path), event.location.line)
        if key in starts:
            current = starts.pop(key)
            continue
        if event.location.col <= 3:
            found.append((current, event.text.strip()))
    return found


KINDS = (ExampleAndBoundary,)
