"""The figure layout check lives with the browser gates; tests import it from there."""
from atlas_site.gates.figure_layout import figure_layout_problems

__all__ = ["figure_layout_problems"]
