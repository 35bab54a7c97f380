"""Editions: `atlas-site edition freeze` keeps an edition's evidence in ledger/editions/<n>/ once;
the next edition's "what changed" pages, its Atom feed and the numbers page say what changed."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from atlas_site.editions import Snapshot, compare
from conftest import make_project, run_cli

ATOM = "{http://www.w3.org/2005/Atom}"


def _edition(root, number: int, day: str) -> None:
    profile = root / "book.yaml"
    text = profile.read_text(encoding="utf-8").split("\nedition:")[0].rstrip("\n") + "\n"
    text = (
        text.replace("  - generated: bibliography\n", "  - generated: bibliography\n  - generated: numbers\n")
        if "generated: numbers" not in text
        else text
    )
    profile.write_text(text + f"edition: {{number: {number}, date: {day}}}\n", encoding="utf-8")


def test_a_second_edition_says_what_changed_since_the_first(tmp_path):
    root = make_project(tmp_path)
    _edition(root, 1, "2026-11-01")
    frozen = run_cli("edition", "freeze", cwd=root)
    assert frozen.returncode == 0, frozen.stdout + frozen.stderr
    assert sorted(p.name for p in (root / "ledger/editions/1").iterdir()) == [
        "claims.json",
        "edition.json",
        "sections.json",
        "sources.json",
    ]
    again = run_cli("edition", "freeze", cwd=root)
    assert again.returncode == 2 and "edition.exists" in again.stderr  # never rewritten

    claims = root / "ledger" / "claims.md"
    claims.write_text(
        claims.read_text(encoding="utf-8")
        .replace("value: 7.4", "value: 7.5")
        .replace("最高 7.4×", "最高 7.5×")
        .replace("up to 7.4×", "up to 7.5×"),
        encoding="utf-8",
    )
    page = root / "content" / "en" / "ch14" / "00-intro.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace(
            "counts from arrival.", "counts from arrival, as it was written."
        ),
        encoding="utf-8",
    )
    _edition(root, 2, "2026-12-01")
    built = run_cli("build", "--no-search", cwd=root)
    assert built.returncode == 0, built.stderr
    site = root / "_site"
    changes = (site / "en" / "changes.html").read_text(encoding="utf-8")
    assert "Against edition 1 (2026-11-01):" in changes
    assert (
        'href="numbers.html#claim-distserve-goodput">up to 7.5× per-GPU goodput</a> ← up to 7.4× per-GPU goodput'
        in changes
    )
    assert "<li>ch14#q1</li>" in changes  # the English section that was rewritten
    assert "changed in edition 2: was up to 7.4× per-GPU goodput" in (site / "en" / "numbers.html").read_text(
        encoding="utf-8"
    )
    feed = ET.parse(site / "changes.atom").getroot()
    assert (
        feed.tag == f"{ATOM}feed"
        and feed.find(f"{ATOM}id") is not None
        and feed.find(f"{ATOM}updated").text == "2026-12-01T00:00:00Z"
    )
    entries = feed.findall(f"{ATOM}entry")
    assert [e.find(f"{ATOM}title").text.rsplit(" ", 1)[-1] for e in entries] == ["2", "1"]
    assert "1 changed" in entries[0].find(f"{ATOM}summary").text
    rebuilt = run_cli("build", "--no-search", "--no-cache", "--out", str(tmp_path / "again"), cwd=root)
    assert rebuilt.returncode == 0
    for name in ("changes.atom", "en/changes.html", "zh/changes.html"):
        assert (site / name).read_bytes() == (tmp_path / "again" / name).read_bytes()


def test_compare_names_added_changed_and_retired_claims_and_sources():
    old = {
        "a": {"id": "a", "value": 1, "unit": "×", "setting": {}, "sources": [{"bibtex": "w"}]},
        "gone": {"id": "gone", "value": 2, "unit": "×", "setting": {}, "sources": []},
    }
    new = {
        "a": {"id": "a", "value": 3, "unit": "×", "setting": {}, "sources": [{"bibtex": "w"}]},
        "b": {"id": "b", "value": 4, "unit": "×", "setting": {}, "sources": []},
    }
    before = Snapshot(1, "2026-01-01", old, {"w": {"verified": "2026-01-01"}}, {"en": {"p#s": "x"}})
    changes = compare(
        before, new, {"w": {"verified": "2026-02-01"}, "v": {"title": "V"}}, {"en": {"p#s": "y"}}
    )
    assert [r["id"] for r in changes.added] == ["b"] and [r["id"] for r in changes.retired] == ["gone"]
    assert [(o["value"], n["value"], what) for o, n, what in changes.changed] == [(1, 3, ["value"])]
    assert changes.sources_added == [("v", {"title": "V"})] and changes.sources_verified == [
        ("w", "2026-01-01", "2026-02-01")
    ]
    assert changes.sections == {"en": ["p#s"]}
