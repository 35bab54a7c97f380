"""Incremental builds: content hashes decide what is redone, and the result is byte-identical to a
cold build of the same inputs."""
from __future__ import annotations

from atlas_site.build import assemble
from atlas_site.cache import BuildCache
from conftest import edit, run_cli


def rendered(cache: BuildCache) -> int:
    return cache.stats["page-html miss"]


def primed(project) -> BuildCache:
    """A cache after one full build, with its counters reset for the next one."""
    cache = BuildCache()
    assemble(project, cache=cache)
    cache.stats.clear()
    return cache


def test_paragraph_edit_rerenders_that_page_and_its_twin_and_matches_a_cold_build(mini):
    cache = primed(mini)
    edit(mini / "content/en/ch14/00-intro.md", "counts from arrival.", "counts from the moment of arrival.")
    warm = assemble(mini, cache=cache)
    assert rendered(cache) == 2, cache.summary()  # the en page, and the zh page whose section now says en changed
    assert cache.stats["bibliography hit"] == 2 and cache.stats["bibliography miss"] == 0, cache.summary()
    cold = assemble(mini)
    assert warm.output.items() == cold.output.items()


def test_the_lock_is_an_input_of_the_page_cache(mini):
    """Declaring the section in step (a lock edit only) removes the notice from the warm build too."""
    edit(mini / "content/en/ch14/00-intro.md", "counts from arrival.", "counts from the moment of arrival.")
    cache = primed(mini)
    assert run_cli("sync", "ch14#q1", "--date", "2026-12-02", cwd=mini).returncode == 0
    warm = assemble(mini, cache=cache)
    assert rendered(cache) == 1, cache.summary()  # the zh page loses its notice; the en page is unchanged
    assert "translation-notice" not in warm.output.text("zh/ch14.html")
    assert warm.output.items() == assemble(mini).output.items()


def test_whitespace_only_edit_marks_nothing(mini):
    cache = primed(mini)
    edit(mini / "content/en/ch14/00-intro.md", "counts from arrival.", "counts   from\narrival.")
    warm = assemble(mini, cache=cache)
    assert warm.translations.counts() == {"in step": 6}
    assert rendered(cache) == 1, cache.summary()


def test_source_edit_rerenders_the_pages_that_cite_it(mini):
    cache = primed(mini)
    edit(mini / "sources/works.bib", "title = {FlashAttention: Fast", "title = {FlashAttention — Fast")
    warm = assemble(mini, cache=cache)
    assert rendered(cache) == 2, cache.summary()  # the zh and en pages cite n04
    assert cache.stats["bibliography miss"] == 2
    assert warm.output.items() == assemble(mini).output.items()


def test_no_change_rebuild_is_a_no_op_and_identical(mini, tmp_path):
    first = run_cli("build", "--no-search", cwd=mini)
    assert first.returncode == 0, first.stderr
    site = lambda: {p.relative_to(mini / "_site"): p.read_bytes() for p in (mini / "_site").rglob("*") if p.is_file()}
    before = site()
    assert "zh/ch14.html" in {p.as_posix() for p in before}, "the first build wrote the site"
    again = run_cli("build", "--no-search", cwd=mini)
    assert again.returncode == 0 and "is up to date" in again.stdout, again.stdout + again.stderr
    assert site() == before, "a no-change rebuild leaves every file as it was"
    edit(mini / "content/zh/ch14/00-intro.md", "从请求到达算起", "从请求到达的那一刻算起")
    changed = run_cli("build", "--no-search", cwd=mini)
    assert changed.returncode == 0 and "built" in changed.stdout, changed.stderr
    assert "从请求到达的那一刻算起" in (mini / "_site/zh/ch14.html").read_text(encoding="utf-8")
    cold = run_cli("build", "--no-search", "--no-cache", "--out", str(tmp_path / "cold"), cwd=mini)
    assert cold.returncode == 0
    warm_files = {p.relative_to(mini / "_site"): p.read_bytes() for p in (mini / "_site").rglob("*") if p.is_file()}
    cold_files = {p.relative_to(tmp_path / "cold"): p.read_bytes() for p in (tmp_path / "cold").rglob("*") if p.is_file()}
    assert warm_files == cold_files


