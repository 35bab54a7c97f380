"""Every diagnostic code the tool can emit is explained by `check --explain`, and an unknown code
is an error. Codes are found in the source by where they are used (the code argument of a
Diagnostic, of Collector.error, of the links gate's report), not by a list of known prefixes;
tests/conftest.py also makes every Diagnostic refuse an unexplained code while the suite runs."""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

from atlas_site.diagnostics import Diagnostic, SourceLocation
from atlas_site.explain import codes, explain
from atlas_site.rules import RULE_KINDS
from conftest import ROOT, run_cli

# callee name -> index of the positional argument that is the code
CODE_ARGUMENT = {"Diagnostic": 1, "error": 1, "report": 0, "problem": 3, "require": 5, "_problem": 1}


def emitted_codes() -> set[str]:
    found = set()
    for path in sorted((ROOT / "src" / "atlas_site").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "code" for t in node.targets
            ):
                # code = "a" if … else "b", then Diagnostic(where, code, …)
                found |= {
                    n.value
                    for n in ast.walk(node.value)
                    if isinstance(n, ast.Constant) and isinstance(n.value, str)
                }
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            index = CODE_ARGUMENT.get(name)
            args = [a for a in node.args]
            candidates = [args[index]] if index is not None and len(args) > index else []
            candidates += [k.value for k in node.keywords if k.arg == "code"]
            while candidates:  # a code chosen by a condition: both of its branches
                arg = candidates.pop()
                if isinstance(arg, ast.IfExp):
                    candidates += [arg.body, arg.orelse]
                elif isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value)
    return found


def test_the_scan_finds_the_codes_it_should():
    found = emitted_codes()
    assert {
        "yaml.syntax",
        "cite.unknown",
        "gate.links.anchor",
        "profile.missing-page",
        "directive.misplaced",
        "block.unclosed",
        "i18n.missing-language",
    } <= found
    assert len(found) > 60


def test_every_emitted_code_is_explained():
    table = codes()
    assert sorted(emitted_codes() - set(table)) == []
    assert all(f"rule.{name}" in table for name in RULE_KINDS)


def test_every_explained_code_is_emitted_somewhere():
    """No explanation for a code that nothing emits (it would document a rule that is gone)."""
    rule_codes = {f"rule.{name}" for name in RULE_KINDS}
    assert sorted(set(codes()) - emitted_codes() - rule_codes) == []


def test_explain_prints_rule_and_fix(tmp_path):
    result = run_cli("check", "--explain", "gate.claims.bare-multiplier", cwd=tmp_path)
    assert result.returncode == 0
    assert "rule: No multiplier" in result.stdout and "fix:" in result.stdout


def test_explain_covers_rule_kinds(tmp_path):
    result = run_cli("check", "--explain", "rule.cites_all", cwd=tmp_path)
    assert result.returncode == 0 and "book.yaml rule `cites_all`" in result.stdout


def test_unknown_code_is_an_error_with_a_suggestion(tmp_path):
    result = run_cli("check", "--explain", "cite.unknwn", cwd=tmp_path)
    assert result.returncode == 2
    assert "did you mean 'cite.unknown'?" in result.stderr
    assert explain("cite.unknwn")[1] is False


def test_the_strict_mode_refuses_an_unexplained_code_in_this_process_and_in_a_new_one(mini):
    """diagnostics.py checks codes against the table explain.py hands down (it may not import it):
    the suite hands it down here (conftest), the command line in a process of its own."""
    with pytest.raises(ValueError, match="no `check --explain` entry"):
        Diagnostic(SourceLocation("x.md"), "no.such-code", "a message")
    Diagnostic(SourceLocation("x.md"), "cite.unknown", "a message")  # an explained code is fine
    script = (
        "from atlas_site.cli import main; main(['--root', '.', 'sync', '--status']);"
        "from atlas_site.diagnostics import Diagnostic, SourceLocation;"
        "Diagnostic(SourceLocation('x.md'), 'no.such-code', 'a message')"
    )
    child = subprocess.run(
        [sys.executable, "-c", script],
        cwd=mini,
        capture_output=True,
        text=True,
        env={**os.environ, "ATLAS_STRICT_CODES": "1"},
    )
    assert child.returncode != 0 and "no `check --explain` entry" in child.stderr, child.stderr[-500:]
