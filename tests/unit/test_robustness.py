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


# ---------------------------------------------------------------- 3. every command-line value checked


@pytest.mark.parametrize("argv, message", [
    (("serve", "--port", "-1"), "argument --port: -1 is not a port: give 1-65535 (0 picks a free one)"),
    (("serve", "--port", "99999"), "argument --port: 99999 is not a port: give 1-65535 (0 picks a free one)"),
    (("serve", "--port", "eighty"), "argument --port: 'eighty' is not a port number"),
    (("check", "--explain", ""), "argument --explain: the code is empty"),
    (("new", "chapter", ""), "argument id: the chapter id is empty"),
    (("new", "chapter", "ch15", "--title", "en=a\nb"), "argument --title: the title 'en=a\\nb' holds a control character"),
    (("build", "--out", "site\nx"), "argument --out: the folder name 'site\\nx' holds a control character"),
    (("build", "--out", ""), "argument --out: the folder name is empty"),
])
def test_bad_command_line_values_are_usage_errors_and_nothing_runs(mini, argv, message):
    before = sorted(p.name for p in mini.iterdir())
    result = run_bounded(mini, *argv)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.splitlines()[-1].endswith(message), result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert sorted(p.name for p in mini.iterdir()) == before  # nothing was built, checked into a file or created


def test_a_reader_that_leaves_early_is_no_error(mini):
    edit_twice = "content/en/ch14/00-intro.md"
    text = (mini / edit_twice).read_text(encoding="utf-8")
    (mini / edit_twice).write_text(text.replace("counts from arrival.", "counts from the arrival."), encoding="utf-8")
    command = f"'{sys.executable}' -m atlas_site --root '{mini}' sync --status | head -1"
    result = subprocess.run(["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, timeout=DEADLINE)
    assert "BrokenPipeError" not in result.stderr and "internal error" not in result.stderr, result.stderr
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 1


def test_sync_on_a_full_disk_declares_nothing_and_says_why(mini, monkeypatch, capsys):
    from atlas_site import files
    from atlas_site.cli import main

    text = (mini / "content/en/ch14/00-intro.md").read_text(encoding="utf-8")
    (mini / "content/en/ch14/00-intro.md").write_text(text.replace("counts from arrival.", "counts from the arrival."),
                                                      encoding="utf-8")
    lock_before = (mini / "content/translations.lock").read_bytes()

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.tempfile, "mkstemp", full)
    assert main(["--root", str(mini), "sync", "--all", "--date", "2026-12-02"]) == 2
    captured = capsys.readouterr()
    assert "in step" not in captured.out, captured.out
    assert ("content/translations.lock: error[sync.write-failed]: cannot write the lock: No space left on device; nothing "
            "was declared in step") in captured.err
    assert (mini / "content/translations.lock").read_bytes() == lock_before


def test_sync_status_says_up_front_that_it_records_the_days(mini):
    result = run_cli("sync", "--status", cwd=mini)
    assert result.returncode == 0
    assert result.stdout.splitlines()[0].startswith("status: the day of each change found is recorded in content/translations.lock")
