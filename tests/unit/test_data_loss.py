"""Nothing an author owns is ever lost: a folder of the user's is never taken for a site, an author's
file is replaced whole or not at all, two syncs never lose a declaration, and the published site is
readable by a web server running as another user."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import edit, run_cli

EN = "content/en/ch14/00-intro.md"


def test_a_folder_that_merely_looks_like_a_site_is_never_replaced(mini, tmp_path):
    """An index.html, a dashboard.html and assets/atlas.css prove nothing: only the marker does."""
    folder = tmp_path / "website"
    (folder / "assets").mkdir(parents=True)
    for name in ("index.html", "dashboard.html", "assets/atlas.css", "thesis.tex"):
        (folder / name).write_text(f"the user's {name}", encoding="utf-8")
    result = run_cli("build", "--no-search", "--out", str(folder), cwd=mini)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "error[output.not-ours]" in result.stderr
    kept = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert kept == ["assets/atlas.css", "dashboard.html", "index.html", "thesis.tex"]
    assert (folder / "thesis.tex").read_text(encoding="utf-8") == "the user's thesis.tex"


def test_the_published_site_follows_the_umask(mini):
    """A web server running as another user can read every page (mkdtemp's 0700 made it answer 403)."""
    result = run_cli("build", "--no-search", cwd=mini)
    assert result.returncode == 0, result.stderr
    site = mini / "_site"
    expected = 0o777 & ~_umask()
    assert stat.S_IMODE(site.stat().st_mode) == expected
    others_read = [p for p in site.rglob("*") if not p.stat().st_mode & stat.S_IROTH]
    if not _umask() & 0o004:
        assert others_read == []


def _umask() -> int:
    from atlas_site.files import current_umask

    return current_umask()


def test_new_chapter_on_a_failing_disk_leaves_book_yaml_whole_and_nothing_half_made(workshop, monkeypatch):
    """The scaffold writes book.yaml through a temporary file; when that write fails, book.yaml is
    byte for byte as it was and the chapter folders it had made are gone again."""
    from atlas_site import files, scaffold

    before = (workshop / "book.yaml").read_bytes()
    calls = []
    real = files.replace_file

    def failing(path, data, durable=True):
        calls.append(Path(path).name)
        if Path(path).name == "book.yaml":
            raise OSError(28, "No space left on device", str(path))
        return real(path, data, durable)

    monkeypatch.setattr(scaffold, "replace_file", failing)
    written, problems = scaffold.new_chapter(workshop, "eviction", {"en": "Eviction", "de": "Verdrängung"})
    assert written == []
    assert [p.code for p in problems] == ["scaffold.write-failed"]
    assert "No space left on device" in problems[0].message
    assert calls[-1] == "book.yaml"
    assert (workshop / "book.yaml").read_bytes() == before
    assert not (workshop / "content/en/eviction").exists() and not (workshop / "content/de/eviction").exists()
    assert not [p.name for p in workshop.iterdir() if p.name.endswith(".tmp")]


def test_replace_file_keeps_the_old_file_when_the_write_fails(tmp_path, monkeypatch):
    from atlas_site import files

    target = tmp_path / "book.yaml"
    target.write_text("title: mine\n", encoding="utf-8")
    os.chmod(target, 0o640)

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full_disk)
    with pytest.raises(OSError):
        files.replace_file(target, "title: cut sh")
    assert target.read_text(encoding="utf-8") == "title: mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.yaml"]
    monkeypatch.undo()
    files.replace_file(target, "title: new\n")
    assert target.read_text(encoding="utf-8") == "title: new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the author's permissions are kept


def test_two_syncs_at_once_keep_both_declarations(mini):
    """Each sync reads the lock, adds its declaration and writes it back: without a lock between
    them one of the two was lost (2 of 5 tries)."""
    edit(mini / EN, "counts from arrival.", "counts from the moment a request arrives.")
    edit(mini / EN, "## Questions {#questions}\n", "## Questions {#questions}\n\nEighteen questions.\n")
    assert _out_of_step(mini) == ["ch14#q1", "ch14#questions"]
    command = [sys.executable, "-m", "atlas_site", "--root", str(mini), "sync"]
    runs: list[subprocess.CompletedProcess] = []

    def run(section: str) -> None:
        runs.append(
            subprocess.run(
                [*command, section, "--date", "2026-12-02"], capture_output=True, text=True, timeout=180
            )
        )

    for _ in range(3):  # the race was lost 2 times in 5
        threads = [threading.Thread(target=run, args=(section,)) for section in ("ch14#q1", "ch14#questions")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert [r.returncode for r in runs] == [0, 0], [r.stderr for r in runs]
        assert _out_of_step(mini) == []
        runs.clear()
        edit(mini / EN, "a request arrives.", "a request arrives!")
        edit(mini / EN, "Eighteen questions.", "Eighteen questions!")
        assert _out_of_step(mini) == ["ch14#q1", "ch14#questions"]
        edit(mini / EN, "a request arrives!", "a request arrives.")
        edit(mini / EN, "Eighteen questions!", "Eighteen questions.")


def test_a_sync_waits_while_another_holds_the_translation_lock(mini):
    """The deterministic half of the race above: a sync does not read the lock file while another
    sync may be between its read and its write."""
    from atlas_site.write import project_lock

    edit(mini / EN, "counts from arrival.", "counts from the moment a request arrives.")
    command = [
        sys.executable,
        "-m",
        "atlas_site",
        "--root",
        str(mini),
        "sync",
        "ch14#q1",
        "--date",
        "2026-12-02",
    ]
    with project_lock(mini, "sync"):
        waiting = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # held until the child says it waits (however long its start takes on a loaded machine);
        # a sync that does not wait runs to its end instead, and its first line is another one
        first = waiting.stderr.readline()
        assert first.strip() == "waiting for another sync of this project to finish…", first
        assert waiting.poll() is None, "sync did not wait for the translation lock"
    out, err = waiting.communicate(timeout=120)
    assert waiting.returncode == 0, err
    assert _out_of_step(mini) == []


def _out_of_step(project: Path) -> list[str]:
    """The sections `sync --status` lists as outdated or missing in some language."""
    status = run_cli("sync", "--status", "--date", "2026-12-02", cwd=project)
    assert status.returncode == 0, status.stderr
    return sorted(
        {line.split()[2] for line in status.stdout.splitlines() if line.startswith(("outdated", "missing"))}
    )
