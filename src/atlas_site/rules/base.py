"""Release rules: the kinds are code, the instances are data (book.yaml).

A rule kind declares the schema of its arguments (pydantic), what it checks on one language's
pages, and its `--explain` text. validate.py turns every `{kind: args}` item of the profile into a
`RuleInstance` with the location it was written at, or refuses it with a located error: a rule
the engine cannot check is never silently ignored."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, model_validator

from ..diagnostics import Diagnostic, SourceLocation
from ..model import Part


class Args(BaseModel):
    """A rule's arguments. `shorthand` names the field a bare value fills, so `cites_all: nodes`
    means `cites_all: {registry: nodes}` and `sections: [a, b]` means `sections: {ids: [a, b]}`."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)
    shorthand: ClassVar[str | None] = None

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data):
        if cls.shorthand and not isinstance(data, dict):
            return {cls.shorthand: data}
        return data


class PageArgs(Args):
    """Arguments of a rule about one page: a chapter's page by default, or `page:` in a series."""

    page: str | None = None


@dataclass(frozen=True)
class Check:
    """What one rule instance found on one language's pages."""

    checked: int  # items looked at; 0 means the rule had nothing to check, which is itself a problem
    problems: list[Diagnostic]
    summary: str = ""  # figures worth printing, e.g. "61/61 en"


class RuleKind:
    name: ClassVar[str]
    Args: ClassVar[type[Args]]
    rule: ClassVar[str]  # the rule, for --explain
    fix: ClassVar[str]  # how to fix a failure, for --explain
    scopes: ClassVar[tuple[str, ...]] = ("part",)  # "part" and/or "book"
    browser: ClassVar[bool] = False  # checked by `check --browser` in Chromium

    @classmethod
    def code(cls) -> str:
        return f"rule.{cls.name}"

    @classmethod
    def describe(cls, args) -> str:
        return cls.name

    def __init__(self, args, part: Part | None, location: SourceLocation):
        self.args, self.part, self.location = args, part, location

    @property
    def title(self) -> str:
        return self.describe(self.args)

    def page_ids(self) -> tuple[str, ...]:
        """The pages this instance is about."""
        page = getattr(self.args, "page", None)
        if page:
            return (page,)
        return self.part.page_ids if self.part else ()

    def problem(self, location: SourceLocation, message: str, hint: str = "") -> Diagnostic:
        rule_at = f" (rule at {self.location})"
        return Diagnostic(location, self.code(), message + rule_at, hint)

    def check(self, ctx, lang: str, pages: list) -> Check:
        raise NotImplementedError

    def rests_on_broken_input(self, book) -> bool:
        """Does the instance name something whose file failed to load (so checking it would only
        repeat that problem)?"""
        return False

    def references(self, book) -> list[str]:
        """Problems with the instance itself (an unknown figure, section page …), found before any
        page is checked: messages located at the rule."""
        return []
