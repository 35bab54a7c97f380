"""Read every input file of a project into raw, located records (no schema yet)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..cache import BuildCache, NoCache, digest
from ..diagnostics import Diagnostic, SourceLocation, relpath
from .bibtex import parse_bibtex
from .front_matter import MarkdownFile, split_front_matter
from .yaml_source import LocatedData, parse_yaml


PROFILE = "book.yaml"


@dataclass
class RawProject:
    root: Path
    profile: LocatedData | None = None  # book.yaml
    strings: dict = field(default_factory=dict)  # language code -> LocatedData of templates/strings/<code>.yaml
    bib_records: list = field(default_factory=list)  # (dict, SourceLocation)
    source_tables: dict = field(default_factory=dict)  # "nodes" / "references" -> LocatedData
    ledgers: list = field(default_factory=list)  # MarkdownFile with front matter
    content: list = field(default_factory=list)  # (lang, page_dir, MarkdownFile)
    problems: list = field(default_factory=list)


def read_text(path: Path, root: Path, problems: list[Diagnostic]) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        problems.append(Diagnostic(SourceLocation(relpath(path, root)), "file.encoding", f"not UTF-8: {exc.reason}"))
        return None


def load_project(root: Path, cache: BuildCache | None = None) -> RawProject:
    """Parse every input file; a file whose bytes did not change is not parsed again."""
    cache = cache or NoCache()
    raw = RawProject(root)
    raw.profile = _yaml(root / PROFILE, root, raw, cache)
    if raw.profile is None and not (root / PROFILE).exists():
        raw.problems.append(Diagnostic(SourceLocation(PROFILE), "profile.missing", f"no {PROFILE}: the book profile names the book's languages, parts and rules"))
    for path in sorted((root / "templates" / "strings").glob("*.yaml")):
        data = _yaml(path, root, raw, cache)
        if data is not None:
            raw.strings[path.stem] = data
    sources = root / "sources"
    for path in sorted(sources.glob("*.bib")):
        text = read_text(path, root, raw.problems)
        if text is not None:
            name = relpath(path, root)
            records, problems = cache.get("bib", digest(name, text), lambda: parse_bibtex(name, text))
            raw.bib_records += records
            raw.problems += problems
    for path in sorted(sources.glob("*.yaml")):
        data = _yaml(path, root, raw, cache)
        if data is not None:
            raw.source_tables[path.stem] = data
    for path in sorted((root / "ledger").glob("*.md")):
        doc, problems = _markdown(path, root, raw, cache)
        if doc is not None and doc.meta is not None:
            raw.ledgers.append(doc)
        elif doc is not None and not problems:
            raw.problems.append(Diagnostic(SourceLocation(doc.path, 1, 1), "ledger.no-front-matter", "a ledger file needs YAML front matter between '---' lines"))
    for lang_dir in sorted((root / "content").glob("*")):
        if not lang_dir.is_dir():
            continue
        for path in sorted(lang_dir.glob("*/*.md")):
            doc, _ = _markdown(path, root, raw, cache)
            if doc is not None:
                raw.content.append((lang_dir.name, path.parent.name, doc))
    return raw


def _yaml(path: Path, root: Path, raw: RawProject, cache: BuildCache) -> LocatedData | None:
    """A YAML file with a location per key; its problems go to `raw`."""
    if not path.exists():
        return None
    text = read_text(path, root, raw.problems)
    if text is None:
        return None
    name = relpath(path, root)
    data, problems = cache.get("yaml", digest(name, text), lambda: parse_yaml(text, SourceLocation(name, 1, 1)))
    raw.problems += problems
    return data


def _markdown(path: Path, root: Path, raw: RawProject, cache: BuildCache) -> tuple[MarkdownFile | None, list]:
    """A markdown file split into front matter and body; its problems go to `raw` as well."""
    text = read_text(path, root, raw.problems)
    if text is None:
        return None, []
    name = relpath(path, root)
    doc, problems = cache.get("markdown", digest(name, text), lambda: split_front_matter(name, text))
    raw.problems += problems
    return doc, problems


__all__ = ["RawProject", "load_project", "LocatedData", "MarkdownFile"]
