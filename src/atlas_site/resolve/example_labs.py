"""Worked examples that a lab shows. An example's `lab:` names the lab, the inputs to open it with
(on top of the lab's defaults) and which lab output shows which of the example's numbers. Here the
state is checked against the lab's inputs, the lab's own function is run in that state (in the same
node run as the examples: resolve/examples.py), and the link is refused unless the lab shows the
example's number as the example prints it. The link's target is the page that places the lab
(`lab_link`), used by the numbers page and examples.json."""

from __future__ import annotations

from urllib.parse import quote

from ..diagnostics import Diagnostic
from ..model import Book
from ..model.ledger import Example
from .number_format import format_number

RESULT_KEY = "lab:{}"  # where the lab's result for an example's state lives in the build's `computed`


def panel_id(lab_id: str) -> str:
    """The id of a lab's panel on its page (templates/labs/panel.html.j2)."""
    return f"lab-{lab_id}-panel"


def lab_inputs(lab) -> dict[str, dict]:
    return {spec["param"]: spec for spec in getattr(lab, "inputs", None) or [] if "param" in spec}


def lab_outputs(lab) -> set[str]:
    return {spec["name"] for spec in getattr(lab, "outputs", None) or [] if "name" in spec}


def state_problems(lab, state: dict) -> list[str]:
    """Why a state cannot be set on the lab's inputs (an input it lacks, a value out of range)."""
    inputs = lab_inputs(lab)
    problems = []
    for name, value in state.items():
        spec = inputs.get(name)
        if spec is None:
            problems.append(f"the lab has no input '{name}' (its inputs: {', '.join(sorted(inputs))})")
        elif "options" in spec:
            if value not in spec["options"]:
                problems.append(f"{name} = {value!r} is not one of {', '.join(map(str, spec['options']))}")
        elif spec.get("checkbox"):
            if not isinstance(value, bool):
                problems.append(f"{name} is a checkbox: true or false, not {value!r}")
        elif isinstance(value, bool) or not isinstance(value, (int, float)):
            problems.append(f"{name} takes a number, not {value!r}")
        elif not spec.get("min", value) <= value <= spec.get("max", value):
            problems.append(f"{name} = {value} lies outside {spec.get('min')}..{spec.get('max')}")
    return problems


def check_example_lab(book: Book, example: Example) -> list[Diagnostic]:
    """The static half: the lab exists, the state fits its inputs, the outputs it names exist."""
    where = book.locate(f"examples:{example.id}")
    lab_id = example.lab_id
    if lab_id is None:
        return []
    lab = book.labs.get(lab_id)
    if lab is None:
        return [Diagnostic(where, "example.lab-unknown", f"{example.id}: no lab '{lab_id}' in the ledger")]
    assert example.lab is not None
    problems = [
        Diagnostic(where, "example.lab-state", f"{example.id}: lab '{lab_id}': {problem}")
        for problem in state_problems(lab, example.lab.state)
    ]
    outputs = lab_outputs(lab)
    problems += [
        Diagnostic(
            where,
            "example.lab-output",
            f"{example.id}: lab '{lab_id}' has no output '{name}' (its outputs: {', '.join(sorted(outputs))})",
        )
        for name in example.lab.shows.values()
        if name not in outputs
    ]
    return problems


def lab_request(book: Book, example: Example) -> dict:
    """The lab's own function, run on the lab's defaults with the example's state on top."""
    assert example.lab is not None
    lab = book.labs[example.lab_id or ""]
    # a lab contract keeps its keys beyond id/title/boundary free-form (model/ledger.py LabContract)
    return {"fn": getattr(lab, "fn"), "args": {**(getattr(lab, "defaults", None) or {}), **example.lab.state}}  # noqa: B009


def shown_problems(book: Book, example: Example, values: dict, lab_result) -> list[Diagnostic]:
    """Each example output the lab claims to show, compared as the example prints it."""
    assert example.lab is not None
    where = book.locate(f"examples:{example.id}")
    if not isinstance(lab_result, dict):
        return [Diagnostic(where, "example.lab-mismatch", f"{example.id}: the lab returned {lab_result!r}")]
    problems = []
    for mine, theirs in example.lab.shows.items():
        digits = example.outputs[mine].digits
        wanted, shown = format_number(values.get(mine), digits), format_number(lab_result.get(theirs), digits)
        if isinstance(values.get(mine), bool):
            wanted, shown = str(values[mine]).lower(), str(lab_result.get(theirs)).lower()
        if wanted != shown:
            problems.append(
                Diagnostic(
                    where,
                    "example.lab-mismatch",
                    f"{example.id}.{mine} is {wanted}, but lab '{example.lab_id}' in the linked state shows "
                    f"{theirs} = {shown}",
                    "fix lab.state or lab.shows, or drop lab: when the lab cannot show this number",
                )
            )
    return problems


def state_fragment(example: Example) -> str:
    """#lab-<id>-panel?name=value&…: the address labs_js/shared/bind.js restores a lab from."""
    assert example.lab is not None

    def text(value) -> str:
        return str(value).lower() if isinstance(value, bool) else str(value)

    pairs = "&".join(f"{name}={quote(text(value), safe='')}" for name, value in example.lab.state.items())
    return f"{panel_id(example.lab_id or '')}?{pairs}"


LAB_PAGES_KEY = "lab-pages"  # in the resolve stage's computed values: lang -> lab id -> page id


def lab_pages(book: Book, parsed: dict, lang: str) -> dict[str, str]:
    """lab id -> the first page of `lang`, in reading order, that places it."""
    found: dict[str, str] = {}
    for page in book.pages_in(lang):
        parsed_page = parsed.get((lang, page.id))
        for use in parsed_page.uses_of("labs") if parsed_page else ():
            for lab_id in use.keys:
                found.setdefault(lab_id, page.id)
    return found


def lab_link(book: Book, parsed: dict, computed: dict, lang: str, example: Example) -> str | None:
    """The example's lab opened in its state, relative to a page of `lang`: only when the build saw
    the lab show the example's number (None otherwise, or when no page of `lang` places the lab)."""
    if RESULT_KEY.format(example.id) not in computed:
        return None
    page = lab_pages(book, parsed, lang).get(example.lab_id or "")
    return f"{page}.html#{state_fragment(example)}" if page else None


def unplaced(book: Book, parsed: dict) -> list[Diagnostic]:
    """An example linked to a lab that no page of some language places: the link would dangle."""
    problems = []
    for lang in book.languages:
        placed = lab_pages(book, parsed, lang)
        for example in book.examples.values():
            if example.lab_id is not None and example.lab_id in book.labs and example.lab_id not in placed:
                problems.append(
                    Diagnostic(
                        book.locate(f"examples:{example.id}"),
                        "example.lab-unplaced",
                        f"{example.id}: lab '{example.lab_id}' is placed on no {lang} page, so its link has no target",
                        "place it with {{labs:" + example.lab_id + "}} or drop the example's lab:",
                    )
                )
    return problems
