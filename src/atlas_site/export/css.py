"""Stylesheets for readers older than the site's browsers: EPUB reading systems (and epubcheck's
CSS parser) do not know the `:is()` selector the figures' stylesheet uses, so each `:is(a, b)` is
written out as the selector list it stands for."""

from __future__ import annotations

import re

IS = re.compile(r":is\(([^()]*)\)")
PRELUDE = re.compile(r"(^|[{};])([^{};]*:is\([^{}]*?)\{")


def expand_is(css: str) -> str:
    return PRELUDE.sub(lambda m: m.group(1) + ", ".join(_expanded(m.group(2).strip())) + " {", css)


def _expanded(prelude: str) -> list[str]:
    selectors = []
    for selector in _split_top_level(prelude):
        pending = [selector.strip()]
        while pending:
            current = pending.pop(0)
            match = IS.search(current)
            if match is None:
                selectors.append(current)
                continue
            pending += [
                current[: match.start()] + option.strip() + current[match.end() :]
                for option in match.group(1).split(",")
            ]
    return selectors


def _split_top_level(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return parts
