"""The third fault campaign's findings (issue 33): nothing hangs, every problem is one line that
names its cause first, and no input is silently accepted. Each test failed before its fix."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli
from forked_cli import run_atlas

DEADLINE = 60  # a build of the fixture book takes a few seconds; a hang is anything past this


def run_bounded(project: Path, *args: str) -> subprocess.CompletedProcess:
    """The command in a process of its own, killed at DEADLINE (a hang fails the test, never the
    suite), forked from a warm one (tests/forked_cli.py)."""
    return run_atlas(project, *args, seconds=DEADLINE, cwd=Path.cwd())


def problem_lines(result) -> list[str]:
    """Every problem line, in the order printed: those before the gates (stderr), then the gates'
    (stdout, indented under their gate)."""
    lines = result.stderr.splitlines() + result.stdout.splitlines()
    return [line.strip() for line in lines if "error[" in line or "warning[" in line]


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
    assert problem_lines(result)[0] == (
        f"content/en/ch14/15-pipe.md:1:1: error[file.unreadable]: is {shown}, not a file "
        "(hint: remove it or rename it (only files may end in .md, .yaml or .bib))"
    )
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


@pytest.mark.parametrize(
    "command", [("build", "--no-search"), ("check",), ("sync", "--status"), ("sync", "--all")]
)
def test_a_file_name_that_is_not_utf8_is_one_escaped_line(mini, command):
    (mini / "content/en/ch14").joinpath(os.fsdecode(b"15-\xff\xfe.md")).write_text(
        "---\npage: ch14\n---\n", encoding="utf-8"
    )
    result = run_bounded(mini, *command)
    assert result.returncode == 2, result.stdout + result.stderr
    assert problem_lines(result)[0].startswith("content/en/ch14/15-\\xff\\xfe.md:1:1: error[file.name]: ")
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


def test_a_file_name_with_a_newline_stays_one_line(mini):
    (mini / "content/en/ch14/15-two\nlines.md").write_text("---\npage: ch14\n---\n", encoding="utf-8")
    result = run_bounded(mini, "check")
    assert result.returncode == 2
    first = problem_lines(result)[0]
    assert first.startswith("content/en/ch14/15-two\\nlines.md:1:1: error[file.name]: ")


def test_every_diagnostic_is_one_line_whatever_it_quotes():
    from atlas_site.diagnostics import Diagnostic, SourceLocation

    line = str(Diagnostic(SourceLocation("a\nb.md", 2, 3), "file.name", "quotes \u202eevil\ttext", "x\ry"))
    assert line == "a\\nb.md:2:3: error[file.name]: quotes \\u202eevil\\ttext (hint: x\\ry)"
    assert "\n" not in line and line.isprintable()


# ---------------------------------------------------------------- 3. every command-line value checked


@pytest.mark.parametrize(
    "argv, message",
    [
        (("serve", "--port", "-1"), "argument --port: -1 is not a port: give 1-65535 (0 picks a free one)"),
        (
            ("serve", "--port", "99999"),
            "argument --port: 99999 is not a port: give 1-65535 (0 picks a free one)",
        ),
        (("serve", "--port", "eighty"), "argument --port: 'eighty' is not a port number"),
        (("check", "--explain", ""), "argument --explain: the code is empty"),
        (("new", "chapter", ""), "argument id: the chapter id is empty"),
        (
            ("new", "chapter", "ch15", "--title", "en=a\nb"),
            "argument --title: the title 'en=a\\nb' holds a control character",
        ),
        (
            ("build", "--out", "site\nx"),
            "argument --out: the folder name 'site\\nx' holds a control character",
        ),
        (("build", "--out", ""), "argument --out: the folder name is empty"),
    ],
)
def test_bad_command_line_values_are_usage_errors_and_nothing_runs(mini, argv, message):
    before = sorted(p.name for p in mini.iterdir())
    # serve would run until stopped were the value taken: a process with a deadline; the rest here
    result = run_bounded(mini, *argv) if argv[0] == "serve" else run_cli(*argv, cwd=mini)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.splitlines()[-1].endswith(message), result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert (
        sorted(p.name for p in mini.iterdir()) == before
    )  # nothing was built, checked into a file or created


def test_a_reader_that_leaves_early_is_no_error(mini):
    edit_twice = "content/en/ch14/00-intro.md"
    text = (mini / edit_twice).read_text(encoding="utf-8")
    (mini / edit_twice).write_text(
        text.replace("counts from arrival.", "counts from the arrival."), encoding="utf-8"
    )
    command = f"'{sys.executable}' -m atlas_site --root '{mini}' sync --status | head -1"
    result = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True, timeout=DEADLINE
    )
    assert "BrokenPipeError" not in result.stderr and "internal error" not in result.stderr, result.stderr
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 1


def test_sync_on_a_full_disk_declares_nothing_and_says_why(mini, monkeypatch, capsys):
    from atlas_site import files
    from atlas_site.cli import main

    text = (mini / "content/en/ch14/00-intro.md").read_text(encoding="utf-8")
    (mini / "content/en/ch14/00-intro.md").write_text(
        text.replace("counts from arrival.", "counts from the arrival."), encoding="utf-8"
    )
    lock_before = (mini / "content/translations.lock").read_bytes()

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.tempfile, "mkstemp", full)
    assert main(["--root", str(mini), "sync", "--all", "--date", "2026-12-02"]) == 2
    captured = capsys.readouterr()
    assert "in step" not in captured.out, captured.out
    assert (
        "content/translations.lock: error[sync.write-failed]: cannot write the lock: No space left on device; nothing "
        "was declared in step"
    ) in captured.err
    assert (mini / "content/translations.lock").read_bytes() == lock_before


def test_sync_status_says_up_front_that_it_records_the_days(mini):
    result = run_cli("sync", "--status", cwd=mini)
    assert result.returncode == 0
    assert result.stdout.splitlines()[0].startswith(
        "status: the day of each change found is recorded in content/translations.lock"
    )


# ---------------------------------------------------------------- 5. causes first, follow-ons counted


def test_a_bib_file_that_is_not_utf8_is_the_one_problem_shown(mini):
    with (mini / "sources/works.bib").open("ab") as bib:
        bib.write(b"\n% \xff\xfe\n")
    result = run_cli("check", cwd=mini)
    lines = problem_lines(result)
    assert lines[0].startswith("sources/works.bib:") and "error[file.encoding]: not UTF-8" in lines[0]
    assert len(lines) == 1, lines  # every work it held would be "unknown": counted, not listed
    assert "follow-on problem(s) of the causes above not shown" in result.stderr


def test_an_unclosed_quote_in_front_matter_is_located_at_the_quote_and_comes_alone(mini):
    page = mini / "content/zh/ch14/00-intro.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("title: 推理服务\n", 'title: "推理服务\n', 1), encoding="utf-8")
    lines = problem_lines(run_cli("check", cwd=mini))
    assert lines == [
        "content/zh/ch14/00-intro.md:3:8: error[yaml.syntax]: invalid YAML: a quoted scalar that starts here "
        "is never closed (found unexpected end of stream)"
    ]


def test_lines_ending_in_cr_alone_are_called_so(mini):
    page = mini / "content/zh/ch14/00-intro.md"
    page.write_bytes(page.read_bytes().replace(b"\n", b"\r"))
    lines = problem_lines(run_cli("check", cwd=mini))
    assert lines == [
        "content/zh/ch14/00-intro.md:1:1: error[file.line-endings]: its lines end in a carriage return (CR) "
        "alone (hint: save the file with LF (or CRLF) line endings)"
    ]


def test_an_old_site_that_cannot_be_removed_after_the_swap_is_a_warning_not_a_failure(
    mini, monkeypatch, capsys
):
    from atlas_site import write
    from atlas_site.cli import main

    assert main(["--root", str(mini), "build", "--no-search"]) == 0
    text = (mini / "content/en/ch14/00-intro.md").read_text(encoding="utf-8")
    (mini / "content/en/ch14/00-intro.md").write_text(
        text.replace("counts from arrival.", "counts from the arrival."), encoding="utf-8"
    )
    calls = []
    real = write.remove_ours

    def stuck(folder):
        calls.append(folder)
        raise PermissionError(13, "Permission denied", str(folder))

    monkeypatch.setattr(write, "remove_ours", stuck)
    assert main(["--root", str(mini), "build", "--no-search", "--no-cache"]) == 0
    err = capsys.readouterr().err
    assert "warning[output.old-site-left]: the new site is published" in err, err
    assert "left as it was" not in err
    assert "the arrival." in (mini / "_site/en/ch14.html").read_text(encoding="utf-8")
    monkeypatch.setattr(write, "remove_ours", real)
    assert main(["--root", str(mini), "build", "--no-search", "--no-cache"]) == 0  # the next build removes it
    assert not [p.name for p in mini.iterdir() if p.name.startswith("._site.")]


# ---------------------------------------------------------------- 6. nothing silently accepted


def test_a_number_that_is_not_finite_is_refused_where_it_is_written(mini):
    claims = mini / "ledger/claims.md"
    claims.write_text(
        claims.read_text(encoding="utf-8").replace("    value: 7.4\n", "    value: 1e400\n", 1),
        encoding="utf-8",
    )
    lines = problem_lines(run_cli("check", cwd=mini))
    assert lines[0] == "ledger/claims.md:6:5: error[schema.invalid]: value: Input should be a finite number"
    assert len(lines) == 1, lines  # one problem, not one per branch of the value's type


def test_an_argument_a_worked_example_never_reads_is_refused(mini):
    examples = mini / "ledger/examples.md"
    text = examples.read_text(encoding="utf-8")
    old = "    args: {layers: 32, kv_heads: 8, head_dim: 128, kv_bits: 16}"
    assert old in text
    examples.write_text(text.replace(old, old[:-1] + ", kv_bitz: 8}", 1), encoding="utf-8")
    lines = problem_lines(run_cli("check", cwd=mini))
    assert len(lines) == 1 and lines[0].startswith("ledger/examples.md:3:5: error[example.failed]: ")
    assert 'unknown argument "kv_bitz": memory.kv_bytes_per_token never reads it' in lines[0]


@pytest.mark.parametrize(
    "sentence, flagged",
    [
        ("It is 3.5-fold faster.", "3.5-fold"),
        ("It is 3.5 fold faster.", "3.5 fold"),
        ("It runs 3.5 times faster.", "3.5 times"),
        ("A fourfold speed-up.", "fourfold"),
        ("Its experiments span a fourfold change in traffic.", None),
        ("The loop runs 3 times per request.", None),
    ],
)
def test_a_multiple_said_in_words_is_a_bare_number(mini, sentence, flagged):
    page = mini / "content/en/ch14/00-intro.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(
        text.replace("counts from arrival.", f"counts from arrival. {sentence}", 1), encoding="utf-8"
    )
    lines = [line for line in problem_lines(run_cli("check", cwd=mini)) if "bare-multiplier" in line]
    if flagged is None:
        assert lines == []
    else:
        assert len(lines) == 1 and f"bare multiplier '{flagged}' outside a claim" in lines[0], lines


def test_a_quotation_nested_too_deep_is_refused_not_flattened(mini):
    page = mini / "content/en/ch14/00-intro.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n" + ">" * 5000 + " deep\n", encoding="utf-8")
    lines = problem_lines(run_bounded(mini, "check"))
    assert any("error[prose.too-deep]: a quotation nested 5000 levels deep" in line for line in lines), lines


def test_a_bidirectional_control_is_a_located_warning_unless_the_language_allows_it(mini):
    page = mini / "content/en/ch14/00-intro.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace("counts from arrival.", "counts from \u202earrival.", 1),
        encoding="utf-8",
    )
    result = run_cli("check", cwd=mini)
    warnings = [line for line in problem_lines(result) if "prose.bidi-control" in line]
    assert len(warnings) == 1 and "warning[prose.bidi-control]: bidirectional control U+202E" in warnings[0]
    assert warnings[0].startswith("content/en/ch14/00-intro.md:")
    profile = mini / "book.yaml"
    text = profile.read_text(encoding="utf-8")
    assert "html_lang: en," in text
    profile.write_text(
        text.replace("html_lang: en,", "html_lang: en, bidi_controls: true,", 1), encoding="utf-8"
    )
    assert not [line for line in problem_lines(run_cli("check", cwd=mini)) if "prose.bidi-control" in line]


# ---------------------------------------------------------------- 2b. what is missing is said


def test_a_book_template_that_includes_a_missing_one_is_named(mini):
    """A theme file the book lacks comes from the default theme; one that neither has is named."""
    (mini / "templates/page.html.j2").unlink()  # the default theme's serves
    assert run_cli("check", cwd=mini).returncode == 0
    base = mini / "templates/base.html.j2"
    base.write_text(
        base.read_text(encoding="utf-8").replace("</body>", '{% include "colophon.html.j2" %}\n</body>'),
        encoding="utf-8",
    )
    lines = problem_lines(run_cli("check", cwd=mini))
    assert lines == [
        "templates/colophon.html.j2: error[template.missing]: the theme has no template 'colophon.html.j2' "
        "(hint: restore the file (git checkout templates/))"
    ]


def test_a_template_that_does_not_parse_is_located(mini):
    home = mini / "templates/home.html.j2"
    lines = home.read_text(encoding="utf-8").split("\n")
    home.write_text("\n".join(lines[:3] + ["{% if %}"] + lines[3:]), encoding="utf-8")
    result = run_cli("check", cwd=mini)
    assert problem_lines(result)[0].startswith(
        "templates/home.html.j2:4:1: error[template.syntax]: the template does not parse"
    )
    assert "internal error" not in result.stderr


def test_a_book_without_lab_code_says_what_is_missing(mini):
    import shutil

    shutil.rmtree(mini / "labs_js")
    result = run_cli("check", cwd=mini)
    assert "cannot compute teaching numbers: labs_js/compute.js is missing" in problem_lines(result)[0]
    assert "internal error" not in result.stderr


def test_a_book_without_labs_needs_no_lab_folder(mini):  # a book with no lab crashed on the missing folder
    import shutil

    shutil.rmtree(mini / "labs_js")
    (mini / "ledger/examples.md").unlink()
    for lang in ("en", "zh"):
        page = mini / f"content/{lang}/ch14/00-intro.md"
        text = page.read_text(encoding="utf-8")
        page.write_text(text.replace("{{ex:kv-per-token}}", "128 KiB"), encoding="utf-8")
    result = run_cli("build", "--no-search", cwd=mini)
    assert result.returncode == 0, result.stderr
    assert "internal error" not in result.stderr


# ---------------------------------------------------------------- 1b. every input path, not only the pages
# The pages, ledgers and sources went through the one reader; the templates (read by Jinja and the
# string check), the lab code (read by Node and the asset step), the translation lock and book.yaml
# under `new chapter` did not: a FIFO there still hung, a link to /dev/zero filled the memory and
# bad bytes were an internal error.


@pytest.mark.parametrize(
    "place", ["templates/extra.html.j2", "templates/static/extra.js", "labs_js/memory/extra.js"]
)
@pytest.mark.parametrize("kind", ["fifo", "bad bytes", "link to /dev/zero"])
def test_what_is_not_a_text_file_among_templates_and_labs_is_located(mini, place, kind):
    path = mini / place
    if kind == "fifo":
        os.mkfifo(path)
        expected = f"{place}:1:1: error[file.unreadable]: is a named pipe (FIFO), not a file"
    elif kind == "bad bytes":
        path.write_bytes(b"// a comment\n\xff\n")
        expected = f"{place}:2:1: error[file.encoding]: not UTF-8: invalid start byte (byte 0xff)"
    else:
        path.symlink_to("/dev/zero")
        expected = f"{place}:1:1: error[file.outside-project]: links to /dev/zero, outside the project"

    def limit():  # reading /dev/zero ends here, not in the OOM killer
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    result = subprocess.run(
        [sys.executable, "-m", "atlas_site", "--root", str(mini), "check"],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        errors="replace",
        preexec_fn=limit,
    )
    assert result.returncode == 2, result.stdout + result.stderr
    assert any(line.startswith(expected) for line in problem_lines(result)), result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("command", [("build", "--no-search"), ("sync", "--all")])
@pytest.mark.parametrize("kind", ["fifo", "bad bytes"])
def test_a_translation_lock_that_cannot_be_read_is_located_and_never_overwritten(mini, command, kind):
    lock = mini / "content/translations.lock"
    if kind == "fifo":
        lock.unlink()
        os.mkfifo(lock)
        expected = "content/translations.lock:1:1: error[file.unreadable]: is a named pipe (FIFO), not a file"
    else:
        lock.write_bytes(lock.read_bytes() + b"ch14#q1 en \xff\n")
        expected = "content/translations.lock:"
    before = lock.read_bytes() if kind == "bad bytes" else None
    result = run_bounded(mini, *command)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = problem_lines(result)
    assert lines[0].startswith(expected) and ("file.encoding" in lines[0] or kind == "fifo"), lines
    assert "internal error" not in result.stderr
    if before is not None:
        assert lock.read_bytes() == before, "sync rewrote a lock it could not read: every line would be lost"


def test_new_chapter_reads_book_yaml_through_the_reader(mini):
    profile = mini / "book.yaml"
    profile.unlink()
    os.mkfifo(profile)
    result = run_bounded(mini, "new", "chapter", "ch15", "--title", "zh=压缩", "--title", "en=Compression")
    assert result.returncode == 2
    assert problem_lines(result)[0].startswith("book.yaml:1:1: error[file.unreadable]: is a named pipe")


def test_new_chapter_keeps_quotes_and_backslashes_of_a_title(mini):
    result = run_cli(
        "new", "chapter", "ch15", "--title", "zh=“压缩”", "--title", 'en=Say "C:\\models\\"', cwd=mini
    )
    assert result.returncode == 0, result.stderr
    from atlas_site.load.front_matter import split_front_matter

    text = (mini / "content/en/ch15/00-ch15.md").read_text(encoding="utf-8")
    doc, problems = split_front_matter("x.md", text)
    assert problems == [] and doc.meta.data["title"] == 'Say "C:\\models\\"'


def test_sync_status_that_records_nothing_leaves_the_lock_untouched(mini):  # a rewrite made serve rebuild
    assert run_cli("sync", "--status", cwd=mini).returncode == 0  # records what it sees for the first time
    lock = mini / "content/translations.lock"
    stamp = lock.stat().st_mtime_ns
    assert run_cli("sync", "--status", cwd=mini).returncode == 0
    assert lock.stat().st_mtime_ns == stamp


@pytest.mark.parametrize(
    "value, seconds", [("inf", 30.0), ("nan", 30.0), ("-5", 0.1), ("soon", 30.0), ("12", 12.0)]
)
def test_the_lab_time_limit_is_a_finite_number(monkeypatch, value, seconds):  # inf meant no limit at all
    from atlas_site.resolve.lab_runtime import lab_timeout

    monkeypatch.setenv("ATLAS_LAB_TIMEOUT", value)
    assert lab_timeout() == seconds


@pytest.mark.parametrize("planted", ["the build stamp", "a cache entry"])
def test_a_fifo_planted_in_the_cache_is_a_miss_not_a_hang(mini, planted):
    assert run_cli("build", "--no-search", cwd=mini).returncode == 0
    cache = mini / ".atlas-cache"
    if planted == "the build stamp":
        path = cache / "last-build.json"
    else:  # an entry the next build looks up (with the stamp gone, it does)
        path = min(p for p in (cache / "artefacts").rglob("*") if p.is_file())
        (cache / "last-build.json").unlink()
    path.unlink()
    os.mkfifo(path)
    result = run_bounded(mini, "build", "--no-search")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    "sentence", ["a 3.5-times faster decode", "decode got 25 percent faster", "解码快了百分之二十五"]
)
def test_every_spelling_of_a_typed_gain_is_a_bare_number(mini, sentence):  # "3.5-times", "25 percent" passed
    page = mini / "content/en/ch14/00-intro.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(
        text.replace("counts from arrival.", f"counts from arrival; {sentence}."), encoding="utf-8"
    )
    lines = problem_lines(run_cli("check", cwd=mini))
    assert [
        line
        for line in lines
        if line.startswith("content/en/ch14/00-intro.md:15:") and "gate.claims.bare-" in line
    ], lines


def test_a_directive_cut_by_a_table_cell_is_located_and_an_escaped_bar_keeps_it_whole(mini):
    """A bare '|' ends a table cell, so {{term:id|text}} in a table row reached readers as raw text
    in four tutorial pages; now it is one located error, and '\\|' keeps the directive whole."""
    page = mini / "content/en/ch14/00-intro.md"
    text = page.read_text(encoding="utf-8")
    table = "\n| metric | meaning |\n|---|---|\n| {{term:ttft|TTFT}} | from arrival |\n"
    page.write_text(
        text.replace("{{term:ttft}} counts from arrival.", "{{term:ttft}} counts from arrival.\n" + table, 1)
    )
    result = run_cli("build", "--no-search", cwd=mini)
    assert result.returncode == 2
    line = next(
        n for n, row in enumerate(page.read_text(encoding="utf-8").split("\n"), 1) if "{{term:ttft|" in row
    )
    assert (
        f"content/en/ch14/00-intro.md:{line}:3: error[directive.unfinished]: '{{{{term:ttft' does not end with '}}}}': "
        "a reader would see it as raw text (hint: in a table row write the '|' of {{term:id|text}} as '\\|' "
        "(a bare '|' ends the cell))"
    ) in result.stderr.splitlines(), result.stderr
    page.write_text(page.read_text(encoding="utf-8").replace("{{term:ttft|TTFT}}", "{{term:ttft\\|TTFT}}"))
    twin = mini / "content/zh/ch14/00-intro.md"  # the zh twin places the same table (gate.parity.order)
    twin.write_text(
        twin.read_text(encoding="utf-8").replace(
            "{{term:ttft}} 从请求到达算起。",
            "{{term:ttft}} 从请求到达算起。\n" + table.replace("|TTFT", "\\|TTFT"),
            1,
        )
    )
    result = run_cli("build", "--no-search", cwd=mini)
    assert result.returncode == 0, result.stderr
    html = (mini / "_site/en/ch14.html").read_text(encoding="utf-8")
    cell = html[html.index("<td", html.index("<table")) :]
    assert (
        "{{" not in html
        and cell.index("TTFT") < cell.index("</td>")
        and "term" in cell[: cell.index("</td>")]
    )
