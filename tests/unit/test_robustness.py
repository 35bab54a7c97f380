"""The third fault campaign's findings (issue 33): nothing hangs, every problem is one line that
names its cause first, and no input is silently accepted. Each test failed before its fix."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli

DEADLINE = 60  # a build of the fixture book takes a few seconds; a hang is anything past this


def run_bounded(project: Path, *args: str) -> subprocess.CompletedProcess:
    """The command in a fresh process, killed at DEADLINE (a hang fails the test, never the suite)."""
    return subprocess.run([sys.executable, "-m", "atlas_site", "--root", str(project), *args],
                          capture_output=True, text=True, timeout=DEADLINE, errors="replace")


def problem_lines(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if "error[" in line or "warning[" in line]


# ---------------------------------------------------------------- 1. nothing that is not a file is read


@pytest.mark.parametrize("command", [("build", "--no-search"), ("check",), ("sync", "--status")])
@pytest.mark.parametrize("kind", ["fifo", "socket"])
def test_a_fifo_or_socket_named_like_a_page_is_refused_without_waiting(mini, command, kind):
    import socket

    path = mini / "content/en/ch14/15-pipe.md"
    if kind == "fifo":
        os.mkfifo(path)
        shown = "a named pipe (FIFO)"
    else:
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        shown = "a socket"
    result = run_bounded(mini, *command)
    assert result.returncode == 2, result.stdout + result.stderr
    assert problem_lines(result)[0] == (f"content/en/ch14/15-pipe.md:1:1: error[file.unreadable]: is {shown}, not a file "
                                        "(hint: remove it or rename it (only files may end in .md, .yaml or .bib))")
    assert "Traceback" not in result.stderr


def test_the_reader_never_opens_a_fifo_for_reading_blocked(tmp_path):
    from atlas_site.files import NotAFile, read_regular

    fifo = tmp_path / "x.md"
    os.mkfifo(fifo)
    with pytest.raises(NotAFile):
        read_regular(fifo)
    (tmp_path / "plain.md").write_bytes(b"text")
    assert read_regular(tmp_path / "plain.md") == b"text"


# ---------------------------------------------------------------- 2. names that are not UTF-8


@pytest.mark.parametrize("command", [("build", "--no-search"), ("check",), ("sync", "--status"), ("sync", "--all")])
def test_a_file_name_that_is_not_utf8_is_one_escaped_line(mini, command):
    (mini / "content/en/ch14").joinpath(os.fsdecode(b"15-\xff\xfe.md")).write_text("---\npage: ch14\n---\n", encoding="utf-8")
    result = run_bounded(mini, *command)
    assert result.returncode == 2, result.stdout + result.stderr
    assert problem_lines(result)[0].startswith("content/en/ch14/15-\\xff\\xfe.md: error[file.name]: ")
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


def test_a_file_name_with_a_newline_stays_one_line(mini):
    (mini / "content/en/ch14/15-two\nlines.md").write_text("---\npage: ch14\n---\n", encoding="utf-8")
    result = run_bounded(mini, "check")
    assert result.returncode == 2
    first = problem_lines(result)[0]
    assert first.startswith("content/en/ch14/15-two\\nlines.md: error[file.name]: ")


def test_every_diagnostic_is_one_line_whatever_it_quotes():
    from atlas_site.diagnostics import Diagnostic, SourceLocation

    line = str(Diagnostic(SourceLocation("a\nb.md", 2, 3), "file.name", "quotes \u202eevil\ttext", "x\ry"))
    assert line == "a\\nb.md:2:3: error[file.name]: quotes \\u202eevil\\ttext (hint: x\\ry)"
    assert "\n" not in line and line.isprintable()
