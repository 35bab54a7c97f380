"""The one directive registry: every directive of the book's markdown, declared once."""

from __future__ import annotations

from . import blocks, containers, evidence
from .base import ARGUMENTS, Directive, Registry

REGISTRY = Registry()
for _module in (evidence, blocks, containers):
    for _directive in _module.DIRECTIVES:
        REGISTRY.add(_directive)

__all__ = ["REGISTRY", "Directive", "ARGUMENTS"]
