"""One configured markdown-it instance: CommonMark + tables + math + containers + our syntax.
Raw HTML is off: content can never inject markup or script."""

from __future__ import annotations

from markdown_it import MarkdownIt
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin

from ..directives import REGISTRY
from .syntax import syntax_plugin


def make_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    dollarmath_plugin(md, allow_space=True, double_inline=True)
    for name in REGISTRY.of_form("container"):
        container_plugin(md, name)
    syntax_plugin(md)
    return md
