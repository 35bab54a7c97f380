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
    assert rendered(cache) == 2, (
        cache.summary()
    )  # the en page, and the zh page whose section now says en changed
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
    site = lambda: {
        p.relative_to(mini / "_site"): p.read_bytes() for p in (mini / "_site").rglob("*") if p.is_file()
    }
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
    warm_files = {
        p.relative_to(mini / "_site"): p.read_bytes() for p in (mini / "_site").rglob("*") if p.is_file()
    }
    cold_files = {
        p.relative_to(tmp_path / "cold"): p.read_bytes()
        for p in (tmp_path / "cold").rglob("*")
        if p.is_file()
    }
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
        LocatedData(
            {"when": datetime.date(2026, 1, 2), "at": datetime.datetime(2026, 1, 2, 3, 4)},
            {("k",): SourceLocation("c", 1, 1)},
            SourceLocation("c"),
        ),
        float("inf"),
        -0.5,
        None,
        True,
        "text",
        (),
    )
    import json

    assert decode(json.dumps(encode(value))) == value


def test_the_cache_format_refuses_what_it_does_not_know():
    import json

    import pytest as _pytest

    from atlas_site.cache import decode

    for text in (
        '{"$": "object", "t": "os:system", "v": ["true"]}',
        '{"$": "object", "t": "atlas_site.cli:main", "v": []}',
        '{"$": "pickle", "v": "x"}',
        '{"$": "float", "v": "1e3"}',
        '{"$": "dict", "v": [[[1], 2]]}',
    ):
        with _pytest.raises((ValueError, TypeError, KeyError)):
            decode(text)
    assert decode(json.dumps({"a": [1, 2]})) == {"a": [1, 2]}


# ------------------------------------------------------------------ every kind of contributor edit
# Each edit as (what, file, old text, new text), applied one after another to one fixture book;
# after each, the output must change and every incremental path must equal a cold build.
EVERY_KIND_OF_EDIT = [
    ("prose en", "content/en/ch14/00-intro.md", "counts from arrival.", "counts from the moment of arrival."),
    ("prose zh", "content/zh/ch14/00-intro.md", "从请求到达算起", "从请求到达的那一刻算起"),
    (
        "claim",
        "ledger/claims.md",
        'en: "up to 7.4× per-GPU goodput"',
        'en: "up to 7.4× more per-GPU goodput"',
    ),
    (
        "glossary",
        "ledger/glossary.md",
        "The rate of requests completed within their SLO.",
        "The rate of requests that finish within their SLO.",
    ),
    ("source", "sources/works.bib", "title = {FlashAttention: Fast", "title = {FlashAttention — Fast"),
    ("figure", "ledger/figures.md", "any layer can be the bottleneck", "any one layer can be the bottleneck"),
    (
        "misconception",
        "ledger/misconceptions.md",
        'en: "PagedAttention has zero fragmentation."',
        'en: "PagedAttention has zero fragmentation, ever."',
    ),
    ("stylesheet", "templates/static/site.css", "\n", "\n.prose p { hyphens: auto; }\n"),
    ("template", "templates/page.html.j2", "</main>", "</main><!-- the page ends here -->"),
    (
        "lab script",
        "labs_js/memory/model.js",
        "num(args, 'kv_bits') / 8;",
        "num(args, 'kv_bits') / 4;",
        ("ledger/examples.md", "expect: {kib_per_token: 128}", "expect: {kib_per_token: 256}"),
    ),
    ("book.yaml", "book.yaml", 'en: "Mini book"', 'en: "Mini book, revised"'),
]


