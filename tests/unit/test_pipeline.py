"""The stages are declared once (pipeline.py) and the declarations are true: a stage reads only
what it declares it needs (or what the caller set), and makes only what it declares it makes; a
run leaves nothing behind for the next one."""

from __future__ import annotations

import ast
from dataclasses import fields

import pytest
from test_layers import PACKAGE, import_graph

from atlas_site import pipeline
from atlas_site.build import assemble, build
from atlas_site.cache import BuildCache
from atlas_site.pipeline import OPTIONS, STAGES, Run
from atlas_site.serve import WATCHED
from atlas_site.uptodate import INPUTS as HASHED_INPUTS
from conftest import edit

SEQUENCER = {
    "timings",
    "versions",
}  # the sequencer's own: the clock, and each stage's cache version (cache_of)


class Watched(Run):
    """A Run that notes, per stage, which fields the stage read and which it set."""

    def __init__(self, **kwargs):
        object.__setattr__(self, "stage", None)
        object.__setattr__(self, "seen", {})
        super().__init__(**kwargs)

    def _note(self, how: str, name: str) -> None:
        stage = object.__getattribute__(self, "stage")
        if stage is not None and name in FIELDS:
            object.__getattribute__(self, "seen").setdefault(stage, {"read": set(), "set": set()})[how].add(
                name
            )

    def __getattribute__(self, name):
        if name in FIELDS:
            Watched._note(self, "read", name)
        return object.__getattribute__(self, name)

    def __setattr__(self, name, value):
        Watched._note(self, "set", name)
        object.__setattr__(self, name, value)


FIELDS = {f.name for f in fields(Run)}


@pytest.fixture
def watched(monkeypatch):
    """Each stage's step runs with Watched.stage naming it."""
    stages = []
    for stage in STAGES:

        def step(state, real=stage.step, name=stage.name):
            object.__setattr__(state, "stage", name)
            try:
                return real(state)
            finally:
                object.__setattr__(state, "stage", None)

        stages.append(pipeline.Stage(stage.name, stage.reads, stage.needs, stage.makes, step, stage.code))
    monkeypatch.setattr(pipeline, "STAGES", tuple(stages))
    return stages


def test_what_each_stage_needs_an_earlier_stage_makes_or_the_caller_sets():
    made = set(OPTIONS)
    for stage in STAGES:
        assert set(stage.needs) <= made, (
            f"{stage.name} needs {sorted(set(stage.needs) - made)} before anything makes it"
        )
        assert set(stage.needs) | set(stage.makes) <= FIELDS, stage.name
        made |= set(stage.makes)
        assert set(stage.code) <= set(stage.reads), f"{stage.name}: its code folders are among what it reads"


def test_every_stage_reads_and_makes_only_what_it_declares(mini, tmp_path, watched):
    state = Watched(root=mini, cache=BuildCache(), destination=tmp_path / "site", search=False)
    pipeline.run(state, tuple(stage.name for stage in STAGES if stage.name != "export"))
    seen = object.__getattribute__(state, "seen")
    assert set(seen) == {stage.name for stage in STAGES} - {"export"}, "every stage ran"
    for stage in STAGES:
        if stage.name not in seen:
            continue
        read, set_ = seen[stage.name]["read"] - SEQUENCER, seen[stage.name]["set"] - SEQUENCER
        allowed = set(stage.needs) | set(stage.makes) | set(OPTIONS)
        assert read <= allowed, f"{stage.name} reads {sorted(read - allowed)} it does not declare"
        assert set_ <= set(stage.makes), (
            f"{stage.name} makes {sorted(set_ - set(stage.makes))} it does not declare"
        )
    assert (tmp_path / "site/en/ch14.html").is_file()


def test_the_inputs_a_build_reads_are_the_stages_and_serve_and_the_no_change_check_use_them():
    assert WATCHED == pipeline.INPUTS
    assert set(HASHED_INPUTS) == set(pipeline.INPUTS), (
        "uptodate.py (which loads nothing heavy) hashes what the stages read"
    )


def test_a_stage_version_changes_with_its_own_code_only(mini):
    before = pipeline.versions(mini)
    (mini / "templates/page.html.j2").write_text(
        (mini / "templates/page.html.j2").read_text() + "\n", encoding="utf-8"
    )
    after = pipeline.versions(mini)
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {stage.name for stage in STAGES if "templates" in stage.code}
    assert "parse" not in changed and "resolve" not in changed, (
        "a template edit parses and computes nothing again"
    )


def test_each_build_has_its_own_environment_and_leaves_the_last_ones_as_they_were(mini):
    first = assemble(mini)
    editions = first.env.globals["editions"]
    second = build(mini, mini / "_site", search=False, export=("epub",))
    assert second.exported and second.env.globals["editions"], "the second build links the editions it made"
    assert first.env is not second.env and first.env.globals["editions"] == editions == ()


def test_export_renders_again_on_the_same_run_and_gates_once_per_render(mini):
    edit(mini / "content/en/ch14/00-intro.md", "counts from arrival.", "counts from the moment of arrival.")
    result = build(mini, mini / "_site", search=False, export=("epub",))
    gated = [p.code for report in result.gate_reports for p in report.problems]
    assert "translation.outdated" in gated, "the gates found something (a zh section behind its en twin)"
    assert list(result.timings)[:8] == [
        "load",
        "validate",
        "parse",
        "resolve",
        "render",
        "gates",
        "dashboard",
        "export",
    ]
    assert "relink" in result.timings and "write" in result.timings
    cold = assemble(mini)  # the editions are in the store now: a fresh run links them too
    assert [str(p) for p in result.problems] == [str(p) for p in cold.problems], (
        "the second pass's verdict, once"
    )
    assert result.output.items() == cold.output.items()


def test_the_gates_have_no_markdown_parser_of_their_own():
    """They read the parse stage's tokens (GateContext.tokens_of), the index and the manifest."""
    graph = import_graph()
    gates = [module for module in graph if module.startswith("atlas_site.gates")]
    assert gates
    for module in gates:
        assert not any(target.startswith("atlas_site.markdown") for target in graph[module]), module
    for path in (PACKAGE / "gates").glob("*.py"):
        imports = [
            node
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, (ast.Import, ast.ImportFrom))
        ]
        named = {alias.name for node in imports for alias in node.names} | {
            getattr(node, "module", None) for node in imports
        }
        assert "markdown_it" not in named and "make_parser" not in named, path.name
