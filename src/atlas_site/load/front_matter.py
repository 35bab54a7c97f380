"""Split a markdown file into its YAML front matter and body, keeping line numbers."""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Diagnostic, SourceLocation
from .yaml_source import LocatedData, parse_yaml


@dataclass(frozen=True)
class MarkdownFile:
    path: str
    meta: LocatedData | None  # None when the file has no front matter
    body: str
    body_line: int  # 1-based line of the body's first line


def split_front_matter(path: str, text: str) -> tuple[MarkdownFile, list[Diagnostic]]:
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return MarkdownFile(path, None, text, 1), []
    for index in range(1, len(lines)):
        if lines[index].strip() == "---":
            yaml_text = "\n".join(lines[1:index])
            meta, problems = parse_yaml(yaml_text, SourceLocation(path, 2, 1))
            body = "\n".join(lines[index + 1 :])
            return MarkdownFile(path, meta, body, index + 2), problems
    problem = Diagnostic(
        SourceLocation(path, 1, 1), "frontmatter.unclosed", "front matter opened with '---' is never closed"
    )
    return MarkdownFile(path, None, text, 1), [problem]