def test_a_warm_build_from_disk_reads_every_kind_back_and_matches_a_cold_build(mini, tmp_path):
    """Every kind of entry survives the JSON round trip: a second process (a fresh cache object on
    the same folder) recomputes nothing and renders the same bytes."""
    folder = tmp_path / "cache"
    cold_cache = BuildCache(folder)
    cold = assemble(mini, cache=cold_cache)
    assert sorted(folder.rglob("*.pkl")) == []
    stored = {path.parent.name for path in folder.rglob("*.json")}
    computed = {k.rsplit(" ", 1)[0] for k in cold_cache.stats}
    assert stored == computed, f"kinds kept in memory only: {sorted(computed - stored)}"
    warm_cache = BuildCache(folder)
    warm = assemble(mini, cache=warm_cache)
    kinds = {k.rsplit(" ", 1)[0] for k in warm_cache.stats}
    assert kinds and all(warm_cache.stats[f"{kind} miss"] == 0 for kind in kinds), warm_cache.summary()
    assert warm.output.items() == cold.output.items()
    assert [str(p) for p in warm.problems] == [str(p) for p in cold.problems]


def test_a_one_build_cache_holds_in_memory_only_what_the_build_asks_for_again(mini, tmp_path):
    """The command line's cache (`remember`): every other entry lives in the folder only, yet the
    build computes no more than one holding everything, and gives the same bytes, cold and warm."""
    from atlas_site.build import ASKED_AGAIN
    from atlas_site.resolve.pages import PART_TOKENS

    holding_all = BuildCache(tmp_path / "all")
    reference = assemble(mini, cache=holding_all)
    for round_ in ("cold", "warm"):
        cache = BuildCache(tmp_path / "one", remember=ASKED_AGAIN)
        result = assemble(mini, cache=cache)
        assert {kind for kind, _ in cache.memory} == {PART_TOKENS}, round_
        misses = lambda stats: {k: v for k, v in stats.items() if k.endswith(" miss") and v}
        assert misses(cache.stats) == (misses(holding_all.stats) if round_ == "cold" else {}), round_
        assert result.output.items() == reference.output.items(), round_


def test_a_cold_build_parses_each_part_once_and_gives_the_bytes_of_one_that_parses_again(mini):
    """NoCache(ASKED_AGAIN): every part's tokens computed once for the index, render and gates."""
    from atlas_site.build import ASKED_AGAIN
    from atlas_site.cache import NoCache
    from atlas_site.resolve.pages import PART_TOKENS

    once = NoCache(ASKED_AGAIN)
    result = assemble(mini, cache=once)
    parts = sum(len(page.parts) for page in result.book.pages)
    assert once.stats[f"{PART_TOKENS} miss"] == parts and once.stats[f"{PART_TOKENS} hit"] >= parts
    assert {kind for kind, _ in once.memory} == {PART_TOKENS}
    assert result.output.items() == assemble(mini, cache=NoCache()).output.items()


def test_the_cache_format_round_trips_the_types_a_build_stores():
    import datetime

    from atlas_site.cache import decode, encode
    from atlas_site.diagnostics import Diagnostic, SourceLocation
    from atlas_site.load.yaml_source import LocatedData

    value = (
        [Diagnostic(SourceLocation("a.md", 3, 4), "cite.unknown", "m", "h")],
        {("claims", 0): SourceLocation("b.md", 1, 1), "$odd": {1, 2}, 3: frozenset({"a"})},
        LocatedData({"when": datetime.date(2026, 1, 2), "at": datetime.datetime(2026, 1, 2, 3, 4)}, {("k",): SourceLocation("c", 1, 1)}, SourceLocation("c")),
        float("inf"), -0.5, None, True, "text", (),
    )
    import json
    assert decode(json.dumps(encode(value))) == value


def test_the_cache_format_refuses_what_it_does_not_know():
    import json

    import pytest as _pytest

    from atlas_site.cache import decode

    for text in ('{"$": "object", "t": "os:system", "v": ["true"]}', '{"$": "object", "t": "atlas_site.cli:main", "v": []}',
                 '{"$": "pickle", "v": "x"}', '{"$": "float", "v": "1e3"}', '{"$": "dict", "v": [[[1], 2]]}'):
        with _pytest.raises((ValueError, TypeError, KeyError)):
            decode(text)
    assert decode(json.dumps({"a": [1, 2]})) == {"a": [1, 2]}
