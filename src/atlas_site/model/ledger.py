"""Research ledgers: claims, worked examples, questions, misconceptions, history, glossary, leads,
figure and lab contracts."""

from __future__ import annotations

import datetime as dt
import re
import re._constants as _sre  # the parser behind re: to refuse patterns that backtrack catastrophically
from re._parser import parse as _sre_parse
from typing import Annotated, Literal

from pydantic import AfterValidator, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from .base import Frozen, Localized, book_languages, split_language_keys
from .figure_spec import spec_problems

# a ledger number names an entry of a source registry: n04 (a formal node), r42 (a reference);
# its shape is checked here, its existence by resolve/references.py
LEDGER_NUMBER = re.compile(r"^(n[0-9]{2,}|r[1-9][0-9]*)$")
SLUG = r"^[a-z0-9][a-z0-9-]*$"
Number = int | float


# a name that is itself an abbreviation (CED, E2M1, ROCm): no words, no spaces
OWN_ABBREVIATION = re.compile(r"[A-Z][A-Z0-9]+[a-z]?")
# the word after an abbreviation: a Latin word, or two Chinese characters
NEXT_WORD = re.compile(r"[A-Za-z][A-Za-z-]+|[\u4e00-\u9fff]{2}")


class Setting(Frozen):
    """The experimental setting a number belongs to; zh/en are the sentences readers see."""

    model: str | None = None
    hardware: str | None = None
    workload: str | None = None
    baseline: str | None = None
    slo: str | None = None
    metric: str | None = None
    text: Localized  # written as language keys beside the others: {metric: …, zh: …, en: …}

    @model_validator(mode="before")
    @classmethod
    def _language_keys(cls, data):
        return split_language_keys(data, cls.model_fields)

    def __getitem__(self, lang: str) -> str:
        return self.text[lang]


ClaimKind = Literal["author-reported", "benchmark-result", "report-parameter", "expectation"]
_CLAIM_LABELS = {
    "author-reported": "author_reported",
    "benchmark-result": "benchmark_result",
    "report-parameter": "report_parameter",
}


class Claim(Frozen):
    """An author-reported or benchmark number, recorded once, with its source and setting. A
    `report-parameter` is a value the source's authors set rather than measured (a design constant,
    a deployment choice, an assumed price): labelled as set by them, never as a result. An
    `expectation` is a number its source states as an outlook, not as a measurement: it is labelled as
    unsettled (the "open question" label), never as a reported result."""

    id: str = Field(pattern=SLUG)
    kind: ClaimKind
    source: tuple[str, ...] = Field(min_length=1)
    value: Number | tuple[Number, ...]
    unit: str
    text: Localized
    setting: Setting
    caution: Localized | None = None
    # the decimals `text` rounds the value to, where the source records more than a reader needs
    # (a benchmark table's 83.43465835281891); the data (claims.json) keeps every digit
    shown_digits: int | None = Field(default=None, ge=0, le=6)
    seed: str = Field(min_length=1)
    verified: (
        dt.date
    )  # when a seed last checked this number against its source (not after the source was read)

    @field_validator("source", mode="before")
    @classmethod
    def _one_or_many(cls, value):
        return (value,) if isinstance(value, str) else value

    @field_validator("source")
    @classmethod
    def _ledger_numbers(cls, value):
        bad = [v for v in value if not LEDGER_NUMBER.match(v)]
        if bad:
            raise ValueError(f"source must be ledger numbers like n27 or r64 (got {', '.join(bad)})")
        return value

    @property
    def values(self) -> tuple[Number, ...]:
        return self.value if isinstance(self.value, tuple) else (self.value,)

    @property
    def label_key(self) -> str:
        """The interface string that labels the number (the page legend defines each)."""
        return _CLAIM_LABELS.get(self.kind, "open")

    @property
    def badge_class(self) -> str:
        """The badge's classes: an expectation is drawn dotted, as the legend's unsettled label."""
        return "badge badge-claim" + (" badge-unsettled" if self.kind == "expectation" else "")


