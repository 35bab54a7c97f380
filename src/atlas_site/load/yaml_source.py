"""YAML that remembers the line of every key, so schema errors point at file:line.

Inputs are plain data: aliases (`*name`) are refused, since they can expand without bound (an
alias bomb) or refer to themselves (`&x [*x]`); so are complex keys, tags that make anything but
strings, numbers, booleans, null and dates, and numbers that are not finite."""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass

import yaml

from ..diagnostics import Diagnostic, SourceLocation

KeyPath = tuple  # ('claims', 3, 'setting', 'zh')
# libyaml's parser is ~10x faster than the pure-Python one and keeps the same node marks
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
PLAIN = (str, bool, int, float, type(None), datetime.date, datetime.datetime)
COLLECTION_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}


@dataclass(frozen=True)
class LocatedData:
    data: object
    locations: dict  # KeyPath -> SourceLocation of that key (or list item)
    origin: SourceLocation

    def at(self, path: KeyPath) -> SourceLocation:
        """The location of the deepest known prefix of `path`."""
        path = tuple(path)
        while path:
            if path in self.locations:
                return self.locations[path]
            path = path[:-1]
        return self.origin


class _Refused(Exception):
    """A node the builder will not turn into data; carries the diagnostic."""

    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic


class _Builder:
    def __init__(self, text: str, origin: SourceLocation, problems: list[Diagnostic]):
        self.text = text
        self.origin = origin
        self.problems = problems
        self.locations: dict = {}
        self.seen: set[int] = set()
        self._constructor = yaml.SafeLoader("")

    def loc(self, node) -> SourceLocation:
        return SourceLocation(
            self.origin.path, self.origin.line + node.start_mark.line, node.start_mark.column + 1
        )

    def _visit(self, node) -> None:
        if id(node) in self.seen:  # only an alias makes a node appear twice: find the alias itself
            raise _Refused(
                _alias_problem(self.text, self.origin)
                or Diagnostic(
                    self.loc(node),
                    "yaml.alias",
                    "YAML aliases are not allowed: this anchored value is reused",
                    ALIAS_HINT,
                )
            )
        self.seen.add(id(node))

    def build(self, node, path: KeyPath):
        self._visit(node)
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.tag not in COLLECTION_TAGS:
            raise _Refused(
                Diagnostic(
                    self.loc(node),
                    "yaml.value",
                    f"the tag '{node.tag}' is not allowed: inputs are plain lists and mappings",
                )
            )
        if isinstance(node, yaml.MappingNode):
            result = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise _Refused(
                        Diagnostic(
                            self.loc(key_node),
                            "yaml.complex-key",
                            "a mapping key must be a plain name, not a list or mapping",
                            "write the key as text, e.g. 'a, b': …",
                        )
                    )
                self._visit(key_node)
                key = self.scalar(key_node)
                if key in result:
                    self.problems.append(
                        Diagnostic(self.loc(key_node), "yaml.duplicate-key", f"duplicate key '{key}'")
                    )
                    continue
                self.locations[path + (key,)] = self.loc(key_node)
                result[key] = self.build(value_node, path + (key,))
            return result
        if isinstance(node, yaml.SequenceNode):
            items = []
            for index, item in enumerate(node.value):
                self.locations[path + (index,)] = self.loc(item)
                items.append(self.build(item, path + (index,)))
            return items
        return self.scalar(node)

    def scalar(self, node):
        try:
            value = self._constructor.construct_object(node, deep=True)
        except (
            yaml.YAMLError,
            ValueError,
            TypeError,
            OverflowError,
        ) as exc:  # a bad tag, or a date like 2026-13-45
            reason = getattr(exc, "problem", None) or str(exc)
            raise _Refused(
                Diagnostic(
                    self.loc(node),
                    "yaml.value",
                    f"invalid YAML value: {reason.strip().splitlines()[0]}",
                    "quote it if you mean text",
                )
            ) from None
        if not isinstance(value, PLAIN):
            raise _Refused(
                Diagnostic(
                    self.loc(node),
                    "yaml.value",
                    f"the tag '{node.tag}' makes a {type(value).__name__}, not plain data",
                    "remove the tag",
                )
            )
        if isinstance(value, float) and not math.isfinite(value):
            raise _Refused(
                Diagnostic(
                    self.loc(node),
                    "yaml.value",
                    f"'{node.value}' is not a finite number",
                    "give a number, or quote it if you mean text",
                )
            )
        return value


ALIAS_HINT = (
    "write the value out where it is needed (aliases can expand without bound, or refer to themselves)"
)


def _alias_problem(text: str, origin: SourceLocation) -> Diagnostic | None:
    """The first alias of the text, located."""
    try:
        for token in yaml.scan(text, Loader=_LOADER):
            if isinstance(token, yaml.AliasToken):
                mark = token.start_mark
                where = SourceLocation(origin.path, origin.line + mark.line, mark.column + 1)
                return Diagnostic(
                    where, "yaml.alias", f"YAML alias '*{token.value}' is not allowed", ALIAS_HINT
                )
    except yaml.YAMLError:
        pass
    return None


def _position(text: str, index: int, origin: SourceLocation) -> SourceLocation:
    line = text.count("\n", 0, index)
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return SourceLocation(origin.path, origin.line + line, col)


def parse_yaml(text: str, origin: SourceLocation) -> tuple[LocatedData | None, list[Diagnostic]]:
    """Parse YAML text that starts at `origin` (line of its first line)."""
    problems: list[Diagnostic] = []
    try:
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        reason = (exc.problem or exc.context or "invalid YAML").strip()
        if exc.context and exc.context.startswith("while scanning") and exc.context_mark is not None:
            # an unclosed quote or bracket: where it opened, not where the text ran out
            mark, reason = (
                exc.context_mark,
                f"{exc.context.removeprefix('while scanning ')} that starts here is never closed ({reason})",
            )
        line = origin.line + (mark.line if mark else 0)
        col = (mark.column + 1) if mark else 1
        problems.append(
            Diagnostic(SourceLocation(origin.path, line, col), "yaml.syntax", f"invalid YAML: {reason}")
        )
        return None, problems
    except yaml.YAMLError as exc:  # the reader: a character YAML does not allow
        where = _position(text, getattr(exc, "position", 0) or 0, origin)
        reason = getattr(exc, "reason", None) or "unreadable text"
        problems.append(Diagnostic(where, "yaml.syntax", f"invalid YAML: {reason}"))
        return None, problems
    if node is None:
        return LocatedData({}, {}, origin), problems
    builder = _Builder(text, origin, problems)
    try:
        data = builder.build(node, ())
    except _Refused as refused:
        problems.append(refused.diagnostic)
        return None, problems
    except RecursionError:
        problems.append(Diagnostic(origin, "yaml.value", "the YAML is nested too deeply"))
        return None, problems
    return LocatedData(data, builder.locations, origin), problems