def with_a_figure(project):
    """The mini book plus one figure of the real book (its spec and template), placed in both
    languages: mini has none of its own."""
    import yaml

    from conftest import ROOT

    text = (ROOT / "ledger/figures.md").read_text(encoding="utf-8")
    figures = yaml.safe_load(text.split("---\n")[1])["figures"]
    spec = next(figure for figure in figures if figure["id"] == "serving-stack")
    front = yaml.safe_dump({"figures": [spec]}, allow_unicode=True, sort_keys=False)
    (project / "ledger/figures.md").write_text(
        f"---\n{front}---\nOne figure of the real book.\n", encoding="utf-8"
    )
    edit(
        project / "content/en/ch14/00-intro.md",
        "## Service metrics {#q1}\n",
        "## Service metrics {#q1}\n\n{{figure:serving-stack}}\n",
    )
    edit(project / "content/zh/ch14/00-intro.md", "{#q1}\n", "{#q1}\n\n{{figure:serving-stack}}\n")
    return project


def site_files(folder) -> dict:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_every_kind_of_edit_builds_incrementally_to_the_bytes_of_a_cold_build(mini, tmp_path):
    """Serve (its hot path, then the full build on its in-memory cache) and a cached command-line
    build (on-disk cache) each give, after every kind of edit, the files of a `--no-cache` build."""
    from atlas_site.serve import LiveState, _Served, hot_push, rebuild

    project = with_a_figure(mini)
    served_site, served, state = tmp_path / "served", _Served(), LiveState()
    serve_cache = BuildCache(tmp_path / "serve-cache")
    assert rebuild(project, served_site, state, search=False, cache=serve_cache, served=served)
    cached = run_cli("build", "--no-search", "--out", str(tmp_path / "cached"), cwd=project)
    assert cached.returncode == 0, cached.stderr
    previous = site_files(served_site)
    assert all(b'id="fig-serving-stack"' in previous[f"{lang}/ch14.html"] for lang in ("en", "zh")), "placed"
    hot_paths = []
    for what, path, old, new, *more in EVERY_KIND_OF_EDIT:
        edited = [project / path]
        edit(project / path, old, new)
        for other, other_old, other_new in more:
            edit(project / other, other_old, other_new)
            edited.append(project / other)
        cold = run_cli("build", "--no-search", "--no-cache", "--out", str(tmp_path / "cold"), cwd=project)
        assert cold.returncode == 0, f"{what}: {cold.stderr}"
        expected = site_files(tmp_path / "cold")
        assert expected != previous, f"{what}: the edit changes the site"
        shown = dict(served.output.items())
        if hot_push(state, served, edited):
            hot_paths.append(what)
            spliced = {page: html for page, html in served.output.items() if shown.get(page) != html}
            assert spliced, f"{what}: the hot path changed no page"
            for page, html in spliced.items():
                assert html == expected[page], f"{what}: the hot path's {page} differs from a cold build"
        assert rebuild(project, served_site, state, search=False, cache=serve_cache, served=served), what
        assert site_files(served_site) == expected, f"{what}: serve's build differs from a cold build"
        cached = run_cli("build", "--no-search", "--out", str(tmp_path / "cached"), cwd=project)
        assert cached.returncode == 0 and "built" in cached.stdout, f"{what}: {cached.stdout}{cached.stderr}"
        assert site_files(tmp_path / "cached") == expected, (
            f"{what}: the cached build differs from a cold build"
        )
        previous = expected
    assert hot_paths == ["prose en", "prose zh"], "prose edits take serve's hot path; the rest its full build"


def test_a_template_edit_parses_nothing_and_asks_node_nothing_again(mini):
    """The parse and the labs' answers are versioned by what those stages declare as code
    (pipeline.py), not by the templates: only the render runs again."""
    cache = primed(mini)
    edit(mini / "templates/page.html.j2", "</main>", "</main><!-- the page ends here -->")
    warm = assemble(mini, cache=cache)
    assert cache.stats["part-tokens miss"] == 0 and cache.stats["examples miss"] == 0, cache.summary()
    assert rendered(cache) == 2, cache.summary()  # both languages' chapter, each with the new template
    assert warm.output.items() == assemble(mini).output.items()