ExampleKind = Literal["teaching-assumption", "analytic", "report-example"]
_EXAMPLE_LABELS = {"teaching-assumption": "teaching_assumption", "report-example": "report_example"}


class OutputFormat(Frozen):
    digits: int = Field(ge=0, le=6)
    unit: Localized | None = None
    unit_one: Localized | None = None  # the unit when the value shown is exactly 1 ("1 slot")
    # this output's own kind when it differs from its example's: the book's own arithmetic on a
    # report's illustration (one computation stays one example; its numbers keep their labels)
    kind: ExampleKind | None = None


class ExampleInLab(Frozen):
    """Where a lab shows a worked example: the lab, its inputs (on top of the lab's defaults) and
    which of the lab's outputs shows which of the example's. The build runs the lab with that
    state and refuses the link unless the lab's output is the example's number (resolve/example_labs.py)."""

    id: str | None = Field(default=None, pattern=r"^[a-z][a-z0-9_]*$")  # default: the module of `fn`
    state: dict[str, Number | str | bool] = Field(min_length=1)
    shows: dict[str, str] = Field(min_length=1)  # example output -> lab output


class Example(Frozen):
    """A teaching number, computed at build time by the labs' own functions."""

    id: str = Field(pattern=SLUG)
    kind: ExampleKind
    fn: str = Field(pattern=r"^[a-z_]+\.[a-z0-9_]+$")
    args: dict
    outputs: dict[str, OutputFormat] = Field(min_length=1)
    expect: dict[str, Number | str | bool] = Field(default_factory=dict)
    seed: str = Field(min_length=1)
    note: Localized | None = None
    label: Localized | None = None
    lab: ExampleInLab | None = None

    @model_validator(mode="after")
    def _expect_names_outputs(self):
        unknown = sorted(set(self.expect) - set(self.outputs))
        if unknown:
            raise ValueError(f"expect names outputs that are not declared: {', '.join(unknown)}")
        unshown = sorted(set(self.lab.shows) - set(self.outputs)) if self.lab else []
        if unshown:
            raise ValueError(f"lab.shows names outputs that are not declared: {', '.join(unshown)}")
        return self

    @property
    def label_key(self) -> str:
        """The interface string that labels the number: a report example is a cited report's own
        illustrative case (its sizes, not this book's), computed here by the labs' code."""
        return _EXAMPLE_LABELS.get(self.kind, "analytic")

    def label_key_of(self, output: str) -> str:
        """The label of one of its numbers: the output's own kind, else the example's."""
        spec = self.outputs.get(output)
        kind = spec.kind if spec is not None and spec.kind else self.kind
        return _EXAMPLE_LABELS.get(kind, "analytic")

    @property
    def label_keys(self) -> set[str]:
        """Every label its numbers carry."""
        return {self.label_key} | {self.label_key_of(name) for name in self.outputs}

    @property
    def lab_id(self) -> str | None:
        """The lab that shows this example: named, or the lab whose module computes it."""
        if self.lab is None:
            return None
        return self.lab.id or self.fn.partition(".")[0]


class Question(Frozen):
    id: str = Field(pattern=SLUG)
    section: str
    ledger: Localized
    question: Localized
    wrong: Localized


def _nested_repeat(items, inside: bool = False) -> bool:
    """Whether a parsed pattern repeats something that itself repeats, like (\\w+\\s?)* or (a+)+:
    the shape whose backtracking grows exponentially with the line's length."""
    for op, arg in items:
        if op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, _sre.POSSESSIVE_REPEAT):
            repeats = arg[1] > 1
            if (repeats and inside) or _nested_repeat(arg[2], inside or repeats):
                return True
        elif op == _sre.SUBPATTERN:
            bodies = [arg[-1]]
        elif op == _sre.BRANCH:
            bodies = arg[1]
        elif op in (_sre.ASSERT, _sre.ASSERT_NOT):
            bodies = [arg[1]]
        elif op == _sre.ATOMIC_GROUP:
            bodies = [arg]
        elif op == _sre.GROUPREF_EXISTS:
            bodies = [body for body in arg[1:] if body]
        else:
            continue
        if op not in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, _sre.POSSESSIVE_REPEAT) and any(
            _nested_repeat(b, inside) for b in bodies
        ):
            return True
    return False


