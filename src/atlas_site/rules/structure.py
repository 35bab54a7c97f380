"""Rule kinds about what a page holds and where: sections in order, blocks and figures in their
sections, what a figure draws and a lab states, examples computed by a given lab, directives used
a given number of times."""

from __future__ import annotations

from pydantic import Field

from ..directives import REGISTRY
from .base import Check, PageArgs, RuleKind


class Sections(RuleKind):
    name = "sections"
    rule = "The page has these sections (heading ids), in this order."
    fix = "Add the missing heading with its {#id}, or move it so the ids come in the order the profile lists."

    class Args(PageArgs):
        shorthand = "ids"
        ids: tuple[str, ...] = Field(min_length=1)

    @classmethod
    def describe(cls, args) -> str:
        return (
            "sections " + " / ".join(args.ids) if len(args.ids) <= 4 else f"{len(args.ids)} sections in order"
        )

    def check(self, ctx, lang, pages) -> Check:
        problems = []
        for parsed in pages:
            ids = [s.id for s in parsed.sections]
            missing = [i for i in self.args.ids if i not in ids]
            for section_id in missing:
                problems.append(
                    self.problem(
                        parsed.page.origin,
                        f"{lang}/{parsed.page.id}: no section '{section_id}'",
                        f"add a heading ending with {{#{section_id}}}",
                    )
                )
            present = [i for i in self.args.ids if i in ids]
            positions = [ids.index(i) for i in present]
            for before, after, position in zip(present, present[1:], positions[1:], strict=False):
                if position < ids.index(before):
                    section = parsed.section(after)
                    problems.append(
                        self.problem(
                            section.location,
                            f"{lang}/{parsed.page.id}: section '{after}' comes before '{before}'",
                        )
                    )
        return Check(len(self.args.ids) * len(pages), problems)


class BlockInSection(RuleKind):
    name = "block_in_section"
    rule = "A marked block (`::: BLOCK KEY`) appears exactly `count` times (default once), inside the given section."
    fix = "Put the `::: BLOCK KEY` block inside that section (or one of its subsections), once."

    class Args(PageArgs):
        block: str
        key: str = ""
        section: str
        count: int = Field(default=1, ge=1)

    @classmethod
    def describe(cls, args) -> str:
        return f"{args.block} {args.key} in {args.section}".replace("  ", " ")

    def check(self, ctx, lang, pages) -> Check:
        problems = []
        for parsed in pages:
            blocks = [u for u in parsed.uses_of(self.args.block) if u.key == self.args.key]
            outside = [u for u in blocks if not parsed.within(u.section, self.args.section)]
            for use in outside:
                problems.append(
                    self.problem(
                        use.location,
                        f"{lang}: '::: {self.args.block} {self.args.key}' belongs in section {self.args.section}, not {use.section or 'the page top'}",
                    )
                )
            if len(blocks) != self.args.count:
                where = blocks[-1].location if blocks else _section_or_page(parsed, self.args.section)
                problems.append(
                    self.problem(
                        where,
                        f"{lang}: {len(blocks)} '::: {self.args.block} {self.args.key}' blocks, expected {self.args.count} in section {self.args.section}",
                    )
                )
        return Check(len(pages), problems)


class FigureInSection(RuleKind):
    name = "figure_in_section"
    rule = "A figure is placed inside the given section (or one of its subsections)."
    fix = "Move the {{figure:ID}} line into that section."

    class Args(PageArgs):
        figure: str
        section: str

    @classmethod
    def describe(cls, args) -> str:
        return f"figure {args.figure} in {args.section}"

    def references(self, book):
        return (
            []
            if self.args.figure in book.figures
            else [f"names figure '{self.args.figure}', which is not in the ledger"]
        )

    def check(self, ctx, lang, pages) -> Check:
        problems = []
        for parsed in pages:
            uses = [u for u in parsed.uses_of("figure") if u.key == self.args.figure]
            if not uses:
                problems.append(
                    self.problem(
                        _section_or_page(parsed, self.args.section),
                        f"{lang}: figure '{self.args.figure}' is not placed (it belongs in section {self.args.section})",
                    )
                )
            for use in uses:
                if not parsed.within(use.section, self.args.section):
                    problems.append(
                        self.problem(
                            use.location,
                            f"{lang}: figure '{self.args.figure}' belongs in section {self.args.section}, not {use.section or 'the page top'}",
                        )
                    )
        return Check(len(pages), problems)


class FigureDraws(RuleKind):
    name = "figure_draws"
    rule = (
        "A figure declares which of its labels carry the named roles (`shows: {role: label-key}` in its ledger "
        "record) and really draws each of those labels (e.g. a benefit and the new cost in one figure)."
    )
    fix = "Declare the roles in the figure's `shows:` and make its template draw those labels."

    class Args(PageArgs):
        figure: str
        roles: tuple[str, ...] = Field(min_length=1)

    @classmethod
    def describe(cls, args) -> str:
        return f"figure {args.figure} draws {' and '.join(args.roles)}"

    def references(self, book):
        spec = book.figures.get(self.args.figure)
        if spec is None:
            return [f"names figure '{self.args.figure}', which is not in the ledger"]
        shows = getattr(spec, "shows", None)
        missing = [r for r in self.args.roles if not isinstance(shows, dict) or r not in shows]
        if missing:
            return [f"figure '{self.args.figure}' declares no label for {', '.join(missing)} in its `shows:`"]
        assert isinstance(shows, dict)  # not a dict: every role was missing above
        unknown = [shows[r] for r in self.args.roles if shows[r] not in spec.labels]
        return [f"figure '{self.args.figure}' shows unknown labels {', '.join(unknown)}"] if unknown else []

    def check(self, ctx, lang, pages) -> Check:
        spec = ctx.book.figures[self.args.figure]
        problems, checked = [], 0
        for parsed in pages:
            for use in [u for u in parsed.uses_of("figure") if u.key == self.args.figure]:
                drawn = _squeeze(
                    ctx.manifest.figure(parsed.page.lang, parsed.page.id, self.args.figure).drawn
                )
                for role in self.args.roles:
                    checked += 1
                    label = spec.labels[spec.shows[role]][lang]
                    if _squeeze(label)[:12] not in drawn:  # first words: templates may wrap a label
                        problems.append(
                            self.problem(
                                use.location,
                                f"{lang}: figure '{self.args.figure}' does not draw its {role} label '{label}'",
                            )
                        )
        if not checked:
            problems.append(
                self.problem(
                    pages[0].page.origin, f"{lang}: figure '{self.args.figure}' is not placed on this page"
                )
            )
        return Check(checked, problems)


