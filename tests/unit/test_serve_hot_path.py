"""serve's hot path (render/quick_edit.py, serve.hot_push): an edit of a part's prose is spliced
into the shown page from the last build's state, and the full build that follows agrees with it;
whatever the splice cannot vouch for falls back to the full build."""

from __future__ import annotations

from pathlib import Path

import pytest

from atlas_site.build import build
from atlas_site.cache import BuildCache
from atlas_site.render.quick_edit import LastBuild, QuickEdit
from atlas_site.serve import LiveState, _Served, hot_push, rebuild
from conftest import edit

METRICS = "## Service metrics {#q1}"


def split_in_two_parts(project: Path) -> Path:
    """Both languages' ch14 as two part files, the second from the metrics section on: the hot path
    then renders a part that resumes the state the first one leaves."""
    for lang in ("en", "zh"):
        first = project / f"content/{lang}/ch14/00-intro.md"
        text = first.read_text(encoding="utf-8")
        heading = (
            METRICS if lang == "en" else next(line for line in text.split("\n") if line.endswith("{#q1}"))
        )
        head, _, rest = text.partition(heading)
        first.write_text(head, encoding="utf-8")
        (project / f"content/{lang}/ch14/10-metrics.md").write_text(heading + rest, encoding="utf-8")
    return project / "content/en/ch14/10-metrics.md"


@pytest.fixture
def built(mini):
    part = split_in_two_parts(mini)
    cache = BuildCache()
    result = build(mini, mini / "_site", search=False, cache=cache)
    return mini, part, cache, result


def quick_site(built, old: str, new: str, path: Path | None = None):
    project, part, cache, result = built
    quick = QuickEdit(LastBuild.of(project, result), cache)
    edit(path or part, old, new)
    return quick.site(result.output, [path or part])


def test_a_prose_edit_is_spliced_in_and_the_full_build_agrees(built):
    project, _part, cache, _result = built
    spliced = quick_site(
        built, "the last block still wastes slots", "the last block still wastes a few slots"
    )
    assert spliced is not None, "a plain paragraph edit takes the hot path"
    output, edited = spliced
    assert b"wastes a few slots" in output["en/ch14.html"]
    assert list(edited) == [("en", "ch14")]
    full = build(project, project / "_site", search=False, cache=cache)
    assert output["en/ch14.html"] == full.output["en/ch14.html"], "the full build needs no correction"


def test_a_citing_paragraph_takes_the_hot_path_too(built):
    project, _part, cache, _result = built
    output, _ = quick_site(
        built, "FlashAttention reorders IO [@n04]", "FlashAttention reorders its IO [@n04]"
    )
    assert b"reorders its IO" in output["en/ch14.html"]
    full = build(project, project / "_site", search=False, cache=cache)
    assert output["en/ch14.html"] == full.output["en/ch14.html"]


@pytest.mark.parametrize(
    "old, new, why",
    [
        (METRICS, "## Service metrics, measured {#q1}", "a heading's title (the table of contents shows it)"),
        (METRICS, "## Service metrics {#q9}", "a heading's id"),
        ("counts from arrival.", "counts from arrival.\n\n## New section {#q3}\n", "a new section"),
        (
            "counts from arrival.",
            "counts from arrival; see {{claim:no-such-claim}}.",
            "a reference that resolves to nothing",
        ),
        ("FlashAttention reorders IO [@n04].", "FlashAttention reorders IO.", "what the page cites"),
    ],
)
def test_what_the_splice_cannot_vouch_for_falls_back(built, old, new, why):
    assert quick_site(built, old, new) is None, why


def test_front_matter_and_files_that_are_no_part_fall_back(built):
    project = built[0]
    first = project / "content/en/ch14/00-intro.md"
    assert quick_site(built, "title: Inference serving", "title: Inference serving, again", first) is None
    project, _part, cache, result = built
    quick = QuickEdit(LastBuild.of(project, result), cache)
    assert quick.site(result.output, [project / "ledger/claims.md"]) is None
    # the first part's prose, with its front matter as built, does take the hot path
    assert (
        quick_site(built, "## Questions {#questions}", "## Questions {#questions}\n\nRead on.", first)
        is not None
    )


