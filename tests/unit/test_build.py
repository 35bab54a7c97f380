"""Whole builds of the small fixture: golden output, determinism, atomic replacement."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from conftest import PROJECTS, edit, run_cli

GOLDEN = PROJECTS / "mini" / "expected"
UPDATE = os.environ.get("ATLAS_UPDATE_GOLDEN") == "1"


def tree_digest(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def article(html: str) -> str:
    match = re.search(r'<article class="prose"[^>]*>.*?</article>', html, re.S)
    assert match, "page has no article"
    return match.group(0) + "\n"


def test_golden_fixture_chapter_in_both_languages(mini):
    result = run_cli("build", cwd=mini)
    assert result.returncode == 0, result.stderr
    for lang in ("zh", "en"):
        produced = article((mini / "_site" / lang / "ch14.html").read_text(encoding="utf-8"))
        golden = GOLDEN / f"{lang}-ch14.article.html"
        if UPDATE:
            golden.parent.mkdir(exist_ok=True)
            golden.write_text(produced, encoding="utf-8")
        assert produced == golden.read_text(encoding="utf-8"), (
            f"{lang} differs from {golden} (ATLAS_UPDATE_GOLDEN=1 to accept)"
        )


def test_build_is_byte_identical_whatever_the_hash_seed(mini, tmp_path):
    first = run_cli("build", "--out", str(tmp_path / "a"), cwd=mini, env={"PYTHONHASHSEED": "1"})
    second = run_cli("build", "--out", str(tmp_path / "b"), cwd=mini, env={"PYTHONHASHSEED": "4242"})
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert tree_digest(tmp_path / "a") == tree_digest(tmp_path / "b")


def test_failed_build_leaves_previous_site_untouched(mini):
    assert run_cli("build", cwd=mini).returncode == 0
    before = tree_digest(mini / "_site")
    edit(mini / "content/zh/ch14/00-intro.md", "[@n04]", "[@n99]")
    failed = run_cli("build", cwd=mini)
    assert failed.returncode == 2
    assert "left as it was" in failed.stderr
    assert tree_digest(mini / "_site") == before
    assert not [p for p in mini.iterdir() if p.name.startswith("._site")], (
        "staging folders must be cleaned up"
    )


def test_build_summary_counts_stages(mini):
    result = run_cli("build", cwd=mini)
    assert result.returncode == 0
    assert re.search(r"\d+ pages, 3 sources \(2 nodes, 2 references\), 1 claims, 1 examples", result.stdout)
    for stage in ("load", "validate", "resolve", "render", "gates", "write"):
        assert f"{stage} " in result.stdout


def test_lab_scripts_load_define_first_then_each_model_before_its_ui():
    """Every labs_js model and shared/format.js call AtlasLabs.define as they load (classic scripts)."""
    from atlas_site.render.assets import every_lab, lab_scripts
    from conftest import ROOT

    scripts = lab_scripts(ROOT, every_lab(ROOT))
    assert scripts[0] == "shared/define.js"
    shared = [s for s in scripts if s.startswith("shared/")]
    assert scripts[: len(shared)] == shared and "shared/format.js" in shared
    for lab in ("memory", "batch", "speculative", "fleet", "cost"):
        assert scripts.index(f"{lab}/model.js") < scripts.index(f"{lab}/ui.js")
    assert not any(s.startswith("tests/") for s in scripts)
    # a formula module ships only as what a lab model uses, loaded before that model
    assert [s for s in scripts if s.startswith("formulas/")] == ["formulas/bottleneck.js"]
    assert scripts.index("formulas/bottleneck.js") < scripts.index("cost/model.js")
