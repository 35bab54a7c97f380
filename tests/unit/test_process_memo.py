"""What one process computes once for every project it builds: compiled templates (template_memo)
and the answers Node gives without a cache (cache.SPAWNED_KINDS). Each is keyed by everything it
depends on, so a copy that differs is computed afresh, and a build is the same bytes either way."""

from __future__ import annotations

import jinja2
import pytest

from atlas_site import cache as cache_module
from atlas_site import template_memo
from atlas_site.build import assemble
from atlas_site.cache import NoCache
from atlas_site.template_memo import MemoEnvironment
from conftest import make_project


def _environment(folder, **options) -> MemoEnvironment:
    return MemoEnvironment(
        loader=jinja2.FileSystemLoader(str(folder)), undefined=jinja2.StrictUndefined, **options
    )


def _frames(traceback):
    while traceback is not None:
        yield traceback
        traceback = traceback.tb_next


@pytest.fixture
def fresh_memos(monkeypatch):
    monkeypatch.setattr(template_memo, "_CODE", type(template_memo._CODE)())
    monkeypatch.setattr(cache_module, "_SPAWNED", {})


@pytest.fixture
def generated(fresh_memos, monkeypatch) -> list[str]:
    """The name of every template Jinja generates code for (what the memo did not have)."""
    names = []
    generate = jinja2.Environment._generate
    monkeypatch.setattr(
        jinja2.Environment, "_generate", lambda self, *a, **k: names.append(a[1]) or generate(self, *a, **k)
    )
    return names


def test_a_template_is_compiled_once_and_its_errors_name_their_own_file(tmp_path, generated):
    for copy in ("a", "b"):
        (tmp_path / copy).mkdir()
        (tmp_path / copy / "page.j2").write_text(
            "{% for x in items %}{{ x.name }} {% endfor %}", encoding="utf-8"
        )
    first, second = _environment(tmp_path / "a"), _environment(tmp_path / "b")
    assert first.get_template("page.j2").render(items=[{"name": "one"}]) == "one "
    assert second.get_template("page.j2").render(items=[{"name": "two"}]) == "two "
    assert generated == ["page.j2"], "the second copy's template came from the memo"
    with pytest.raises(jinja2.UndefinedError) as raised:
        second.get_template("page.j2").render(items=[{}])
    frames = [tb.tb_frame.f_code.co_filename for tb in _frames(raised.value.__traceback__)]
    assert str(tmp_path / "b" / "page.j2") in frames and str(tmp_path / "a" / "page.j2") not in frames


def test_what_changes_the_generated_code_compiles_again(tmp_path, generated):
    """Another source, other whitespace rules, or a filter called another way is another entry."""
    (tmp_path / "page.j2").write_text("  {% if x %}{{ x|shout }}{% endif %}\n", encoding="utf-8")

    shout = lambda value: value.upper()  # one function for both, so their filters agree
    plain = _environment(tmp_path)
    plain.filters["shout"] = shout
    same = _environment(tmp_path)
    same.filters["shout"] = shout
    assert (
        plain.get_template("page.j2").render(x="hi") == same.get_template("page.j2").render(x="hi") == "  HI"
    )
    assert len(generated) == 1
    trimmed = _environment(tmp_path, lstrip_blocks=True)
    trimmed.filters["shout"] = shout
    assert trimmed.get_template("page.j2").render(x="hi") == "HI"
    context_filter = _environment(tmp_path)
    context_filter.filters["shout"] = jinja2.pass_context(lambda context, value: value.upper() + "!")
    assert context_filter.get_template("page.j2").render(x="hi") == "  HI!"
    assert len(generated) == 3
    (tmp_path / "page.j2").write_text("{{ x }}", encoding="utf-8")
    assert _environment(tmp_path).get_template("page.j2").render(x="new") == "new"
    assert len(generated) == 4


def test_node_answers_are_computed_once_per_process_and_give_the_same_bytes(tmp_path, fresh_memos):
    first, second = make_project(tmp_path / "one", "mini"), make_project(tmp_path / "two", "mini")
    cold = NoCache()
    one = assemble(first, cache=cold)
    assert cold.stats["examples miss"] == 1 and cold.stats["script-syntax miss"] == 1, cold.summary()
    again = NoCache()
    two = assemble(second, cache=again)
    assert again.stats["examples hit"] == 1 and again.stats["script-syntax hit"] == 1, again.summary()
    assert one.output.items() == two.output.items()
    cache_module._SPAWNED.clear()
    assert assemble(second, cache=NoCache()).output.items() == two.output.items(), "as computed by Node"


def test_a_copy_whose_lab_code_differs_asks_node_again(tmp_path, fresh_memos):
    first, second = make_project(tmp_path / "one", "mini"), make_project(tmp_path / "two", "mini")
    assemble(first, cache=NoCache())
    shipped = second / "labs_js/shared/format.js"  # lab code the pages ship and the examples run
    shipped.write_text(
        shipped.read_text(encoding="utf-8") + "// other bytes, another key\n", encoding="utf-8"
    )
    changed = NoCache()
    assemble(second, cache=changed)
    assert changed.stats["examples miss"] == 1 and changed.stats["script-syntax miss"] == 1, changed.summary()
