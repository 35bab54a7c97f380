"""Evidence freshness: every claim, source and page is dated, the profile sets how long each stays
trusted, and a release pinned to a day fails on what is past due. Builds never read the clock."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from atlas_site.freshness import add_months, review_schedule
from atlas_site.load.project import load_project
from atlas_site.validate import validate
from conftest import ROOT, edit, make_project, run_cli


@pytest.fixture
def workshop(tmp_path: Path) -> Path:
    return make_project(tmp_path, "workshop")


def test_months_are_calendar_months():
    assert add_months(dt.date(2026, 10, 2), 3) == dt.date(2027, 1, 2)
    assert add_months(dt.date(2027, 1, 31), 1) == dt.date(2027, 2, 28)
    assert add_months(dt.date(2027, 11, 30), 3) == dt.date(2028, 2, 29)


def test_the_real_book_is_dated_and_its_rolling_sources_fall_due_first():
    book, _rules, problems, _suppressed = validate(load_project(ROOT))
    assert [str(p) for p in problems if p.severity == "error"] == []
    reviews = review_schedule(book)
    assert len(reviews) == len(book.claims) + len(book.registry.nodes) + len(book.registry.references) + len(
        book.pages
    )
    assert not [r for r in reviews if r.overdue(dt.date(2027, 1, 2))]  # due on that day is not yet past due
    due = [r.name for r in reviews if r.overdue(dt.date(2027, 1, 3))]
    rolling = sorted(n for n, e in book.registry.references.items() if e.rolling)
    assert (
        sorted(due) == rolling and "r36" in rolling and "r33" in rolling
    )  # the DeepSeek-V4.1-Flash model card, vLLM docs
    assert all(r.months == 3 for r in reviews if r.rolling) and all(
        r.months == 12 for r in reviews if not r.rolling
    )


def test_evidence_past_due_fails_a_release_pinned_to_a_day(workshop):
    fresh = run_cli("check", "--release", "--as-of", "2027-05-02", cwd=workshop)
    assert fresh.returncode == 0, fresh.stdout + fresh.stderr
    assert (
        "pass  evidence freshness: 0 claims, 3 sources, 6 pages dated; 0 past due as of 2027-05-02"
        in fresh.stdout
    )
    due = run_cli("check", "--release", "--as-of", "2027-05-03", cwd=workshop)
    assert due.returncode == 2
    assert (
        "sources/references.yaml:7:3: error[freshness.due]: source r205 was last verified on 2026-11-02; its review was "
        "due on 2027-05-02 (6-month interval for a rolling source, as of 2027-05-03)"
    ) in due.stdout
    writing = run_cli("check", "--as-of", "2027-05-03", cwd=workshop)  # while writing it is a warning
    assert writing.returncode == 0 and "warning[freshness.due]: source r205" in writing.stdout


def test_a_release_judged_on_its_day_lists_what_is_due_by_another_as_warnings(workshop):
    """Issue 34: CI judges the release on its pinned day and shows what is past due today, in one
    check (it ran a second, whole check for today's warnings): `--warn-due-by` adds them as warnings
    and never changes the verdict."""
    both = run_cli("check", "--release", "--as-of", "2027-05-02", "--warn-due-by", "2027-05-03", cwd=workshop)
    assert both.returncode == 0, both.stdout + both.stderr
    assert (
        "pass  evidence freshness: 0 claims, 3 sources, 6 pages dated; 0 past due as of 2027-05-02"
        in both.stdout
    )
    assert "warn  evidence due by 2027-05-03: 1 past due as of 2027-05-03 (warnings only)" in both.stdout
    assert (
        "sources/references.yaml:7:3: warning[freshness.due]: source r205 was last verified on 2026-11-02"
    ) in both.stdout


def test_a_book_that_dates_nothing_is_not_said_to_have_nothing_due(mini):
    """`--warn-due-by` on a book without review_months: the report says it did not run."""
    result = run_cli("check", "--warn-due-by", "2027-05-03", cwd=mini)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "not run: evidence due by 2027-05-03: book.yaml sets no review_months" in result.stdout


def test_without_a_date_nothing_is_judged_and_the_check_says_so(workshop):
    plain = run_cli("check", cwd=workshop)
    assert plain.returncode == 0
    assert "not run: evidence freshness: no --as-of DATE (a build never reads the clock)" in plain.stdout
    release = run_cli("check", "--release", cwd=workshop)  # a release is judged on today's date
    assert f"past due as of {dt.date.today()}" in release.stdout


def test_the_dashboard_lists_what_is_due_and_a_build_without_a_date_judges_nothing(workshop, tmp_path):
    assert run_cli("build", "--no-search", "--as-of", "2027-05-03", cwd=workshop).returncode == 0
    dashboard = (workshop / "_site/dashboard.html").read_text(encoding="utf-8")
    assert "As of 2027-05-03: 1 past due." in dashboard
    assert (
        "<td>source (rolling)</td><td>r205</td><td>2026-11-02</td><td>6 months</td><td>PAST DUE since 2027-05-02</td>"
        in dashboard
    )
    assert run_cli("build", "--no-search", "--out", str(tmp_path / "undated"), cwd=workshop).returncode == 0
    undated = (tmp_path / "undated/dashboard.html").read_text(encoding="utf-8")
    assert "No <code>--as-of</code> date was given" in undated and "PAST DUE" not in undated
    rows = undated[undated.index('<h2 id="review">') :]
    assert rows.index("<td>r205</td>") < rows.index("<td>r101</td>")  # soonest review first


def test_the_reader_sees_when_each_claim_and_entry_was_verified(mini):
    assert run_cli("build", "--no-search", cwd=mini).returncode == 0
    en = (mini / "_site/en/ch14.html").read_text(encoding="utf-8")
    zh = (mini / "_site/zh/ch14.html").read_text(encoding="utf-8")
    assert (
        '<span class="claim-verified"> · verified <time datetime="2026-07-29">2026-07-29</time></span></span>'
        in en
    )
    assert (
        '<span class="claim-verified"> · 核验于 <time datetime="2026-07-29">2026-07-29</time></span></span>'
        in zh
    )
    bibliography = (mini / "_site/en/bibliography.html").read_text(encoding="utf-8")
    assert bibliography.count('<li class="bib-entry"') == bibliography.count('<p class="bib-verified">') == 3
    assert (
        '<p class="bib-verified">Last verified: <time datetime="2026-10-02">2026-10-02</time></p>'
        in bibliography
    )
    cards = (mini / "_site/assets/previews-en.js").read_text(encoding="utf-8")
    assert '"verified":"verified 2026-07-29"' in cards


def test_a_claim_cannot_be_verified_after_its_source_was_read(mini):
    edit(mini / "ledger/claims.md", "verified: 2026-07-29", "verified: 2026-08-01")
    result = run_cli("check", cwd=mini)
    assert result.returncode == 2
    assert (
        "ledger/claims.md:3:5: error[claim.verified-after-source]: claim 'distserve-goodput' is dated verified 2026-08-01, "
        "but its sources (n27) were last read on 2026-07-29"
    ) in result.stderr


def test_every_record_and_published_page_is_dated(workshop, mini):
    edit(workshop / "content/de/ws-setup/index.md", "last_verified: 2026-11-02\n", "")
    page = run_cli("check", cwd=workshop)
    assert (
        "content/de/ws-setup/index.md:5:1: error[page.unverified]: published page 'ws-setup' (de) has no last_verified date"
        in page.stderr
    )
    edit(mini / "ledger/claims.md", "    verified: 2026-07-29\n", "")
    claim = run_cli("check", cwd=mini)
    assert "error[schema.missing-key]: Claim needs 'verified'" in claim.stderr
    edit(mini / "sources/nodes.yaml", "  verified: 2026-07-29\n", "")
    node = run_cli("check", cwd=mini)
    assert "sources/nodes.yaml:1:3: error[schema.missing-key]: NodeEntry needs 'verified'" in node.stderr
    edit(
        mini / "sources/references.yaml",
        "  evidence: article\n",
        "  evidence: article\n  rolling: sometimes\n",
    )
    rolling = run_cli("check", cwd=mini)
    assert "error[schema.invalid]: rolling: Input should be a valid boolean" in rolling.stderr


def test_a_profile_edit_is_not_up_to_date(workshop):
    """The review intervals (book.yaml) change the dashboard: the no-change fast path must see them."""
    assert run_cli("build", "--no-search", "--as-of", "2027-05-03", cwd=workshop).returncode == 0
    edit(workshop / "book.yaml", "rolling: 6,", "rolling: 7,")
    again = run_cli("build", "--no-search", "--as-of", "2027-05-03", cwd=workshop)
    assert "is up to date" not in again.stdout
    assert "As of 2027-05-03: 0 past due." in (workshop / "_site/dashboard.html").read_text(encoding="utf-8")


def test_a_release_is_judged_on_the_editions_day_not_the_calendars(mini):
    """With book.yaml's `edition: {number, date}`, `check --release` judges freshness on that day
    (CI gives the same verdict next month); `--as-of` still names any other day."""
    profile = mini / "book.yaml"
    profile.write_text(
        profile.read_text(encoding="utf-8")
        + "\nreview_months: {claims: 1, sources: 1, rolling: 1, pages: 1}\n"
        "edition: {number: 1, date: 2026-08-01}\n",
        encoding="utf-8",
    )
    release = run_cli("check", "--release", cwd=mini)
    assert "evidence freshness:" in release.stdout
    assert (
        "past due as of 2026-08-01" in release.stdout and "0 past due as of 2026-08-01" in release.stdout
    ), release.stdout
    later = run_cli("check", "--release", "--as-of", "2026-12-05", cwd=mini)
    assert (
        "0 past due as of 2026-12-05" not in later.stdout and "past due as of 2026-12-05" in later.stdout
    ), later.stdout


def test_an_edition_needs_a_number_and_a_day(mini):
    profile = mini / "book.yaml"
    profile.write_text(
        profile.read_text(encoding="utf-8") + "\nedition: {number: 0, date: someday}\n", encoding="utf-8"
    )
    result = run_cli("check", cwd=mini)
    assert result.returncode == 2
    assert "edition.number: Input should be greater than or equal to 1" in result.stderr
    assert "edition.date: " in result.stderr