def test_serve_pushes_the_hot_edit_then_the_build_changes_nothing_on_that_page(built):
    project, part, cache, _result = built
    site = project / "_site"
    state, served = LiveState(), _Served()
    assert rebuild(project, site, state, search=False, cache=cache, served=served)
    stream, _first = state.next_event(None, 0)  # a page's stream, having sent the first build
    edit(part, "the last block still wastes slots", "the last block still wastes a few slots")
    assert hot_push(state, served, [part])
    hot = state.snapshot()["version"]
    assert [c["id"] for c in state.changes["pages"]["en/ch14.html"]] == ["q1"]
    assert b"wastes a few slots" not in (site / "en/ch14.html").read_bytes(), "the hot path writes nothing"
    assert rebuild(project, site, state, search=False, cache=cache, served=served)
    assert state.version == hot + 1 and "en/ch14.html" not in state.changes["pages"], (
        "no correction for the edited page"
    )
    assert b"wastes a few slots" in (site / "en/ch14.html").read_bytes()
    # that stream wakes only now, two versions on (a loaded machine): it sends both steps in order,
    # so its page patches the hot edit and then the build's, never reloads for a version it missed
    _seen, late = state.next_event(stream, 0)
    assert late["after"] == hot - 1 and late["version"] == hot + 1
    assert [list(step["pages"]) for step in late["steps"]][0] == ["en/ch14.html"]
    assert not any(step["reload"] for step in late["steps"])


def test_a_broken_edit_falls_back_shows_problems_and_keeps_the_last_good_site(built):
    project, part, cache, _result = built
    site = project / "_site"
    state, served = LiveState(), _Served()
    assert rebuild(project, site, state, search=False, cache=cache, served=served)
    good = (site / "en/ch14.html").read_bytes()
    edit(part, "counts from arrival.", "counts from arrival; see {{claim:no-such-claim}}.")
    assert not hot_push(state, served, [part]), "a dangling reference is left to the full build"
    assert rebuild(project, site, state, search=False, cache=cache, served=served) is False
    assert any("no-such-claim" in line for line in state.snapshot()["problems"])
    assert (site / "en/ch14.html").read_bytes() == good, "the last good site stays"


def test_reparsing_one_part_indexes_the_page_as_a_whole_parse_does(built):
    from atlas_site.markdown import make_parser
    from atlas_site.render.markdown_rules import install_rules
    from atlas_site.resolve.pages import parse_page, reparse_part

    md = make_parser()
    install_rules(md)
    old = built[3].parsed[("en", "ch14")]
    for index, part in enumerate(old.page.parts):
        edited = part.model_copy(
            update={"body": part.body.replace("counts", "still counts") + "\nOne more {{term:ttft}}.\n"}
        )
        page = old.page.model_copy(
            update={"parts": tuple(edited if at == index else p for at, p in enumerate(old.page.parts))}
        )
        whole, again = parse_page(page, md), reparse_part(old, page, index, md)
        assert (again.sections, again.uses, again.problems, again.images) == (
            whole.sections,
            whole.uses,
            whole.problems,
            whole.images,
        )
        assert again.page.parts == whole.page.parts
        assert any(
            u.location.path == part.path and u.key == "ttft" and u.location.line > 1 for u in again.uses
        )


def test_edits_in_a_row_each_take_the_hot_path_before_any_build(built):
    """The next edit may come before a build has rendered the last one: the hot path goes on from
    the pages it spliced itself."""
    project, part, cache, result = built
    quick, shown = QuickEdit(LastBuild.of(project, result), cache), result.output
    previous = "wastes slots"
    for word in ("few", "couple of", "handful of"):
        edit(part, previous, previous := f"wastes a {word} slots")
        shown, edited = quick.site(shown, [part])
        assert f"wastes a {word} slots".encode() in shown["en/ch14.html"]
        quick = quick.after(edited)
    full = build(project, project / "_site", search=False, cache=cache)
    assert shown["en/ch14.html"] == full.output["en/ch14.html"]


def test_a_build_a_newer_edit_made_obsolete_stops_and_announces_nothing(built, monkeypatch):
    from atlas_site import serve as serve_module

    project, part, cache, _result = built
    site = project / "_site"
    state, served = LiveState(), _Served()
    assert rebuild(project, site, state, search=False, cache=cache, served=served)
    before, written = state.snapshot(), (site / "en/ch14.html").read_bytes()
    real_build = serve_module.build

    def edited_meanwhile(*args, **kwargs):
        served.generation += 1  # what the watcher does when the next edit arrives
        return real_build(*args, **kwargs)

    monkeypatch.setattr(serve_module, "build", edited_meanwhile)
    edit(part, "the last block still wastes slots", "the last block still wastes a few slots")
    assert rebuild(project, site, state, search=False, cache=cache, served=served) is None
    assert state.snapshot() == before and (site / "en/ch14.html").read_bytes() == written
    monkeypatch.setattr(serve_module, "build", real_build)
    assert rebuild(project, site, state, search=False, cache=cache, served=served)
    assert b"wastes a few slots" in (site / "en/ch14.html").read_bytes()
    assert state.version == before["version"] + 1
