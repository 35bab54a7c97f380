"""Research ledgers: claims, worked examples, questions, misconceptions, history, glossary, leads,
figure and lab contracts."""
from __future__ import annotations

import re
from typing import Annotated, Literal, Union

import re._constants as _sre  # the parser behind re: to refuse patterns that backtrack catastrophically
from re._parser import parse as _sre_parse

from pydantic import AfterValidator, ConfigDict, Field, field_validator, model_validator

from .base import Bilingual, Frozen

LEDGER_NUMBER = re.compile(r"^(n(0[1-9]|[1-5][0-9]|6[0-2])|r[1-9][0-9]?|r100)$")
Number = Union[int, float]
EVIDENCE_KINDS = ("author-reported", "benchmark-result")


class Setting(Frozen):
    """The experimental setting a number belongs to; zh/en are the sentences readers see."""

    model: str | None = None
    hardware: str | None = None
    workload: str | None = None
    baseline: str | None = None
    slo: str | None = None
    metric: str | None = None
    zh: str = Field(min_length=1)
    en: str = Field(min_length=1)


class Claim(Frozen):
    """An author-reported or benchmark number, recorded once, with its source and setting."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    kind: Literal["author-reported", "benchmark-result"]
    source: tuple[str, ...] = Field(min_length=1)
    value: Number | tuple[Number, ...]
    unit: str
    text: Bilingual
    setting: Setting
    caution: Bilingual | None = None
    seed: str = Field(min_length=1)

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


class OutputFormat(Frozen):
    digits: int = Field(ge=0, le=6)
    unit: Bilingual | None = None
    unit_one: Bilingual | None = None  # the unit when the value shown is exactly 1 ("1 slot")


class Example(Frozen):
    """A teaching number, computed at build time by the labs' own functions."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    kind: Literal["teaching-assumption", "analytic"]
    fn: str = Field(pattern=r"^[a-z_]+\.[a-z0-9_]+$")
    args: dict
    outputs: dict[str, OutputFormat] = Field(min_length=1)
    expect: dict[str, Number | str | bool] = Field(default_factory=dict)
    seed: str = Field(min_length=1)
    note: Bilingual | None = None
    label: Bilingual | None = None

    @model_validator(mode="after")
    def _expect_names_outputs(self):
        unknown = sorted(set(self.expect) - set(self.outputs))
        if unknown:
            raise ValueError(f"expect names outputs that are not declared: {', '.join(unknown)}")
        return self


class Question(Frozen):
    id: str = Field(pattern=r"^q([1-9]|1[0-8])$")
    section: str
    ledger: Bilingual
    question: Bilingual
    wrong: Bilingual


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
        if op not in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, _sre.POSSESSIVE_REPEAT) and any(_nested_repeat(b, inside) for b in bodies):
            return True
    return False


def _safe_pattern(pattern: str) -> str:
    try:
        parsed = _sre_parse(pattern)
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"pattern {pattern!r} does not compile: {exc}") from exc
    if _nested_repeat(parsed):
        raise ValueError(f"pattern {pattern!r} repeats a group that itself repeats (like (a+)+): "
                         "it can take for ever on a long line; bound the inner part or drop a quantifier")
    if re.search(pattern, ""):
        raise ValueError(f"pattern {pattern!r} matches empty text, so it would flag every line")
    return pattern


ForbiddenPattern = Annotated[str, AfterValidator(_safe_pattern)]


class Forbidden(Frozen):
    zh: tuple[ForbiddenPattern, ...] = ()
    en: tuple[ForbiddenPattern, ...] = ()


class Misconception(Frozen):
    id: str = Field(pattern=r"^m([01][0-9]|20)$")
    statement: Bilingual
    correction: Bilingual
    section: str
    forbidden: Forbidden = Forbidden()


class OpenQuestion(Frozen):
    id: str
    text: Bilingual
    topic: Bilingual


class Wave(Frozen):
    id: str
    label: str
    years: str
    title: Bilingual
    summary: Bilingual
    nodes: tuple[int, ...] = ()


class Term(Frozen):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    zh: str
    en: str
    abbr: str | None = None
    definition: Bilingual
    aliases: dict[str, tuple[str, ...]] = Field(default_factory=dict)


class Lead(Frozen):
    id: str
    title: str
    locator: str | None = None
    group: str
    status: Literal["unverified", "promoted", "eliminated"]
    node: int | None = None
    reason: Bilingual | None = None

    @model_validator(mode="after")
    def _status_needs(self):
        if self.status == "promoted" and self.node is None:
            raise ValueError("a promoted lead names the formal node it became (node: N)")
        if self.status == "eliminated" and self.reason is None:
            raise ValueError("an eliminated lead gives its reason (reason: {zh, en})")
        return self


class FigureSpec(Frozen):
    """A figure's data; layout keys beyond these are free-form and read by its SVG template."""

    model_config = ConfigDict(frozen=True, extra="allow")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")  # it names a template file too
    number: int = Field(ge=1)
    kind: Literal["structural-sketch", "analytic-model", "redrawn-from-report"]
    title: Bilingual
    desc: Bilingual
    caption: Bilingual
    sources: tuple[str, ...] = ()
    labels: dict[str, Bilingual] = Field(default_factory=dict)
    numbers: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _drawable(self):
        """The rules of a figure spec that the schema cannot say (figures.spec_problems)."""
        from ..figures.render import spec_problems

        problems = spec_problems(self.model_dump(mode="json"))
        if problems:
            raise ValueError("; ".join(problems))
        return self


class LabContract(Frozen):
    """A lab's contract; UI-specific keys are free-form and read by its template."""

    model_config = ConfigDict(frozen=True, extra="allow")
    id: Literal["memory", "batch", "speculative", "fleet"]
    title: Bilingual
    boundary: Bilingual


class MapRoute(Frozen):
    """One of the development map's routes (a lane of the map)."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: Bilingual
    summary: Bilingual


class MapNode(Frozen):
    """A node of the development map: what it solved, what it left, and what it grew from."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    route: str
    year: int = Field(ge=2015, le=2030)
    title: Bilingual
    solved: Bilingual
    left: Bilingual
    cites: tuple[str, ...] = Field(min_length=1)
    after: tuple[str, ...] = ()  # arrows: problem-driven evolution or composition
