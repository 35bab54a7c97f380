"""Read every input file of a project into raw, located records (no schema yet)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..cache import Boundary, BuildCache, NoCache, Versioned, digest, inside
from ..diagnostics import Diagnostic, SourceLocation
from ..files import NotAFile, read_regular
from ..theme import owner, theme_glob
from .bibtex import parse_bibtex
from .front_matter import MarkdownFile, split_front_matter
from .yaml_source import LocatedData, parse_yaml

INPUT_FOLDERS = ("content", "ledger", "sources", "templates", "labs_js")
CODE_FOLDERS = ("templates", "labs_js")  # read by Jinja, the asset step and Node, not by read_text
# C0 controls but tab, newline and carriage return; DEL; C1 controls. HTML, YAML and JSON refuse them.
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
BOM = "\ufeff"


PROFILE = "book.yaml"


@dataclass
class RawProject:
    root: Path
    profile: LocatedData | None = None  # book.yaml
    strings: dict = field(
        default_factory=dict
    )  # language code -> LocatedData of templates/strings/<code>.yaml
    stylesheets: list = field(default_factory=list)  # the texts of book.yaml's theme: css, in its order
    bib_records: list = field(default_factory=list)  # (dict, SourceLocation)
    source_tables: dict = field(default_factory=dict)  # "nodes" / "references" -> LocatedData
    ledgers: list = field(default_factory=list)  # MarkdownFile with front matter
    content: list = field(default_factory=list)  # (lang, page_dir, MarkdownFile)
    problems: list = field(default_factory=list)


def input_name(path: Path, root: Path) -> str:
    """The path as the project names it (a symbolic link by its own name, not its target's)."""
    try:
        return path.absolute().relative_to(root.absolute()).as_posix()
    except ValueError:
        return path.as_posix()


def outside_inputs(root: Path, folders=INPUT_FOLDERS) -> list[Diagnostic]:
    """Every path under the input folders that no build may use: a symbolic link that resolves
    outside the project (nothing under it is read, since it would publish whatever it points at:
    /dev/zero, a home folder); and under templates/ and labs_js/, which Jinja, the asset step and
    Node read rather than read_text, anything that read_text would refuse: a name that is not
    printable UTF-8, a FIFO, socket or device, a file that is not UTF-8. Each such file is read
    once here through read_regular (a few hundred KB), so none of them can hang or crash a stage."""
    boundary = Boundary(root)
    problems = []
    for folder in folders:
        base = root / folder
        if not base.exists() and not base.is_symlink():
            continue
        candidates = [base] if not boundary.holds(base) else sorted(base.rglob("*"))
        for path in candidates:
            held = boundary.holds(path)
            if path.is_symlink() and not held:
                problems.append(_outside(path, root))
            elif folder in CODE_FOLDERS and held:  # not what a linked folder holds outside
                problems += _code_file_problems(path, root)
    return problems


def _code_file_problems(path: Path, root: Path) -> list[Diagnostic]:
    """What read_text would say of a theme or lab file, said by the scan (nothing of it is kept)."""
    name = input_name(path, root)
    problem = _bad_name(name)
    if problem is not None:  # said once, for the outermost badly named folder or file
        return [] if not input_name(path.parent, root).isprintable() else [problem]
    try:
        if path.is_dir() or (path.is_symlink() and not path.exists()):
            return []  # a folder is walked; a broken link is said where something reads it
        data = read_regular(path)
    except NotAFile as error:
        return [_not_a_file(name, error.strerror or "not a regular file")]
    except OSError:
        return []  # vanished meanwhile, no permission: said where it is read
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        return [_undecodable(name, data, error)]
    return []


def _outside(path: Path, root: Path) -> Diagnostic:
    try:
        target = str(path.readlink())
    except OSError:
        target = "?"
    return Diagnostic(
        SourceLocation(input_name(path, root), 1, 1),
        "file.outside-project",
        f"links to {target}, outside the project: inputs are read only from inside it",
        "copy the file into the project instead of linking to it",
    )


def read_text(path: Path, root: Path, problems: list[Diagnostic]) -> str | None:
    """The text of one input file, or None (with a located problem) when it cannot be used as one.
    A byte-order mark or a control character is reported and neutralised, so the rest of the file
    is still checked."""
    name = input_name(path, root)
    where = SourceLocation(name, 1, 1)
    if not inside(path, root.resolve()):
        return None  # the link that leads out is reported by outside_inputs()
    bad = _bad_name(name)
    if bad is not None:
        problems.append(bad)
        return None
    if path.is_symlink() and not path.exists():
        problems.append(
            Diagnostic(
                where,
                "file.unreadable",
                f"a symbolic link to {path.readlink()}, which does not exist",
                "restore the file or delete the link",
            )
        )
        return None
    try:
        data = read_regular(path)
    except NotAFile as error:
        problems.append(_not_a_file(name, error.strerror or "not a regular file"))
        return None
    except OSError as error:  # vanished mid-build (an editor's save), no permission, …
        problems.append(Diagnostic(where, "file.unreadable", f"cannot be read: {error.strerror or error}"))
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        problems.append(_undecodable(name, data, error))
        return None
    if text.startswith(BOM):
        problems.append(
            Diagnostic(
                where,
                "file.bom",
                "starts with a byte-order mark (U+FEFF)",
                "save the file as UTF-8 without BOM",
            )
        )
        text = text[1:]
    if (
        "\r" in text and "\n" not in text
    ):  # lines ending in CR alone (an old Mac editor): one long line to every parser
        problems.append(
            Diagnostic(
                where,
                "file.line-endings",
                "its lines end in a carriage return (CR) alone",
                "save the file with LF (or CRLF) line endings",
            )
        )
        text = text.replace("\r", "\n")
    controls = list(CONTROL.finditer(text))
    if controls:
        first = controls[0]
        line = text.count("\n", 0, first.start()) + 1
        col = first.start() - (text.rfind("\n", 0, first.start()) + 1) + 1
        more = f" (and {len(controls) - 1} more)" if len(controls) > 1 else ""
        problems.append(
            Diagnostic(
                SourceLocation(name, line, col),
                "file.control-character",
                f"control character U+{ord(first.group(0)):04X}{more}",
                "delete it: inputs are plain text",
            )
        )
        text = CONTROL.sub("\ufffd", text)
    return text


def _bad_name(name: str) -> Diagnostic | None:
    if name.isprintable():
        return None
    return Diagnostic(
        SourceLocation(name, 1, 1),
        "file.name",
        "the file name holds bytes that are not UTF-8 or control characters: the file is not read",
        "rename it to a plain UTF-8 name (letters, digits, '-', '.')",
    )


def _not_a_file(name: str, kind: str) -> Diagnostic:
    return Diagnostic(
        SourceLocation(name, 1, 1),
        "file.unreadable",
        f"is {kind}, not a file",
        "remove it or rename it (only files may end in .md, .yaml or .bib)",
    )


def _undecodable(name: str, data: bytes, error: UnicodeDecodeError) -> Diagnostic:
    line = data.count(b"\n", 0, error.start) + 1
    col = len(data[data.rfind(b"\n", 0, error.start) + 1 : error.start].decode("utf-8", "replace")) + 1
    return Diagnostic(
        SourceLocation(name, line, col),
        "file.encoding",
        f"not UTF-8: {error.reason} (byte 0x{data[error.start]:02x})",
        "re-save the file as UTF-8",
    )


def _book_stylesheets(root: Path, raw: RawProject) -> list[str]:
    """The texts of the stylesheets book.yaml's `theme: css:` lists (paths in templates/; validate
    says what else is wrong with the entry). A file that is missing is located at its entry."""
    profile = raw.profile
    if profile is None or not isinstance(profile.data, dict):
        return []
    theme = profile.data.get("theme")
    listed = theme.get("css") if isinstance(theme, dict) else None
    texts = []
    for index, path in enumerate(listed if isinstance(listed, list) else []):
        if not isinstance(path, str) or not path.endswith(".css") or ".." in path.split("/"):
            continue  # not a project path: the schema reports it
        file = root / "templates" / path
        if not file.is_file() and not file.is_symlink():
            raw.problems.append(
                Diagnostic(
                    profile.at(("theme", "css", index)),
                    "theme.css-missing",
                    f"book.yaml lists the stylesheet {path}, and templates/{path} does not exist",
                    "add the file to templates/, or remove it from theme: css",
                )
            )
            continue
        text = read_text(file, root, raw.problems)
        if text is not None:
            texts.append(text)
    return texts


def _blank(text: str) -> bool:
    return all(not line.strip() or line.lstrip().startswith("#") for line in text.splitlines())


def load_project(root: Path, cache: BuildCache | Versioned | None = None) -> RawProject:
    """Parse every input file; a file whose bytes did not change is not parsed again."""
    cache = cache or NoCache()
    raw = RawProject(root)
    raw.problems += outside_inputs(root)
    raw.profile = _yaml(root / PROFILE, root, raw, cache)
    if raw.profile is None and not (root / PROFILE).exists():
        raw.problems.append(
            Diagnostic(
                SourceLocation(PROFILE),
                "profile.missing",
                f"no {PROFILE}: the book profile names the book's languages, parts and rules",
            )
        )
    for path in theme_glob(root, "strings", "*.yaml"):  # the book's own, else the default theme's
        data = _yaml(path, owner(root, path), raw, cache)
        if data is not None:
            raw.strings[path.stem] = data
    raw.stylesheets = _book_stylesheets(root, raw)
    sources = root / "sources"
    for path in sorted(sources.glob("*.bib")):
        text = read_text(path, root, raw.problems)
        if text is not None:
            name = input_name(path, root)
            records, problems = cache.get(
                "bib", digest(name, text), lambda name=name, text=text: parse_bibtex(name, text)
            )
            raw.bib_records += records
            raw.problems += problems
    for path in sorted(sources.glob("*.yaml")):
        name = input_name(path, root)
        origin = SourceLocation(name, 1, 1)
        text = read_text(path, root, raw.problems)
        if text is None:
            raw.source_tables[path.stem] = LocatedData([], {}, origin)  # reported; never "missing" as well
            continue
        data, problems = cache.get(
            "yaml", digest(name, text), lambda text=text, origin=origin: parse_yaml(text, origin)
        )
        raw.problems += problems
        if data is not None and _blank(text):
            raw.problems.append(
                Diagnostic(
                    origin,
                    "source.empty",
                    f"{name} is empty",
                    "restore its entries (git checkout, or your last good copy)",
                )
            )
            data = None
        raw.source_tables[path.stem] = data or LocatedData(
            [], {}, origin
        )  # reported; never "missing" as well
    for path in sorted((root / "ledger").glob("*.md")):
        doc, problems = _markdown(path, root, raw, cache)
        if doc is not None and doc.meta is not None:
            raw.ledgers.append(doc)
        elif doc is not None and not problems:
            raw.problems.append(
                Diagnostic(
                    SourceLocation(doc.path, 1, 1),
                    "ledger.no-front-matter",
                    "a ledger file needs YAML front matter between '---' lines",
                )
            )
    for lang_dir in sorted((root / "content").glob("*")):
        if not lang_dir.is_dir():
            continue
        for path in sorted(lang_dir.glob("*/*.md")):
            doc, _ = _markdown(path, root, raw, cache)
            if doc is not None:
                raw.content.append((lang_dir.name, path.parent.name, doc))
    raw.problems = list(dict.fromkeys(raw.problems))  # the scan and read_text both see templates/strings/
    return raw


def _yaml(path: Path, root: Path, raw: RawProject, cache: BuildCache | Versioned) -> LocatedData | None:
    """A YAML file with a location per key; its problems go to `raw`."""
    if not path.exists():
        return None
    text = read_text(path, root, raw.problems)
    if text is None:
        return None
    name = input_name(path, root)
    data, problems = cache.get(
        "yaml", digest(name, text), lambda: parse_yaml(text, SourceLocation(name, 1, 1))
    )
    raw.problems += problems
    return data


def _markdown(
    path: Path, root: Path, raw: RawProject, cache: BuildCache | Versioned
) -> tuple[MarkdownFile | None, list]:
    """A markdown file split into front matter and body; its problems go to `raw` as well."""
    text = read_text(path, root, raw.problems)
    if text is None:
        return None, []
    name = input_name(path, root)
    doc, problems = cache.get("markdown", digest(name, text), lambda: split_front_matter(name, text))
    raw.problems += problems
    return doc, problems


__all__ = ["RawProject", "load_project", "LocatedData", "MarkdownFile", "outside_inputs", "read_text"]
