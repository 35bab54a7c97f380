"""Gate: every figure drawn on a page is an accessible, self-contained drawing that shows every
label and number of its spec and nothing a template typed (figures/check.py). The render stage
checks each drawing as it makes it and records the findings in the manifest; here they are
reported once per figure and language, located at the figure's spec in the ledger."""

from __future__ import annotations

from ..diagnostics import Diagnostic
from .context import GateContext
from .report import GateReport


def check_figure_drawings(ctx: GateContext) -> GateReport:
    problems, drawn = [], set()
    for (lang, _page_id), record in sorted(ctx.manifest.pages.items()):
        for figure_id, entry in sorted(record.figures.items()):
            if (lang, figure_id) in drawn:
                continue
            drawn.add((lang, figure_id))
            where = ctx.book.locate(f"figures:{figure_id}")
            problems += [
                Diagnostic(where, "gate.figures.drawing", f"figure '{figure_id}' ({lang}): {problem}")
                for problem in entry.get("problems", ())
            ]
    figures = len({figure_id for _lang, figure_id in drawn})
    return GateReport(
        "figure drawings",
        f"{figures} figures drawn in {len({lang for lang, _ in drawn})} languages: accessible, "
        f"self-contained, every label and number shown, no stray text; {len(problems)} problems",
        problems,
        skipped="" if drawn else "no page shows a figure",
    )
