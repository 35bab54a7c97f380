"""Figures: a YAML spec (ledger/figures.md) + a Jinja SVG template -> inline SVG.

Public API: ``render_figure_svg(spec, lang, values, template_dir) -> str``.
"""

from .render import FigureError, layout_estimate_problems, render_figure_svg, spec_problems

__all__ = ["FigureError", "layout_estimate_problems", "render_figure_svg", "spec_problems"]
