"""Every diagnostic code the tool can emit is explained by `check --explain`."""
from __future__ import annotations

import re

from atlas_site.explain import RULES, explain
from conftest import ROOT, run_cli

CODE = re.compile(r'"((?:gate|yaml|bib|source|schema|ledger|page|heading|cite|lead|claim|example|term|figure|directive|block|wave|frontmatter|file|output|cache|serve|browser|search)\.[a-z0-9.-]+)"')


def emitted_codes() -> set[str]:
    codes = set()
    for path in (ROOT / "src" / "atlas_site").rglob("*.py"):
        if path.name != "explain.py":
            codes |= {c for c in CODE.findall(path.read_text(encoding="utf-8")) if not c.endswith((".j2", ".html", ".js"))}
    return codes


def test_every_emitted_code_is_explained():
    missing = sorted(emitted_codes() - set(RULES))
    assert missing == []


def test_explain_prints_rule_and_fix(tmp_path):
    result = run_cli("check", "--explain", "gate.claims.bare-multiplier", cwd=tmp_path)
    assert result.returncode == 0
    assert "rule: No multiplier" in result.stdout and "fix:" in result.stdout


def test_explain_suggests_a_close_code():
    assert "did you mean 'cite.unknown'?" in explain("cite.unknwn")
