"""Figures: a YAML spec (ledger/figures.md) + a Jinja SVG template -> inline SVG panels.

Public API: ``render_figure_svg(spec, lang, values, template_dir, series) -> str``; the charts'
``series`` are computed by the labs' functions at build time (``series.py``).
"""

from ..model.figure_spec import spec_problems
from .render import FigureError, layout_estimate_problems, render_figure_svg
from .series import COMPUTED_KEY as SERIES_KEY

__all__ = ["SERIES_KEY", "FigureError", "layout_estimate_problems", "render_figure_svg", "spec_problems"]
