"""The fault matrix of issue 14: one case per class of fault. Each asserts the exit code, the exact
located line, and that the site built before the fault is byte-identical afterwards (a failed
build never touches it)."""

from __future__ import annotations

import hashlib
import json
import os
import resource
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import ROOT, edit, run_cli
from forked_cli import run_atlas

# ---------------------------------------------------------------- helpers


def snapshot(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def built(mini):
    """The fixture project with a site built from it, and that site's snapshot."""
    result = run_cli("build", "--no-search", cwd=mini)
    assert result.returncode == 0, result.stderr
    return mini, snapshot(mini / "_site")


def errors(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if "error[" in line or "warning[" in line]


def assert_refused(project: Path, before: dict, result, line: str, *, code: int = 2) -> None:
    """The build failed with `line` among its problems, no traceback, and the old site is intact."""
    assert result.returncode == code, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert line in result.stderr.splitlines(), "\n".join(errors(result)) or result.stderr
    assert snapshot(project / "_site") == before
    assert not [p.name for p in project.iterdir() if p.name.startswith("._site.")], "staging left behind"


def append_line(path: Path, after: str, line: str) -> None:
    edit(path, after, after + "\n" + line)


def serving_stack_spec() -> str:
    """The real ledger's first figure (it shows no numbers), as YAML list item text."""
    text = (ROOT / "ledger/figures.md").read_text(encoding="utf-8")
    start = text.index("  - id: serving-stack")
    end = text.index("  # ---", start)
    return text[start:end]


def with_figure(project: Path, spec: str | None = None) -> None:
    """Give the fixture a figure ledger and use the figure in section q1 of both languages."""
    (project / "ledger/figures.md").write_text(
        "---\nfigures:\n" + (spec or serving_stack_spec()) + "---\nFigures.\n", encoding="utf-8"
    )
    for lang in ("en", "zh"):
        page = project / f"content/{lang}/ch14/00-intro.md"
        text = page.read_text(encoding="utf-8")
        page.write_text(
            text.replace("\n::: misconception m07", "\n{{figure:serving-stack}}\n\n::: misconception m07", 1),
            encoding="utf-8",
        )


# ---------------------------------------------------------------- 1. data loss


def test_out_dot_is_refused_and_the_project_survives(built):
    project, before = built
    files = snapshot(project / "content")
    result = run_cli("build", "--no-search", "--out", ".", cwd=project)
    assert_refused(
        project,
        before,
        result,
        ".: error[output.contains-project]: the output folder . holds the project itself "
        "(hint: build into a folder of its own, e.g. --out _site)",
    )
    assert snapshot(project / "content") == files and (project / "ledger/claims.md").is_file()


def test_out_above_the_project_is_refused(built):
    project, before = built
    result = run_cli("build", "--no-search", "--out", "..", cwd=project)
    assert_refused(
        project,
        before,
        result,
        f"{project.parent}: error[output.contains-project]: the output folder {project.parent} "
        "holds the project itself (hint: build into a folder of its own, e.g. --out _site)",
    )


def test_out_inside_the_inputs_is_refused(built):
    project, before = built
    result = run_cli("build", "--no-search", "--out", "content/site", cwd=project)
    assert_refused(
        project,
        before,
        result,
        "content/site: error[output.inside-inputs]: the output folder content/site is inside the "
        "project's content/ (hint: build into a folder of its own, e.g. --out _site)",
    )
    assert not (project / "content/site").exists()


def test_existing_folder_of_the_user_is_never_replaced(built):
    project, before = built
    notes = project / "mynotes"
    notes.mkdir()
    (notes / "thesis.txt").write_text("three years of work", encoding="utf-8")
    result = run_cli("build", "--no-search", "--out", "mynotes", cwd=project)
    assert_refused(
        project,
        before,
        result,
        "mynotes: error[output.not-ours]: the output folder mynotes is not empty and was not written "
        "by atlas-site (hint: it would be replaced: empty or move it yourself, or choose another --out "
        "(a built site holds .atlas-site))",
    )
    assert [p.name for p in notes.iterdir()] == ["thesis.txt"]


def test_a_file_is_never_turned_into_a_site(built):
    project, before = built
    readme = project / "README.md"
    readme.write_text("# notes\n", encoding="utf-8")
    result = run_cli("build", "--no-search", "--out", "README.md", cwd=project)
    assert_refused(
        project,
        before,
        result,
        "README.md: error[output.not-a-folder]: the output README.md exists and is not a folder "
        "(hint: name a folder that is missing, empty, or an earlier build)",
    )
    assert readme.read_text(encoding="utf-8") == "# notes\n"


def test_an_empty_or_earlier_built_folder_may_be_replaced(built, tmp_path):
    project, _ = built
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run_cli("build", "--no-search", "--out", str(empty), cwd=project).returncode == 0
    assert (empty / ".atlas-site").is_file() and (empty / "index.html").is_file()
    again = run_cli("build", "--no-search", "--no-cache", "--out", str(empty), cwd=project)
    assert again.returncode == 0, again.stderr


# ---------------------------------------------------------------- 2. code from the cache


def test_a_planted_pickle_is_never_loaded(built):
    project, _ = built
    witness = project / "pwned"
    payload = b"cos\nsystem\n(S'touch " + str(witness).encode() + b"'\ntR."
    for kind in ("markdown", "yaml", "bib", "part-tokens", "page-html"):
        folder = project / ".atlas-cache/artefacts" / kind
        folder.mkdir(parents=True, exist_ok=True)
        for entry in list(folder.iterdir()) + [folder / "planted.pkl"]:
            entry.with_suffix(".pkl").write_bytes(payload)
    (project / ".atlas-cache/last-build.json").unlink()
    result = run_cli("build", "--no-search", cwd=project)
    assert result.returncode == 0, result.stderr
    assert not witness.exists(), "a pickle from the cache ran"
    assert not list((project / ".atlas-cache/artefacts").rglob("*.pkl")), (
        "old pickles are dropped, never read"
    )


def test_corrupt_truncated_and_foreign_entries_are_misses(built, tmp_path):
    project, _ = built
    entries = sorted((project / ".atlas-cache/artefacts").rglob("*.json"))
    assert len(entries) > 20
    texts = [e.read_text(encoding="utf-8") for e in entries]
    for index, entry in enumerate(entries):
        damage = index % 4
        if damage == 0:
            entry.write_text(texts[index][: len(texts[index]) // 2], encoding="utf-8")  # truncated
        elif damage == 1:
            entry.write_text(texts[index].replace('"', "'", 3), encoding="utf-8")  # corrupt: checksum fails
        elif damage == 2:
            entry.write_text(texts[(index + 1) % len(texts)], encoding="utf-8")  # foreign: another entry
        else:
            body = (
                texts[index]
                .partition("\n")[2]
                .replace('"value":', '"value":{"$":"object","t":"os:system","v":["true"]},"x":', 1)
            )
            entry.write_text(
                hashlib.sha256(body.encode()).hexdigest() + "\n" + body, encoding="utf-8"
            )  # a type we never build
    (project / ".atlas-cache/last-build.json").unlink()
    warm = run_cli("build", "--no-search", cwd=project)
    assert warm.returncode == 0, warm.stderr
    cold = run_cli("build", "--no-search", "--no-cache", "--out", str(tmp_path / "cold"), cwd=project)
    assert cold.returncode == 0
    assert snapshot(project / "_site") == snapshot(tmp_path / "cold")


def test_every_key_includes_the_engine_version(tmp_path, monkeypatch):
    from atlas_site import cache as cache_module

    folder = tmp_path / "c"
    first = cache_module.BuildCache(folder)
    assert first.get("yaml", "k", lambda: ("old", 1)) == ("old", 1)
    monkeypatch.setattr(cache_module, "engine_version", lambda: "another version of the code")
    second = cache_module.BuildCache(folder)
    assert second.get("yaml", "k", lambda: ("new", 2)) == ("new", 2)
    assert second.stats["yaml miss"] == 1


@pytest.mark.parametrize("how", ["a file", "unwritable"])
def test_an_unusable_cache_folder_means_a_cold_build_and_one_warning(
    mini, tmp_path, how, monkeypatch, capsys
):
    from atlas_site.cli import main

    if how == "a file":
        (mini / ".atlas-cache").write_text("not a folder", encoding="utf-8")
    else:  # read-only or full: every write into it fails

        def refuse(*args, **kwargs):
            raise OSError(30, "Read-only file system")

        from atlas_site import files

        monkeypatch.setattr(files.tempfile, "mkstemp", refuse)
    assert main(["--root", str(mini), "build", "--no-search"]) == 0
    err = capsys.readouterr().err
    warnings = [line for line in err.splitlines() if "warning[" in line]
    assert len(warnings) == 1 and "warning[cache.unavailable]" in warnings[0], err
    assert (
        main(["--root", str(mini), "build", "--no-search", "--no-cache", "--out", str(tmp_path / "cold")])
        == 0
    )
    assert snapshot(mini / "_site") == snapshot(tmp_path / "cold")


def test_a_garbled_last_build_stamp_means_build(built):
    project, _ = built
    stamp = project / ".atlas-cache/last-build.json"
    for garbage in ("{not json", "[1, 2]", "\x00\x01", ""):
        stamp.write_text(garbage, encoding="utf-8")
        result = run_cli("build", "--no-search", cwd=project)
        assert result.returncode == 0 and "built " in result.stdout, result.stderr
        assert json.loads(stamp.read_text(encoding="utf-8"))["site"] == str(project / "_site")
    assert not list(stamp.parent.glob(".last-build-*")), (
        "the stamp is written through a temporary file, then renamed"
    )


# ---------------------------------------------------------------- 3. files outside the project


def test_an_input_linking_outside_the_project_is_never_read(built, tmp_path):
    project, before = built
    secret = tmp_path / "outside" / "secret.md"
    secret.parent.mkdir()
    secret.write_text("TOP-SECRET-TEXT\n", encoding="utf-8")
    link = project / "content/en/ch14/01-secret.md"
    link.symlink_to(secret)
    result = run_cli("build", "--no-search", cwd=project)
    assert_refused(
        project,
        before,
        result,
        f"content/en/ch14/01-secret.md:1:1: error[file.outside-project]: links to {secret}, outside "
        "the project: inputs are read only from inside it (hint: copy the file into the project "
        "instead of linking to it)",
    )
    assert "TOP-SECRET-TEXT" not in result.stdout + result.stderr


def test_a_lab_folder_linking_outside_is_refused_and_never_run(built, tmp_path):
    project, before = built
    outside = tmp_path / "evil"
    outside.mkdir()
    (outside / "model.js").write_text(
        "require('fs').writeFileSync({!r}, 'ran');\n".format(str(tmp_path / "ran")), encoding="utf-8"
    )
    (project / "labs_js/evil").symlink_to(outside, target_is_directory=True)
    result = run_cli("build", "--no-search", cwd=project)
    assert_refused(
        project,
        before,
        result,
        f"labs_js/evil:1:1: error[file.outside-project]: links to {outside}, outside the project: "
        "inputs are read only from inside it (hint: copy the file into the project instead of linking to it)",
    )
    assert not (tmp_path / "ran").exists()


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_serve_answers_only_from_the_site_folder(tmp_path):
    from atlas_site.serve import LiveState, open_server

    site = tmp_path / "work" / "_site"
    site.mkdir(parents=True)
    (site / "index.html").write_text("<html><head></head><body>home</body></html>", encoding="utf-8")
    (site / "en").mkdir()
    (site / "en" / "index.html").write_text("<html><head></head></html>", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.html").write_text("<html><head></head>SECRET</html>", encoding="utf-8")
    (outside / "index.html").write_text("SECRET", encoding="utf-8")
    (site / "leak.html").symlink_to(outside / "secret.html")
    server = open_server(site, LiveState(), 0)  # the preview's own server class, quiet when a client leaves
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        assert _get(base + "/") == 200 and _get(base + "/en/") == 200
        for path in (
            "/../../outside/secret.html",
            "/../outside/secret.html",
            "/%2e%2e/%2e%2e/outside/secret.html",
            "/../../outside/",
            "/..%2f..%2foutside/secret.html",
            "/leak.html",
            "/../outside/index.html",
        ):
            raw = socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=5)
            raw.sendall(f"GET {path} HTTP/1.0\r\n\r\n".encode())
            answer = b""
            while chunk := raw.recv(65536):
                answer += chunk
            raw.close()
            assert answer.startswith(b"HTTP/1.0 404"), (path, answer[:80])
            assert b"SECRET" not in answer, path
    finally:
        server.shutdown()
        server.server_close()


# ---------------------------------------------------------------- 4. hangs (each run has a deadline)


def run_with_deadline(
    project: Path, *args: str, seconds: float = 90, env: dict | None = None
) -> subprocess.CompletedProcess:
    return run_atlas(project, "build", "--no-search", *args, seconds=seconds, env=env)


BOMB = (
    "["
    + ", ".join(
        ["&a [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
        + [f"&{b} [" + ", ".join([f"*{a}"] * 9) + "]" for a, b in zip("abcdefgh", "bcdefghi", strict=False)]
    )
    + "]"
)


def test_a_yaml_alias_bomb_is_refused_at_once(built):
    project, before = built
    edit(project / "ledger/examples.md", '    seed: "000 §3.2"', '    seed: "000 §3.2"\n    bomb: ' + BOMB)
    result = run_with_deadline(project, seconds=30)
    assert_refused(
        project,
        before,
        result,
        "ledger/examples.md:11:48: error[yaml.alias]: YAML alias '*a' is not allowed (hint: write "
        "the value out where it is needed (aliases can expand without bound, or refer to themselves))",
    )


def test_an_endless_loop_in_a_lab_function_is_stopped_and_named(built):
    project, before = built
    edit(
        project / "labs_js/memory/model.js",
        "function kv_bytes_per_token(args) {",
        "function kv_bytes_per_token(args) {\n    while (true) {}",
    )
    result = run_with_deadline(project, "--no-cache", env={"ATLAS_LAB_TIMEOUT": "2"})
    assert_refused(
        project,
        before,
        result,
        "ledger/examples.md:3:5: error[example.timeout]: labs_js/memory/model.js: "
        "memory.kv_bytes_per_token did not return within 2 s (an endless loop?) (hint: fix the "
        "function; ATLAS_LAB_TIMEOUT=SECONDS allows a slower machine more time)",
    )


def test_an_endless_loop_at_the_top_of_a_lab_file_is_named(built):
    project, before = built
    path = project / "labs_js/fleet/model.js"
    path.write_text("while (true) {}\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    result = run_with_deadline(project, "--no-cache", env={"ATLAS_LAB_TIMEOUT": "2"})
    assert_refused(
        project,
        before,
        result,
        "ledger/examples.md:3:5: error[example.timeout]: labs_js/fleet/model.js did not finish "
        "loading within 2 s (an endless loop at its top level?) (hint: fix the file; "
        "ATLAS_LAB_TIMEOUT=SECONDS allows a slower machine more time)",
    )


def test_a_catastrophic_forbidden_pattern_is_refused_where_it_is_written(built):
    project, before = built
    edit(
        project / "ledger/misconceptions.md",
        'en: ["PagedAttention[^.]{0,40}zero fragmentation"]',
        'en: ["PagedAttention[^.]{0,40}zero fragmentation", "^(\\\\w+\\\\s?)*$"]',
    )
    result = run_with_deadline(project, seconds=30)
    assert_refused(
        project,
        before,
        result,
        "ledger/misconceptions.md:9:58: error[schema.invalid]: forbidden.en.1: pattern "
        "'^(\\\\w+\\\\s?)*$' repeats a group that itself repeats (like (a+)+): it can take for ever "
        "on a long line; bound the inner part or drop a quantifier",
    )


def test_a_pattern_that_backtracks_anyway_is_stopped_and_named(built):
    project, before = built
    edit(
        project / "ledger/misconceptions.md",
        'en: ["PagedAttention[^.]{0,40}zero fragmentation"]',
        'en: ["PagedAttention[^.]{0,40}zero fragmentation", "^(?:a|a)+$"]',
    )  # no nested repeat, still exponential
    edit(
        project / "content/en/ch14/00-intro.md",
        "| quantity | value |",
        "a" * 40 + "b\n\n| quantity | value |",
    )
    result = run_with_deadline(project, seconds=60)
    assert_refused(
        project,
        before,
        result,
        "ledger/misconceptions.md:3:5: error[gate.forbidden.slow-pattern]: misconception m07: "
        "forbidden pattern '^(?:a|a)+$' took over 1 s on content/en/ch14/00-intro.md:23 and was "
        "left out (hint: simplify it: avoid alternatives or repeats that can match the same text "
        "in many ways)",
    )


# ---------------------------------------------------------------- 5. atomic publish


def test_readers_never_see_a_missing_index_while_builds_publish(built):
    project, _ = built
    index = project / "_site" / "index.html"
    misses, stop = [], threading.Event()

    def read():
        while not stop.is_set():
            try:
                index.read_bytes()
            except OSError:
                misses.append(time.monotonic())

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for round_ in range(8):
            edit(
                project / "content/en/ch14/00-intro.md",
                "counts from arrival",
                f"counts from arrival ({round_})",
            )
            assert run_cli("build", "--no-search", cwd=project).returncode == 0
            edit(
                project / "content/en/ch14/00-intro.md",
                f"counts from arrival ({round_})",
                "counts from arrival",
            )
    finally:
        stop.set()
        reader.join()
    assert misses == [], f"index.html was missing {len(misses)} times"


def test_leftovers_of_a_killed_build_are_cleaned_but_a_users_folder_is_kept(built):
    project, _ = built
    staging = project / "._site.new-killed"
    (staging / "en").mkdir(parents=True)
    (staging / ".atlas-site").write_text('{"generator": "atlas-site"}', encoding="utf-8")
    (staging / "en" / "ch14.html").write_text("half", encoding="utf-8")
    old = project / "._site.old-x"
    old.mkdir()
    mine = project / "._site.new-mine"
    mine.mkdir()
    (mine / "keep.txt").write_text("mine", encoding="utf-8")
    running = (
        project / f"._site.new-{os.getppid()}-abc"
    )  # a build that is still running (here: a live process)
    running.mkdir()
    (running / ".atlas-site").write_text('{"generator": "atlas-site"}', encoding="utf-8")
    edit(project / "content/en/ch14/00-intro.md", "counts from arrival", "counts from the arrival")
    assert run_cli("build", "--no-search", cwd=project).returncode == 0
    assert not staging.exists() and not old.exists()
    assert (mine / "keep.txt").read_text(encoding="utf-8") == "mine"
    assert running.is_dir(), "the staging folder of a live build is left alone"


def test_two_cold_builds_at_once_both_succeed(mini):
    command = [sys.executable, "-m", "atlas_site", "--root", str(mini), "build", "--no-search"]
    runs = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)
    ]
    results = [(run.wait(timeout=180), run.stderr.read()) for run in runs]
    assert [code for code, _ in results] == [0, 0], results
    assert (mini / "_site/en/ch14.html").is_file()
    assert not [p.name for p in mini.iterdir() if p.name.startswith("._site.")]


def test_a_second_build_waits_for_the_first(mini):
    from atlas_site.write import project_lock

    with project_lock(mini):
        waiting = subprocess.Popen(
            [sys.executable, "-m", "atlas_site", "--root", str(mini), "build", "--no-search"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        # the lock is released once the second build says it waits (a fixed sleep was either too
        # short for a slow start or idle time)
        said = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not said[-1:] == [WAITING]:
            ready, _, _ = select.select([waiting.stderr], [], [], max(0.0, deadline - time.monotonic()))
            line = waiting.stderr.readline() if ready else ""
            if not line:
                break
            said.append(line.rstrip("\n"))
        assert said[-1:] == [WAITING], f"the second build did not say it waits: {said}"
        assert waiting.poll() is None, "the second build did not wait for the lock"
    out, err = waiting.communicate(timeout=120)
    assert waiting.returncode == 0, err


WAITING = "waiting for another build of this project to finish…"


# ---------------------------------------------------------------- 6. located one-line diagnostics

LOCATED = [
    # (case, file, old, new, the exact line)
    (
        "recursive alias",
        "ledger/glossary.md",
        "    en: goodput",
        "    en: &x [*x]",
        "ledger/glossary.md:5:13: error[yaml.alias]: YAML alias '*x' is not allowed (hint: write the value out where it is needed "
        "(aliases can expand without bound, or refer to themselves))",
    ),
    (
        "bell in YAML",
        "ledger/claims.md",
        '    unit: "×"',
        '    unit: "×\x07"',
        "ledger/claims.md:7:13: error[file.control-character]: control character U+0007 (hint: delete it: inputs are plain text)",
    ),
    (
        "NUL in prose",
        "content/en/ch14/00-intro.md",
        "counts from arrival.",
        "counts from\x00 arrival.",
        "content/en/ch14/00-intro.md:15:26: error[file.control-character]: control character U+0000 (hint: delete it: inputs are plain text)",
    ),
    (
        "complex key",
        "ledger/glossary.md",
        "    en: goodput",
        "    en: goodput\n    ? [a, b]\n    : c",
        "ledger/glossary.md:6:7: error[yaml.complex-key]: a mapping key must be a plain name, not a list or mapping (hint: write the key "
        "as text, e.g. 'a, b': …)",
    ),
    (
        "date in args",
        "ledger/examples.md",
        "kv_bits: 16}",
        "kv_bits: 16, since: 2026-01-01}",
        "ledger/examples.md:3:5: error[example.args]: kv-per-token: args.since is a date (2026-01-01); lab functions take numbers, text, "
        "booleans, lists and mappings (hint: quote a date or other value you mean as text)",
    ),
    (
        "infinite expect",
        "ledger/examples.md",
        "expect: {kib_per_token: 128}",
        "expect: {kib_per_token: .inf}",
        "ledger/examples.md:9:29: error[yaml.value]: '.inf' is not a finite number (hint: give a number, or quote it if you mean text)",
    ),
    (
        "bad date",
        "ledger/claims.md",
        '    seed: "000 §2.1"',
        "    seed: 2026-13-45",
        "ledger/claims.md:12:11: error[yaml.value]: invalid YAML value: month must be in 1..12 (hint: quote it if you mean text)",
    ),
    (
        "python tag",
        "ledger/claims.md",
        '    seed: "000 §2.1"',
        "    seed: !!python/object/apply:os.system ['true']",
        "ledger/claims.md:12:11: error[yaml.value]: the tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed: inputs are "
        "plain lists and mappings",
    ),
    (
        "stray brace",
        "sources/works.bib",
        "title = {DistServe: Disaggregating Prefill and Decoding for Goodput-optimized Large Language Model Serving},",
        "title = {DistServe}},",
        "sources/works.bib:10:1: error[bib.stray-field]: field 'year' is outside any entry: a '}' too many closed entry 'distserve-2024' "
        "early (hint: check the braces of the field before it; every field of an entry is kept inside its @type{…})",
    ),
    (
        "undefined macro",
        "sources/works.bib",
        "title = {DistServe: Disaggregating Prefill and Decoding for Goodput-optimized Large Language Model Serving},",
        "title = Clockwork,",
        "sources/works.bib:9:1: error[bib.macro]: 'distserve-2024': title = Clockwork is not text in braces (an undefined BibTeX macro?) "
        "(hint: write the value in braces: title = {…})",
    ),
]


@pytest.mark.parametrize(
    "path, old, new, line", [case[1:] for case in LOCATED], ids=[case[0] for case in LOCATED]
)
def test_bad_input_is_one_located_line(built, path, old, new, line):
    project, before = built
    edit(project / path, old, new)
    result = run_cli("build", "--no-search", cwd=project)
    assert_refused(project, before, result, line)


def test_a_byte_order_mark_is_one_line_and_nothing_else(built):
    project, before = built
    page = project / "content/en/ch14/00-intro.md"
    page.write_bytes(b"\xef\xbb\xbf" + page.read_bytes())
    result = run_cli("build", "--no-search", cwd=project)
    assert_refused(
        project,
        before,
        result,
        "content/en/ch14/00-intro.md:1:1: error[file.bom]: starts with a byte-order mark (U+FEFF) "
        "(hint: save the file as UTF-8 without BOM)",
    )
    assert len(errors(result)) == 1, errors(result)


def test_an_empty_sources_table_is_called_empty_not_missing(built):
    project, before = built
    (project / "sources/nodes.yaml").write_text("", encoding="utf-8")
    result = run_cli("build", "--no-search", cwd=project)
    assert_refused(
        project,
        before,
        result,
        "sources/nodes.yaml:1:1: error[source.empty]: sources/nodes.yaml is empty "
        "(hint: restore its entries (git checkout, or your last good copy))",
    )
    assert "is missing" not in result.stderr


def test_a_truncated_sources_table_is_a_syntax_error_not_missing(built):
    project, before = built
    path = project / "sources/nodes.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text[: text.index('"IO') + 3], encoding="utf-8"
    )  # cut inside a quoted value, as a full disk would
    result = run_cli("build", "--no-search", cwd=project)
    assert result.returncode == 2
    assert any(
        line.startswith("sources/nodes.yaml:") and "error[yaml.syntax]" in line for line in errors(result)
    ), errors(result)
    assert "is missing" not in result.stderr
    assert snapshot(project / "_site") == before


def test_a_folder_named_like_a_page_part_is_located(built):
    project, before = built
    (project / "content/en/ch14/01-more.md").mkdir()
    result = run_cli("build", "--no-search", cwd=project)
    assert_refused(
        project,
        before,
        result,
        "content/en/ch14/01-more.md:1:1: error[file.unreadable]: is a folder, not a file "
        "(hint: remove it or rename it (only files may end in .md, .yaml or .bib))",
    )


def test_a_dangling_link_is_located(built):
    project, before = built
    (project / "content/en/ch14/01-more.md").symlink_to(project / "content/en/ch14/gone.md")
    result = run_cli("build", "--no-search", cwd=project)
    assert_refused(
        project,
        before,
        result,
        f"content/en/ch14/01-more.md:1:1: error[file.unreadable]: a symbolic link to "
        f"{project / 'content/en/ch14/gone.md'}, which does not exist (hint: restore the file or "
        "delete the link)",
    )


FIGURE_FAULTS = [
    (
        "label with an unknown number",
        lambda spec: spec.replace(
            'kernel: {zh: "设备内核", en: "Device kernels"}',
            'kernel: {zh: "{nokey} 内核", en: "{nokey} kernels"}',
        ),
        "ledger/figures.md:3:5: error[schema.invalid]: FigureSpec: figure 'serving-stack': label 'kernel' uses unknown number 'nokey'",
    ),
    (
        "missing label",
        lambda spec: spec.replace('      kernel: {zh: "设备内核", en: "Device kernels"}\n', ""),
        "ledger/figures.md:3:5: error[figure.render]: figure 'serving-stack': no label 'kernel' in 'zh' (hint: fix the figure's spec in "
        "ledger/figures.md or its template)",
    ),
]


@pytest.mark.parametrize(
    "change, line", [case[1:] for case in FIGURE_FAULTS], ids=[case[0] for case in FIGURE_FAULTS]
)
def test_figure_spec_faults_are_located(built, change, line):
    project, before = built
    spec = serving_stack_spec()
    assert change(spec) != spec, "the fault no longer applies to the real figure: update the case"
    with_figure(project, change(spec))
    result = run_cli("build", "--no-search", cwd=project)
    assert_refused(project, before, result, line)


def test_a_figure_without_a_template_is_located(built):
    project, before = built
    with_figure(project, serving_stack_spec().replace("id: serving-stack", "id: no-template"))
    for lang in ("en", "zh"):
        edit(
            project / f"content/{lang}/ch14/00-intro.md", "{{figure:serving-stack}}", "{{figure:no-template}}"
        )
    result = run_cli("build", "--no-search", cwd=project)
    assert_refused(
        project,
        before,
        result,
        "ledger/figures.md:3:5: error[figure.render]: figure 'no-template' has no template "
        "templates/figures/no-template.svg.j2 (hint: fix the figure's spec in ledger/figures.md or its template)",
    )


def test_a_figure_id_that_climbs_out_is_refused(built):
    project, before = built
    with_figure(project, serving_stack_spec().replace("id: serving-stack", "id: ../../etc/passwd"))
    result = run_cli("build", "--no-search", cwd=project)
    assert result.returncode == 2
    assert (
        "ledger/figures.md:3:5: error[schema.invalid]: id: String should match pattern '^[a-z0-9][a-z0-9-]*$'"
        in result.stderr.splitlines()
    )
    assert snapshot(project / "_site") == before


def test_a_jinja_error_in_a_figure_template_is_located(built):
    project, before = built
    with_figure(project)
    template = project / "templates/figures/serving-stack.svg.j2"
    lines = template.read_text(encoding="utf-8").splitlines()
    lines.insert(2, "{% if %}")
    template.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("build", "--no-search", cwd=project)
    assert_refused(
        project,
        before,
        result,
        "templates/figures/serving-stack.svg.j2:3:1: error[figure.render]: figure 'serving-stack': "
        "Expected an expression, got 'end of statement block' (hint: fix the figure's spec in "
        "ledger/figures.md or its template)",
    )


def test_an_unwritable_output_parent_is_one_line(built, monkeypatch, capsys):
    from atlas_site import write
    from atlas_site.cli import main

    project, before = built
    edit(project / "content/en/ch14/00-intro.md", "counts from arrival", "counts from the arrival")

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(project))

    monkeypatch.setattr(write, "_make_staging", refuse)
    assert main(["--root", str(project), "build", "--no-search"]) == 2
    err = capsys.readouterr().err
    assert (
        f"_site: error[output.write-failed]: cannot write the site: Permission denied ({project}) (hint: free some space or "
        "choose a writable --out; the previous site is unchanged)"
    ) in err.splitlines(), err
    assert snapshot(project / "_site") == before


def test_an_output_parent_that_is_a_file_is_one_line(built):
    project, before = built
    (project / "notes.txt").write_text("x", encoding="utf-8")
    result = run_cli("build", "--no-search", "--out", "notes.txt/site", cwd=project)
    assert_refused(
        project,
        before,
        result,
        f"notes.txt/site: error[output.write-failed]: cannot write the site: File exists "
        f"({project / 'notes.txt'}) (hint: free some space or choose a writable --out; the "
        "previous site is unchanged)",
    )


def test_a_full_disk_leaves_the_site_as_it_was(built):
    project, before = built
    edit(project / "content/en/ch14/00-intro.md", "counts from arrival", "counts from the arrival")
    limit = lambda: resource.setrlimit(
        resource.RLIMIT_FSIZE, (4096, 4096)
    )  # no file may grow past 4 KiB: the disk is "full"
    result = subprocess.run(
        [sys.executable, "-m", "atlas_site", "--root", str(project), "build", "--no-search"],
        capture_output=True,
        text=True,
        cwd=project,
        preexec_fn=limit,
        timeout=120,
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert [line for line in errors(result) if "error[" in line] == [
        "_site: error[output.write-failed]: cannot write the site: File too large (hint: free some space or choose a writable --out; "
        "the previous site is unchanged)"
    ], result.stderr
    assert snapshot(project / "_site") == before
    assert not [p.name for p in project.iterdir() if p.name.startswith("._site.")]


def test_check_browser_without_playwright_says_what_to_install(mini, tmp_path):
    fake = tmp_path / "no-playwright" / "playwright"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(
        "raise ImportError(\"No module named 'playwright'\")\n", encoding="utf-8"
    )
    result = run_cli("check", "--browser", cwd=mini, env={"PYTHONPATH": str(fake.parent)})
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.splitlines() == [
        "atlas-site: error[browser.unavailable]: check --browser needs Playwright (No module named 'playwright') (hint: pip install "
        "'atlas-site[browser]' (in this repository: bash scripts/test.sh once))"
    ]


def test_serve_on_a_busy_port_says_so_before_building(mini):
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    try:
        result = subprocess.run(
            [sys.executable, "-m", "atlas_site", "--root", str(mini), "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        busy.close()
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"127.0.0.1:{port}: error[serve.port]: cannot listen on 127.0.0.1:{port}: Address already in use (hint: choose another port "
        "with --port N (0 picks a free one))"
    ]
    assert not (mini / "_site").exists(), "no build before the port is known to be free"


def interruptible() -> None:
    """In the child before it runs: Ctrl-C's default disposition. A suite started in the background
    of a non-interactive shell inherits SIGINT ignored, and Python then installs no handler for it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_is_one_line_and_exit_130(built):
    project, before = built
    edit(
        project / "labs_js/memory/model.js",
        "function kv_bytes_per_token(args) {",
        "function kv_bytes_per_token(args) {\n    while (true) {}",
    )
    run = subprocess.Popen(
        [sys.executable, "-m", "atlas_site", "--root", str(project), "build", "--no-search", "--progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=interruptible,
    )
    seen = []
    for line in run.stderr:  # the build is stuck computing examples: interrupt it there
        seen.append(line)
        if "… resolve" in line:
            time.sleep(0.5)
            run.send_signal(signal.SIGINT)
            break
    rest = run.stderr.read()
    assert run.wait(timeout=60) == 130, "".join(seen) + rest
    assert rest.strip().splitlines() == ["atlas-site: interrupted"]
    assert snapshot(project / "_site") == before


def test_ctrl_c_stops_serve_in_one_line(mini):
    run = subprocess.Popen(
        [sys.executable, "-m", "atlas_site", "--root", str(mini), "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=interruptible,
    )
    for line in run.stdout:
        if line.startswith("serving "):
            break
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert "Traceback" not in err and err.strip().splitlines()[-1] == "atlas-site: interrupted"


# ---------------------------------------------------------------- 7. no success with wrong output


def test_a_lab_output_of_nan_is_an_error_not_a_question_mark(built):
    project, before = built
    edit(
        project / "labs_js/memory/model.js",
        "return { bytes_per_token: bytes, kib_per_token: bytes / KIB };",
        "return { bytes_per_token: bytes, kib_per_token: bytes / 0 - bytes / 0 };",
    )
    result = run_cli("build", "--no-search", cwd=project)
    assert_refused(
        project,
        before,
        result,
        "ledger/examples.md:3:5: error[example.not-finite]: kv-per-token.kib_per_token: "
        "memory.kv_bytes_per_token returns NaN, not a number (hint: check the inputs and the "
        "formula (a division by zero?))",
    )


def test_a_lab_function_that_throws_is_located_at_its_example_and_file(built):
    project, before = built
    edit(
        project / "labs_js/memory/model.js",
        "function kv_bytes_per_token(args) {",
        "function kv_bytes_per_token(args) {\n    throw new Error('boom');",
    )
    result = run_cli("build", "--no-search", cwd=project)
    assert_refused(
        project,
        before,
        result,
        "ledger/examples.md:3:5: error[example.failed]: labs_js/memory/model.js failed: "
        'item 0 ("memory.kv_bytes_per_token"): boom',
    )


def test_a_syntax_error_in_a_shipped_script_fails_the_build(built):
    project, before = built
    path = project / "labs_js/memory/ui.js"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines.insert(9, "  var broken = (1;")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("build", "--no-search", cwd=project)
    assert_refused(
        project,
        before,
        result,
        "labs_js/memory/ui.js:10:18: error[gate.scripts.syntax]: Unexpected token ';' (shipped as "
        "assets/labs/memory/ui.js) (hint: fix the script: the site would ship it broken)",
    )


@pytest.mark.parametrize(
    "math",
    [
        "$\\href{javascript:alert(1)}{x}$",
        "$\\href{https://evil.example/}{x}$",
        "$\\text{<script>alert(1)</script>}$",
        "$\\style{color:red}{x}$",
    ],
)
def test_math_carries_no_links_scripts_or_styles(mini, math):
    for lang in ("en", "zh"):
        page = mini / f"content/{lang}/ch14/00-intro.md"
        page.write_text(page.read_text(encoding="utf-8") + f"\n{math}\n", encoding="utf-8")
    result = run_cli("build", "--no-search", cwd=mini)
    assert result.returncode == 0, result.stderr
    html = (mini / "_site/en/ch14.html").read_text(encoding="utf-8")
    body = html.split('<article class="prose"', 1)[1]
    assert "<math" in body
    for bad in ('href="javascript', 'href="https://evil', "<script>alert", "style=", "<mrow href"):
        assert bad not in body, bad  # (the LaTeX source stays readable as the formula's alttext)


def test_an_image_from_elsewhere_is_a_located_error(built):
    project, before = built
    edit(
        project / "content/en/ch14/00-intro.md",
        "FlashAttention reorders IO",
        "See ![diagram](https://evil.example/p.png). FlashAttention reorders IO",
    )
    result = run_cli("build", "--no-search", cwd=project)
    assert_refused(
        project,
        before,
        result,
        "content/en/ch14/00-intro.md:17:14: error[gate.images.remote]: image "
        "'https://evil.example/p.png' is not a file of the site (hint: pages load nothing from "
        "elsewhere: draw it as a figure (ledger/figures.md))",
    )


def test_an_escaped_attack_in_an_attribute_is_not_a_handler(mini):
    # a worked example's note is the title of its first number on a page
    edit(
        mini / "ledger/examples.md",
        '    seed: "000 §3.2"\n',
        '    seed: "000 §3.2"\n'
        '    note: {zh: "教学假设。", en: "A teaching case \\"><svg onload=alert(1)> style=x of 32 layers."}\n',
    )
    result = run_cli("build", "--no-search", cwd=mini)
    assert result.returncode == 0, result.stderr
    html = (mini / "_site/en/ch14.html").read_text(encoding="utf-8")
    assert "&quot;&gt;&lt;svg onload=alert(1)&gt;" in html and "<svg onload" not in html
