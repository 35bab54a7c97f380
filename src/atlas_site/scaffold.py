"""`atlas-site new chapter ID --title LANG=TITLE …`: a new chapter as a draft in every language,
and its entry in book.yaml, placed before the generated pages so the reading order stays right.
Nothing is overwritten: an existing page or id is refused."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from .diagnostics import Diagnostic, SourceLocation
from .files import replace_file
from .load.project import read_text
from .load.yaml_source import parse_yaml

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def new_chapter(root: Path, chapter_id: str, titles: dict[str, str]) -> tuple[list[str], list[Diagnostic]]:
    """(files written, problems). On any problem nothing is written."""
    profile_path = root / "book.yaml"
    if not profile_path.exists():
        return [], [
            Diagnostic(
                SourceLocation("book.yaml"),
                "profile.missing",
                "no book.yaml: run this in a book's project folder",
            )
        ]
    problems: list[Diagnostic] = []
    text = read_text(profile_path, root, problems)  # a FIFO or bad bytes: a located problem, never a hang
    if text is None:
        return [], problems
    data, problems = parse_yaml(text, SourceLocation("book.yaml", 1, 1))
    if problems or data is None or not isinstance(data.data, dict):
        return [], problems or [
            Diagnostic(SourceLocation("book.yaml", 1, 1), "schema.invalid", "book.yaml must be a mapping")
        ]
    languages = [
        str(lang["code"])
        for lang in data.data.get("languages") or []
        if isinstance(lang, dict) and lang.get("code")
    ]
    parts = data.data.get("parts") or []
    named = {
        p
        for part in parts
        if isinstance(part, dict)
        for p in [part.get("chapter"), *(part.get("pages") or [])]
        if p
    }
    problems = []
    if not SLUG.match(chapter_id):
        problems.append(_usage(f"chapter id '{chapter_id}' must be a lowercase slug (letters, digits, '-')"))
    if chapter_id in named:
        problems.append(
            Diagnostic(
                SourceLocation("book.yaml"),
                "profile.duplicate-page",
                f"book.yaml already names a page '{chapter_id}'",
            )
        )
    missing = [lang for lang in languages if not titles.get(lang)]
    if missing:
        problems.append(
            _usage(
                f"give the chapter's title in every language: {' '.join(f'--title {lang}=…' for lang in missing)}"
            )
        )
    unknown = sorted(set(titles) - set(languages))
    if unknown:
        problems.append(_usage(f"book.yaml has no language {', '.join(unknown)}"))
    folders = [root / "content" / lang / chapter_id for lang in languages]
    for folder in folders:
        if folder.exists():
            problems.append(
                Diagnostic(
                    SourceLocation(folder.relative_to(root).as_posix()),
                    "profile.duplicate-page",
                    f"{folder.relative_to(root)} already exists",
                )
            )
    if problems:
        return [], problems
    made: list[Path] = []  # the folders this command created, removed again if it cannot finish
    written = []
    try:
        for lang, folder in zip(languages, folders, strict=False):
            made.extend(_new_folders(folder))
            page = folder / f"00-{chapter_id}.md"
            title = json.dumps(titles[lang], ensure_ascii=False)  # a JSON string is YAML: \\ and " escaped
            replace_file(page, f"---\npage: {chapter_id}\ntitle: {title}\nstatus: draft\n---\n")
            written.append(page.relative_to(root).as_posix())
        replace_file(profile_path, _with_part(text, data, parts, chapter_id))
    except OSError as error:
        for folder in reversed(made):
            shutil.rmtree(folder, ignore_errors=True)
        reason = error.strerror or str(error)
        return [], [
            Diagnostic(
                SourceLocation("book.yaml"),
                "scaffold.write-failed",
                f"cannot write the new chapter: {reason}; book.yaml and content/ are as they were",
                "free some space or fix the folder's permissions, then run the command again",
            )
        ]
    written.append("book.yaml")
    return written, []


def _new_folders(folder: Path) -> list[Path]:
    """Create `folder` and any missing parents; return those created, outermost first."""
    missing = [folder, *(parent for parent in folder.parents if not parent.exists())]
    missing = [path for path in reversed(missing) if not path.exists()]
    folder.mkdir(parents=True)
    return missing[:1]  # removing the outermost new folder removes the rest


def _with_part(text: str, data, parts: list, chapter_id: str) -> str:
    """book.yaml with `- chapter: ID` and its `number` (the next after the highest in use) inserted
    before the first generated part (or after the last part), keeping every comment and line of
    the file as it was."""
    lines = text.split("\n")
    generated = [i for i, part in enumerate(parts) if isinstance(part, dict) and "generated" in part]
    if generated:
        at = data.at(("parts", generated[0]))
        index, indent = at.line - 1, at.col - 3  # the line of "- generated:", and the column of its "-"
    else:
        index = len(lines) - 1 if lines[-1] == "" else len(lines)
        at = data.at(("parts", len(parts) - 1)) if parts else None
        indent = at.col - 3 if at else 2
    numbers = [
        int(part["number"])
        for part in parts
        if isinstance(part, dict) and isinstance(part.get("number"), int)
    ]
    lines[index:index] = [
        " " * max(indent, 0) + f"- chapter: {chapter_id}",
        " " * max(indent + 2, 0) + f"number: {max(numbers, default=0) + 1}",
    ]
    return "\n".join(lines)


def _usage(message: str) -> Diagnostic:
    return Diagnostic(SourceLocation("book.yaml"), "scaffold.usage", message)