def _safe_pattern(pattern: str) -> str:
    try:
        parsed = _sre_parse(pattern)
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"pattern {pattern!r} does not compile: {exc}") from exc
    if _nested_repeat(parsed):
        raise ValueError(
            f"pattern {pattern!r} repeats a group that itself repeats (like (a+)+): "
            "it can take for ever on a long line; bound the inner part or drop a quantifier"
        )
    if re.search(pattern, ""):
        raise ValueError(f"pattern {pattern!r} matches empty text, so it would flag every line")
    return pattern


ForbiddenPattern = Annotated[str, AfterValidator(_safe_pattern)]


class Forbidden(Frozen):
    """Per language, the regular expressions that state the misconception; each is refused when it
    cannot compile, matches empty text, or could backtrack for ever (a repeat inside a repeat)."""

    patterns: dict[str, tuple[ForbiddenPattern, ...]] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _language_keys(cls, data):
        return {"patterns": data} if isinstance(data, dict) and "patterns" not in data else data

    def of(self, lang: str) -> tuple[str, ...]:
        return self.patterns.get(lang, ())


class Misconception(Frozen):
    id: str = Field(pattern=SLUG)
    statement: Localized
    correction: Localized
    section: str
    forbidden: Forbidden = Forbidden()


class OpenQuestion(Frozen):
    id: str
    text: Localized
    topic: Localized


class Wave(Frozen):
    id: str
    label: str
    years: str
    title: Localized
    summary: Localized
    nodes: tuple[str, ...] = ()  # ledger numbers of the formal nodes of the wave


class Lineage(Frozen):
    """A highlighted lineage (`::: lineage ID` blocks): a line of systems read as one story."""

    id: str = Field(pattern=SLUG)
    title: Localized


class Term(Frozen):
    id: str = Field(pattern=SLUG)
    names: (
        Localized  # written as language keys: {id: ttft, zh: "首 token 延迟", en: "time to first token", …}
    )
    abbr: str | None = None
    definition: Localized
    aliases: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    # What readers type when they mean the term without naming it ("separate GPUs" for
    # disaggregation): the search box leads them to it; the glossary never shows these.
    search_phrases: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    # What a term whose name holds its abbreviation (MLA, CSA, NVFP4) is, in a few words: written
    # after its first use on a page as a long name would be (reviews 30-z8..z11: MLA, KDA, CSA, HCA
    # and MXFP4 reached readers with nothing said about them where they first appeared)
    gloss: dict[str, str] = Field(default_factory=dict)

    def rest_of_name(self, lang: str, after: str) -> str | None:
        """What the abbreviation stands for when the words after it end its name: "prefill–decode"
        in "PD disaggregation" ("" when the name is only those words); None when they do not end it,
        a word from the middle of the name included ("HBM bandwidth" is not high-bandwidth memory:
        review 30-m #2 found HBM never spelt out).
        The first use on a page says it ("PD (prefill–decode) disaggregation"): the short form alone
        never spelt out P and D (reviews 30-z13 #9, 30-z15 #4)."""
        name, word = self.names.get(lang), NEXT_WORD.match(after.lstrip())
        if not (name and word and name.casefold().rstrip().endswith(word.group(0).casefold())):
            return None
        rest = name.rstrip()[: -len(word.group(0))]
        # a Latin word ends the name only as a whole word: "PD aggregation" is not the end of
        # "prefill–decode disaggregation" (review 30-z25 #2 read "PD (prefill–decode dis) aggregation")
        if word.group(0).isascii() and rest and rest[-1] not in " -–":
            return None
        rest = rest.rstrip(" -–")
        # a name that holds the abbreviation ("PCIe bus") has nothing more to say: its gloss does
        return None if self.abbr and self.abbr.casefold() in rest.casefold() else rest

    def expansion(self, lang: str) -> str | None:
        """The words an abbreviation stands for in `lang`, written after its first use on a page
        ("GEMM (matrix multiplication)"); for a name that already holds the abbreviation ("on-chip
        SRAM" says no more than SRAM), its gloss, if it has one; None without an abbreviation."""
        name = self.names.get(lang)
        if name and self.abbr is None and self.is_its_own_abbreviation(lang):
            # CED, CSA2: a name that is an abbreviation says what it is by its gloss
            return self.gloss.get(lang)
        if not self.abbr or not name:
            return None
        if self.abbr.casefold() in name.casefold():
            return self.gloss.get(lang)
        return name

    def short_form(self, lang: str) -> str | None:
        """What the prose writes for the term when it abbreviates it: its `abbr`, or a name that
        is itself an abbreviation (CED, NIXL)."""
        return self.abbr or (self.names[lang] if self.is_its_own_abbreviation(lang) else None)

    def is_its_own_abbreviation(self, lang: str) -> bool:
        """CED, NIXL, ROCm: a name that is an abbreviation, not words."""
        return OWN_ABBREVIATION.fullmatch(self.names.get(lang) or "") is not None

    @model_validator(mode="before")
    @classmethod
    def _language_keys(cls, data):
        data = split_language_keys(data, cls.model_fields)
        if isinstance(data, dict) and "text" in data and "names" not in data:
            data = {**{k: v for k, v in data.items() if k != "text"}, "names": data["text"]}
        return data


