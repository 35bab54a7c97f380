"""A gate's verdict: a named pass/fail/pending line with its figures and its problems."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostic


@dataclass
class GateReport:
    name: str
    figures: str  # e.g. "62/62 formal nodes cited in zh, 0 dangling"
    problems: list[Diagnostic] = field(default_factory=list)
    pending: bool = False  # a content gate on a draft page: figures reported, not enforced

    @property
    def status(self) -> str:
        if self.problems:
            return "FAIL"
        return "pending" if self.pending else "pass"

    def line(self) -> str:
        return f"{self.status:>7}  {self.name}: {self.figures}"
