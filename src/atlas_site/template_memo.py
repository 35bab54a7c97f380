"""Jinja environments that compile a template's source once per process.

Compiling is a large share of a build (Jinja parses the source, generates Python and compiles
it: ≈ 40 % of a fixture build, ≈ a fifth of the real book's cold build). A process that builds
many copies of one project (the test suite; `serve` after a template edit is undone) would compile
the same source again for every copy, because Jinja caches per environment and per file. Here the
code object is kept in memory, keyed by everything the compiler reads: the source, its name, the
environment's syntax and whitespace settings, autoescape for that name, the extensions, and the
filter and test functions (the generated code depends on how each is called). Nothing is written
to disk: a cache never stores executable formats."""

from __future__ import annotations

import threading
from collections import OrderedDict
from types import CodeType

from jinja2 import Environment

MEMO_SIZE = 512  # templates; a project has ≈ 40, and a template edited under `serve` adds one per save
_CODE: OrderedDict[tuple, CodeType] = OrderedDict()
_LOCK = threading.Lock()  # serve renders on two threads (the hot path, the full build)


class MemoEnvironment(Environment):
    """An Environment whose compiled templates are shared with every other one compiled alike."""

    def compile(self, source, name=None, filename=None, raw=False, defer_init=False):
        if raw or not isinstance(source, str):
            return super().compile(source, name, filename, raw, defer_init)
        key = (self._compiler_settings(name), name, defer_init, source)
        with _LOCK:
            code = _CODE.get(key)
            if code is not None:
                _CODE.move_to_end(key)
        if code is None:
            code = super().compile(
                source, name, filename, raw, defer_init
            )  # a syntax error raises: nothing kept
            with _LOCK:
                _CODE[key] = code
                if len(_CODE) > MEMO_SIZE:
                    _CODE.popitem(last=False)
        return _named(code, filename or "<template>")

    def _compiler_settings(self, name) -> tuple:
        autoescape = self.autoescape(name) if callable(self.autoescape) else self.autoescape
        return (
            type(self),
            self.block_start_string,
            self.block_end_string,
            self.variable_start_string,
            self.variable_end_string,
            self.comment_start_string,
            self.comment_end_string,
            self.line_statement_prefix,
            self.line_comment_prefix,
            self.trim_blocks,
            self.lstrip_blocks,
            self.newline_sequence,
            self.keep_trailing_newline,
            self.optimized,
            self.is_async,
            bool(autoescape),
            tuple(sorted(type(ext).__qualname__ for ext in self.extensions.values())),
            frozenset(self.filters.items()),
            frozenset(self.tests.items()),
        )


def _named(code: CodeType, filename: str) -> CodeType:
    """The code with this copy's file name, so that an error in the template points at its file."""
    if code.co_filename == filename:
        return code
    consts = tuple(_named(c, filename) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)
