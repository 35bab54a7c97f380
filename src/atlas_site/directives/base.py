"""What a directive is: one declaration that every stage reads.

A directive is declared once, in its module under directives/, with
- its form: `inline` ({{claim:id}} inside a sentence), `block` ({{figure:id}} as its own paragraph)
  or `container` (`::: misconception m07` … `:::`); citations `[@n27]` are the inline directive `cite`;
- its argument: what follows the colon (`none`, one `id`, a comma-separated list of `ids`, an `id`
  with an optional `.output`, …) — checked when pages are parsed;
- `check`: its reference check (does the id exist?), run by resolve/references.py; `page_check`:
  what it needs from its own page (a figure reference needs the figure on the same page);
- `render`: its HTML, given the render state (render/state.py);
- `depends`: the digests of the records it shows, for the incremental cache;
- `parity`: where zh and en must hold the same uses of it: in each `section`, on each `page` (the
  same ids, wherever each language's prose needs them), or `none` (gates/parity.py).
markdown/ reads the names and forms, resolve/ the argument and check, render/ the renderer,
gates/ the parity role. A directive that is not declared is a located error everywhere."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..diagnostics import closest

ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
ARGUMENTS = {
    "none": "no argument",
    "id": "one id: {{NAME:id}}",
    "ids": "one or more ids separated by commas: {{NAME:a,b}}",
    "output": "an id with an optional output: {{NAME:id}} or {{NAME:id.output}}",
    "numbers": "ledger numbers: [@n27] or [@n20; @r47]",
}


@dataclass(frozen=True)
class Directive:
    name: str
    form: str  # inline | block | container
    argument: str  # a key of ARGUMENTS
    summary: str  # one line for --explain and CONTRIBUTING.md
    render: Callable  # inline/block: (state, use) -> str; container: (state, use, opening) -> str
    check: Callable | None = None  # (book, use, computed, out: Collector) -> None
    page_check: Callable | None = None  # (book, parsed page, use, out: Collector) -> None
    depends: Callable | None = None  # (dependencies, use) -> list of digests
    parity: str = "section"  # section | page | none: where zh and en hold the same uses of it
    example: str = ""  # how to write it

    def argument_problem(self, arg: str, text: str | None = None) -> str | None:
        """Why `arg` is not a valid argument for this directive, or None."""
        if self.argument == "none":
            return None if not arg else f"'{self.name}' takes no argument (got '{arg}')"
        if not arg:
            return f"'{self.name}' needs {ARGUMENTS[self.argument]}".replace("NAME", self.name)
        if self.argument == "ids":
            items = arg.split(",")
            bad = [item for item in items if not ID.match(item)]
            if bad or len(set(items)) != len(items):
                return f"'{self.name}' needs distinct ids separated by commas (got '{arg}')"
            return None
        if self.argument == "output":
            head, _, output = arg.partition(".")
            return (
                None
                if ID.match(head) and (not output or ID.match(output))
                else f"'{self.name}' needs id or id.output (got '{arg}')"
            )
        return None if ID.match(arg) else f"'{self.name}' needs one id (got '{arg}')"


def require(book, use, out, collection: str, known, code: str, what: str) -> None:
    """The reference check most directives share: the use names a record of `collection`. A record
    that failed validation, or sat in a file that did not parse, is already reported: stay quiet."""
    if use.key in known:
        return
    if book.is_broken(collection, use.key):
        out.quiet()
        return
    out.error(use.location, code, f"no {what} '{use.key}' in the ledger", closest(use.key, known))


@dataclass
class Registry:
    directives: dict[str, Directive] = field(default_factory=dict)

    def add(self, directive: Directive) -> None:
        if directive.name in self.directives:
            raise ValueError(f"directive '{directive.name}' is declared twice")
        if directive.argument not in ARGUMENTS:
            raise ValueError(f"directive '{directive.name}': unknown argument rule '{directive.argument}'")
        self.directives[directive.name] = directive

    def __contains__(self, name: str) -> bool:
        return name in self.directives

    def __getitem__(self, name: str) -> Directive:
        return self.directives[name]

    def get(self, name: str) -> Directive | None:
        return self.directives.get(name)

    def of_form(self, form: str) -> tuple[str, ...]:
        return tuple(name for name, d in self.directives.items() if d.form == form)

    def __iter__(self):
        return iter(self.directives.values())
