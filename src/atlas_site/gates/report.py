"""A gate's verdict: a named line with its figures and its problems. A gate that had nothing to
look at says so (`skip` with the reason) instead of passing over zero items."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostic


@dataclass
class GateReport:
    name: str
    figures: str  # e.g. "1132 citations, 0 dangling"
    problems: list[Diagnostic] = field(default_factory=list)
    pending: bool = False  # a content rule on a draft page: figures reported, not enforced
    skipped: str = ""  # why the gate did not run (nothing to check); never a pass

    @property
    def errors(self) -> list[Diagnostic]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def status(self) -> str:
        """FAIL on an error; `warn` when every problem is a warning (printed, never failing a build)."""
        if self.errors:
            return "FAIL"
        if self.problems:
            return "warn"
        if self.skipped:
            return "skip"
        return "pending" if self.pending else "pass"

    def line(self) -> str:
        figures = f"did not run: {self.skipped}" if self.skipped and not self.problems else self.figures
        return f"{self.status:>7}  {self.name}: {figures}"