class LabStates(RuleKind):
    name = "lab_states"
    rule = "A lab placed on the page states the given statements (its ledger contract's `statements:`, rendered with the lab)."
    fix = "Add the statements to the lab's `statements:` in ledger/labs.md, and place the lab on the page."

    class Args(PageArgs):
        lab: str
        statements: tuple[str, ...] = Field(min_length=1)

    @classmethod
    def describe(cls, args) -> str:
        return f"lab {args.lab} states {', '.join(args.statements)}"

    def references(self, book):
        return (
            [] if self.args.lab in book.labs else [f"names lab '{self.args.lab}', which is not in the ledger"]
        )

    def check(self, ctx, lang, pages) -> Check:
        problems = []
        for parsed in pages:
            stated = ctx.manifest.lab_statements(parsed.page.lang, parsed.page.id, self.args.lab)
            if stated is None:
                problems.append(
                    self.problem(
                        parsed.page.origin, f"{lang}: lab '{self.args.lab}' is not placed on this page"
                    )
                )
                continue
            missing = [s for s in self.args.statements if s not in stated]
            if missing:
                where = next(u.location for u in parsed.uses_of("labs") if self.args.lab in u.keys)
                problems.append(
                    self.problem(where, f"{lang}: lab '{self.args.lab}' does not state {', '.join(missing)}")
                )
        return Check(len(self.args.statements) * len(pages), problems)


class ExampleInSection(RuleKind):
    name = "example_in_section"
    rule = (
        "The section shows at least one worked example computed by a function of the given labs_js namespace."
    )
    fix = "Show a number of such an example there with {{ex:ID.output}}."

    class Args(PageArgs):
        section: str
        function: str = Field(pattern=r"^[a-z_]+$")  # a labs_js namespace, e.g. memory

    @classmethod
    def describe(cls, args) -> str:
        return f"{args.section} shows a {args.function}.* example"

    def check(self, ctx, lang, pages) -> Check:
        problems = []
        for parsed in pages:
            uses = [u for u in parsed.uses_of("ex") if parsed.within(u.section, self.args.section)]
            examples = [ctx.book.examples.get(u.key.partition(".")[0]) for u in uses]
            if not any(e is not None and e.fn.startswith(self.args.function + ".") for e in examples):
                problems.append(
                    self.problem(
                        _section_or_page(parsed, self.args.section),
                        f"{lang}: section {self.args.section} shows no example computed by {self.args.function}.*",
                    )
                )
        return Check(len(pages), problems)


class FiguresPlaced(RuleKind):
    name = "figures_placed"
    rule = "Each of the listed figures is placed on the page."
    fix = "Place the missing figures with {{figure:ID}} where their text teaches them."

    class Args(PageArgs):
        shorthand = "figures"
        figures: tuple[str, ...] = Field(min_length=1)

    @classmethod
    def describe(cls, args) -> str:
        return f"{len(args.figures)} figures placed"

    def references(self, book):
        unknown = [f for f in self.args.figures if f not in book.figures]
        return [f"names figures not in the ledger: {', '.join(unknown)}"] if unknown else []

    def check(self, ctx, lang, pages) -> Check:
        problems = []
        for parsed in pages:
            placed = {u.key for u in parsed.uses_of("figure")}
            missing = [f for f in self.args.figures if f not in placed]
            if missing:
                problems.append(
                    self.problem(parsed.page.origin, f"{lang}: figures not placed: {', '.join(missing)}")
                )
        return Check(len(self.args.figures) * len(pages), problems)


class DirectiveCount(RuleKind):
    name = "directive_count"
    rule = "A directive is used exactly `count` times on the page."
    fix = "Use the directive that many times (e.g. {{labs:…}} once)."

    class Args(PageArgs):
        directive: str
        count: int = Field(ge=0)

    @classmethod
    def describe(cls, args) -> str:
        return f"{args.directive} used {args.count}×"

    def references(self, book):
        return [] if self.args.directive in REGISTRY else [f"names unknown directive '{self.args.directive}'"]

    def check(self, ctx, lang, pages) -> Check:
        problems = []
        for parsed in pages:
            uses = parsed.uses_of(self.args.directive)
            if len(uses) != self.args.count:
                where = uses[-1].location if uses else parsed.page.origin
                problems.append(
                    self.problem(
                        where,
                        f"{lang}: '{self.args.directive}' is used {len(uses)} times, expected {self.args.count}",
                    )
                )
        return Check(len(pages), problems)


def _section_or_page(parsed, section_id: str):
    section = parsed.section(section_id)
    return section.location if section else parsed.page.origin


def _squeeze(text: str) -> str:
    return "".join(text.split())


KINDS = (
    Sections,
    BlockInSection,
    FigureInSection,
    FigureDraws,
    LabStates,
    ExampleInSection,
    FiguresPlaced,
    DirectiveCount,
)