class Lead(Frozen):
    id: str
    title: str
    locator: str | None = None
    group: str
    status: Literal["unverified", "promoted", "eliminated"]
    node: str | None = Field(default=None, pattern=r"^n[0-9]{2,}$")  # the formal node it became
    reason: Localized | None = None

    @model_validator(mode="after")
    def _status_needs(self):
        if self.status == "promoted" and self.node is None:
            raise ValueError("a promoted lead names the formal node it became (node: nNN)")
        if self.status == "eliminated" and self.reason is None:
            raise ValueError("an eliminated lead gives its reason (reason: {zh, en})")
        return self


class FigureSpec(Frozen):
    """A figure's data; layout keys beyond these are free-form and read by its SVG template."""

    model_config = ConfigDict(frozen=True, extra="allow", allow_inf_nan=False)
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")  # it names a template file too
    kind: str  # one of the profile's figure_kinds
    title: Localized
    desc: Localized
    caption: Localized
    sources: tuple[str, ...] = ()
    labels: dict[str, Localized] = Field(default_factory=dict)
    numbers: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _drawable(self, info: ValidationInfo):
        """The rules of a figure spec that the schema cannot say (figure_spec.py); its kind is
        checked against the profile by resolve/references.py."""
        languages = book_languages(info)
        if languages is None:
            return self
        problems = spec_problems(self.model_dump(mode="json"), None, languages)
        if problems:
            raise ValueError("; ".join(problems))
        return self


class LabContract(Frozen):
    """A lab's contract; UI-specific keys are free-form and read by its template."""

    model_config = ConfigDict(frozen=True, extra="allow", allow_inf_nan=False)
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")  # also its labs_js/<id>/ folder and JS namespace
    title: Localized
    boundary: Localized


class MapRoute(Frozen):
    """One of the development map's routes (a lane of the map)."""

    id: str = Field(pattern=SLUG)
    title: Localized
    summary: Localized


class MapNode(Frozen):
    """A node of the development map: what it solved, what it left, and what it grew from."""

    id: str = Field(pattern=SLUG)
    route: str
    year: int
    title: Localized
    solved: Localized
    left: Localized
    cites: tuple[str, ...] = Field(min_length=1)
    after: tuple[str, ...] = ()  # arrows: problem-driven evolution or composition
