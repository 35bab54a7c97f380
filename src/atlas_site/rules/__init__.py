"""The release rule kinds the engine can check. Instances live in book.yaml."""

from __future__ import annotations

from . import browser, citations, counts, search, structure, teaching, terms, weight
from .base import Args, Check, RuleKind

RULE_KINDS: dict[str, type[RuleKind]] = {
    kind.name: kind
    for module in (structure, terms, teaching, citations, counts, weight, browser, search)
    for kind in module.KINDS
}

__all__ = ["RULE_KINDS", "RuleKind", "Args", "Check"]
