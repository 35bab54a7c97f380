"""Translations cannot drift silently: a section whose twin changed is reported where it is and
where the twin changed, fails a release, tells the reader, shows on the dashboard with its diff,
and `atlas-site sync` is the only way to clear it."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from atlas_site.build import assemble
from conftest import edit, make_project, run_cli

EN = "content/en/ch14/00-intro.md"
ZH = "content/zh/ch14/00-intro.md"
LOCK = "content/translations.lock"
EN_EDIT = ("counts from arrival.", "counts from the moment the request arrives.")
LENGTH = re.compile(rb' data-u="\d+"')


@pytest.fixture
def workshop(tmp_path: Path) -> Path:
    return make_project(tmp_path, "workshop")


def files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def build(project: Path, *extra: str):
    result = run_cli("build", "--no-search", "--no-cache", *extra, cwd=project)
    assert result.returncode == 0, result.stderr
    return result


def states(project: Path) -> dict[str, str]:
    result = assemble(project)
    return {f"{row.lang} {row.name}": row.state for row in result.translations.rows}


def test_the_fixture_starts_in_step(mini):
    assert set(states(mini).values()) == {"in step"}
    status = run_cli("sync", "--status", cwd=mini)
    assert status.returncode == 0 and "3 sections × 2 languages: 6 in step\n" in status.stdout


def test_an_en_paragraph_edit_marks_exactly_that_zh_section(mini):
    edit(mini / EN, *EN_EDIT)
    outdated = {name: state for name, state in states(mini).items() if state != "in step"}
    assert outdated == {"zh ch14#q1": "outdated"}

    built = build(mini)  # a warning never fails a build
    assert (
        "content/zh/ch14/00-intro.md:13:1: warning[translation.outdated]: zh section q1 was brought in step with an earlier "
        "en version (en changed: content/en/ch14/00-intro.md:15)"
    ) in built.stderr

    release = run_cli("check", "--release", "--as-of", "2026-12-02", cwd=mini)
    assert release.returncode == 2
    assert "content/zh/ch14/00-intro.md:13:1: error[translation.outdated]: zh section q1" in release.stdout

    zh = (mini / "_site/zh/ch14.html").read_text(encoding="utf-8")
    notice = zh[zh.index('<p class="translation-notice"') :]
    notice = notice[: notice.index("</p>")]
    assert zh.index('id="q1"') < zh.index('<p class="translation-notice"')  # right under the q1 heading
    assert '<a href="../en/ch14.html#q1" hreflang="en">阅读英文版</a>' in notice
    assert "本节的英文版在上次对齐之后有了改动" in notice  # the change is not dated until sync records it
    assert zh.count('class="translation-notice"') == 1
    assert "translation-notice" not in (mini / "_site/en/ch14.html").read_text(encoding="utf-8")

    dashboard = (mini / "_site/dashboard.html").read_text(encoding="utf-8")
    row = dashboard[dashboard.index("<td>ch14#q1</td>") :]
    row = row[: row.index("</tr>")]
    assert (
        "<td>OUTDATED (change not dated yet)" in row and "en changed at content/en/ch14/00-intro.md:15" in row
    )
    assert "+{{term:ttft}} counts from the moment the request arrives." in row.replace("&#123;", "{").replace(
        "&#125;", "}"
    )


def test_sync_clears_it_and_the_site_equals_one_that_never_had_the_edit_but_for_the_text(mini, tmp_path):
    build(mini, "--out", str(tmp_path / "before"))
    edit(mini / EN, *EN_EDIT)
    sync = run_cli("sync", "ch14#q1", "--date", "2026-12-02", cwd=mini)
    assert sync.returncode == 0, sync.stderr
    assert "in step: ch14#q1" in sync.stdout and "6 in step" in sync.stdout
    built = build(mini, "--out", str(tmp_path / "after"))
    assert "warning" not in built.stderr
    before, after = files(tmp_path / "before"), files(tmp_path / "after")
    changed = sorted(path for path in before if before[path] != after.get(path))
    # the page, and the preview data that quotes the section's first sentence for links to it
    assert changed == ["assets/previews-en.js", "en/ch14.html"] and sorted(before) == sorted(after)
    for path in changed:  # a paragraph's length for its placeholder (data-u) follows its text
        unedited = after[path].replace(EN_EDIT[1].encode(), EN_EDIT[0].encode())
        assert LENGTH.sub(b"", unedited) == LENGTH.sub(b"", before[path]), path


def test_the_reader_is_told_the_day_once_sync_has_recorded_it(mini):
    edit(mini / EN, *EN_EDIT)
    status = run_cli("sync", "--status", "--date", "2026-12-03", cwd=mini)
    assert "recorded 1 changed section text(s) on 2026-12-03: en ch14#q1" in status.stdout
    assert (
        "outdated         zh ch14#q1  content/zh/ch14/00-intro.md:13:1  (en changed on 2026-12-03: content/en/ch14/00-intro.md:15:1)"
        in status.stdout
    )
    build(mini)
    zh = (mini / "_site/zh/ch14.html").read_text(encoding="utf-8")
    assert "本节的英文版已于 2026-12-03 更新" in zh
    assert "OUTDATED since 2026-12-03" in (mini / "_site/dashboard.html").read_text(encoding="utf-8")


def test_a_minor_edit_marks_nothing(mini):
    edit(mini / EN, "counts from arrival.", "counts from arival.")
    edit(mini / EN, "counts from arival.", "counts from arrival (typo fixed).")
    assert states(mini)["zh ch14#q1"] == "outdated"
    minor = run_cli("sync", "--minor", EN, "--date", "2026-12-02", cwd=mini)
    assert minor.returncode == 0, minor.stderr
    assert "minor: the en edit of ch14#q1 needs no translation (zh stay in step)" in minor.stdout
    assert set(states(mini).values()) == {"in step"}
    assert "translation-notice" not in assemble(mini).output.text("zh/ch14.html")


def test_a_minor_declaration_does_not_hide_the_other_languages_edit(mini):
    edit(mini / EN, *EN_EDIT)
    edit(mini / ZH, "从请求到达算起", "从请求到达的那一刻算起")
    assert run_cli("sync", "--minor", EN, cwd=mini).returncode == 0
    left = {name: state for name, state in states(mini).items() if state != "in step"}
    assert left == {"en ch14#q1": "outdated"}  # zh changed too, and nobody said that was minor


def test_when_both_languages_changed_both_pages_say_so(mini):
    edit(mini / EN, *EN_EDIT)
    edit(mini / ZH, "从请求到达算起", "从请求到达的那一刻算起")
    result = assemble(mini)
    assert '<a href="../en/ch14.html#q1" hreflang="en">' in result.output.text("zh/ch14.html")
    assert (
        '<a href="../zh/ch14.html#q1" hreflang="zh-Hans">Read the Chinese version</a>'
        in result.output.text("en/ch14.html")
    )


def test_a_new_section_is_missing_until_its_twin_exists(mini):
    edit(mini / EN, "| layers | 32 |", "| layers | 32 |\n\n## Batching {#q2}\n\nRequests share a step.")
    assert {k: v for k, v in states(mini).items() if "q2" in k} == {
        "zh ch14#q2": "missing",
        "en ch14#q2": "new",
    }
    built = build(mini)
    assert (
        "content/en/ch14/00-intro.md:27:1: warning[translation.missing]: ch14: section q2 is in en but has no zh "
        "translation yet"
    ) in built.stderr
    assert "<td>ch14#q2</td><td>MISSING</td><td>new (no twin yet)</td>" in (
        mini / "_site/dashboard.html"
    ).read_text(encoding="utf-8")
    release = run_cli("check", "--release", "--as-of", "2026-12-02", cwd=mini)
    assert release.returncode == 2 and "error[translation.missing]" in release.stdout

    edit(mini / ZH, "| 层数 | 32 |", "| 层数 | 32 |\n\n## 批处理 {#q2}\n\n请求共享同一步。")
    assert {k: v for k, v in states(mini).items() if "q2" in k} == {
        "zh ch14#q2": "not yet in step",
        "en ch14#q2": "not yet in step",
    }
    assert run_cli("sync", "ch14#q2", cwd=mini).returncode == 0
    assert set(states(mini).values()) == {"in step"}


def test_another_pair_of_languages_is_tracked_alike(workshop):
    edit(
        workshop / "content/de/caching/00-caching.md",
        "Ein Cache hält Antworten",
        "Ein Cache hält fertige Antworten",
    )
    result = assemble(workshop)
    assert [f"{r.lang} {r.name}" for r in result.translations.rows if r.state != "in step"] == [
        "en caching#overview"
    ]
    page = result.output.text("en/caching.html")
    assert "The German version of this section has changed since" in page
    assert '<a href="../de/caching.html#overview" hreflang="de">Read the German version</a>' in page


def test_a_release_within_the_grace_period_warns_only(workshop):
    edit(
        workshop / "content/de/caching/00-caching.md",
        "Ein Cache hält Antworten",
        "Ein Cache hält fertige Antworten",
    )
    assert run_cli("sync", "--status", "--date", "2026-12-10", cwd=workshop).returncode == 0
    within = run_cli("check", "--release", "--as-of", "2026-12-17", cwd=workshop)  # grace_days: 7
    assert within.returncode == 0, within.stdout
    assert (
        "warning[translation.outdated]" in within.stdout and "within the 7-day grace period" in within.stdout
    )
    after = run_cli("check", "--release", "--as-of", "2026-12-18", cwd=workshop)
    assert after.returncode == 2 and "error[translation.outdated]" in after.stdout


def test_a_broken_lock_is_one_located_error_and_the_site_stays(mini):
    build(mini)
    before = files(mini / "_site")
    lock = mini / LOCK
    text = lock.read_text(encoding="utf-8")
    line = next(i for i, row in enumerate(text.split("\n"), 1) if row.startswith("ch14#q1 zh "))
    lock.write_text(text.replace("ch14#q1 zh ", "<<<<<<< ours\nch14#q1 zh ", 1), encoding="utf-8")
    failed = run_cli("build", "--no-search", "--no-cache", cwd=mini)
    assert failed.returncode == 2 and "Traceback" not in failed.stderr
    assert (
        f"content/translations.lock:{line}:1: error[translation.lock-syntax]: merge conflict marker in the translation lock"
        in failed.stderr
    )
    assert files(mini / "_site") == before
    lock.write_text(text.replace(" 2026-12-01 en=", " 2026-13-01 en=", 1), encoding="utf-8")
    failed = run_cli("build", "--no-search", "--no-cache", cwd=mini)
    assert (
        "content/translations.lock:6:32: error[translation.lock-syntax]: expected a date YYYY-MM-DD, got '2026-13-01'"
        in failed.stderr
    )


def test_after_a_merge_conflict_sync_drops_the_lines_in_doubt_and_lists_their_sections(mini):
    lock = mini / LOCK
    lines = lock.read_text(encoding="utf-8").split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("ch14#q1 zh "))
    ours, theirs = (
        lines[index],
        lines[index].replace(" en=", " en=0", 1)[:-1],
    )  # the other branch synced another en text
    lines[index : index + 1] = ["<<<<<<< ours", ours, "=======", theirs, ">>>>>>> theirs"]
    lock.write_text("\n".join(lines), encoding="utf-8")
    assert "error[translation.lock-duplicate]" in run_cli("check", cwd=mini).stderr
    status = run_cli("sync", "--status", cwd=mini)
    assert status.returncode == 0, status.stderr
    assert status.stdout.count("dropped: ") == 4  # three markers and the section recorded twice
    assert "not yet in step  zh ch14#q1" in status.stdout
    assert "<<<<<<<" not in lock.read_text(encoding="utf-8")
    assert run_cli("sync", "ch14#q1", cwd=mini).returncode == 0
    assert set(states(mini).values()) == {"in step"}


def test_a_renamed_section_leaves_a_stale_line_that_sync_drops(mini):
    for path in (EN, ZH):
        edit(mini / path, "{#q1}", "{#metrics}")
        edit(mini / path, "](#q1)", "](#metrics)")
    result = assemble(mini)
    stale = [str(p) for p in result.problems if p.code == "translation.lock-stale"]
    assert stale == [
        f"content/translations.lock:{n}:1: warning[translation.lock-stale]: ch14#q1 {lang} is no longer a section of the book "
        "(hint: the next `atlas-site sync` drops the line)"
        for n, lang in ((10, "zh"), (11, "en"))
    ]
    assert run_cli("sync", "ch14#metrics", cwd=mini).returncode == 0
    assert "ch14#q1 " not in (mini / LOCK).read_text(encoding="utf-8")
    assert set(states(mini).values()) == {"in step"}


def test_sync_refuses_what_it_cannot_do(mini):
    none = run_cli("sync", cwd=mini)
    assert none.returncode == 2 and "error[sync.usage]" in none.stderr
    unknown = run_cli("sync", "ch14#q11", cwd=mini)
    assert unknown.returncode == 2
    assert (
        "content/zh/ch14/00-intro.md: error[sync.unknown-section]: page 'ch14' has no section 'q11' (hint: did you mean 'q1'?)"
        in unknown.stderr
    )
    before = (mini / LOCK).read_bytes()
    edit(mini / ZH, "status: draft", "status: drafty")
    blocked = run_cli("sync", "--all", cwd=mini)
    assert blocked.returncode == 2 and "error[sync.blocked]" in blocked.stderr
    assert (mini / LOCK).read_bytes() == before


def test_the_lock_files_are_deterministic_and_unchanged_by_a_no_op_sync(mini):
    digest = lambda: hashlib.sha256(
        (mini / LOCK).read_bytes() + (mini / "content/translations.synced").read_bytes()
    ).hexdigest()
    first = digest()
    again = run_cli("sync", "--all", "--date", "2030-01-01", cwd=mini)
    assert again.returncode == 0 and "wrote" not in again.stdout
    assert digest() == first


def test_claims_and_examples_are_records_both_languages_show(mini):
    """A number lives once, in its record: changing it changes every language's page, and a record
    whose wording in one language lags behind its value fails the build."""
    edit(mini / "ledger/claims.md", "value: 7.4", "value: 7.5")
    stale = run_cli("check", cwd=mini)
    assert stale.returncode == 2
    for lang in ("zh", "en"):
        assert (
            f"error[gate.claims.text-value]: claim 'distserve-goodput': text.{lang} does not show its value 7.5"
            in stale.stdout
        )
    edit(mini / "ledger/claims.md", "最高 7.4×", "最高 7.5×")
    edit(mini / "ledger/claims.md", "up to 7.4×", "up to 7.5×")
    result = assemble(mini)
    assert not result.errors, [str(e) for e in result.errors]
    assert "7.5×" in result.output.text("zh/ch14.html") and "7.5×" in result.output.text("en/ch14.html")
    assert "7.4" not in result.output.text("zh/ch14.html") + result.output.text("en/ch14.html")
    assert set(states(mini).values()) == {"in step"}  # no prose changed: no section is behind

    edit(mini / "ledger/examples.md", "layers: 32", "layers: 64")
    edit(mini / "ledger/examples.md", "expect: {kib_per_token: 128}", "expect: {kib_per_token: 256}")
    after = assemble(mini)
    assert not after.errors, [str(e) for e in after.errors]
    for lang in ("zh", "en"):
        page = after.output.text(f"{lang}/ch14.html")
        assert '<span class="ex-value">256 KiB/token</span>' in page and "128 KiB/token" not in page
