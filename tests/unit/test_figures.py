"""The figures: specs in ledger/figures.md rendered by atlas_site.figures, their charts' series
computed by the labs' own functions."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from atlas_site.figures import (
    SERIES_KEY,
    FigureError,
    render_figure_svg,
    spec_problems,
)
from atlas_site.figures.text import plain
from atlas_site.load.project import load_project
from atlas_site.resolve.examples import compute_examples
from atlas_site.validate import validate

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
CHAPTER = [
    "serving-stack",
    "request-clock",
    "goodput-load",
    "kv-formula",
    "attention-state",
    "paged-allocator",
    "roofline",
    "batching-timelines",
    "radix-tree",
    "pd-disaggregation",
    "speculative-state-machine",
    "quantization-objects",
    "parallel-topologies",
    "deepseek-lineage",
    "kimi-cache-lineage",
    "fleet-objectives",
]
TUTORIAL = ["factory-map", "cost-curve", "bottleneck-chart"]
IDS = CHAPTER + TUTORIAL
LANGS = ("zh", "en")
PLACEHOLDER = re.compile(r"(?<![_^])\{([A-Za-z0-9_]+)\}")
GENERATED = re.compile(r"^-?[\d.,]+[KMG%]?$")  # tick and value labels: numbers computed from the data


def front_matter(path: Path) -> dict:
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[0] == "---", f"{path} must start with front matter"
    end = lines.index("---", 1)
    return yaml.safe_load("\n".join(lines[1:end]))


SPECS = front_matter(ROOT / "ledger" / "figures.md")["figures"]
BY_ID = {spec["id"]: spec for spec in SPECS}
KINDS = yaml.safe_load((ROOT / "book.yaml").read_text(encoding="utf-8"))["figure_kinds"]


@pytest.fixture(scope="module")
def project():
    """The real book and everything computed for it (examples and figure series), once."""
    book, _rules, problems, _suppressed = validate(load_project(ROOT))
    computed, compute_problems = compute_examples(book, ROOT)
    assert [str(p) for p in list(problems) + compute_problems if p.severity == "error"] == []
    return book, computed


def series_of(project, fig_id: str) -> dict:
    return project[1].get(SERIES_KEY.format(fig_id), {})


def fake_values(spec: dict, lang: str) -> dict[str, str]:
    """A distinct, realistic-looking display text for every example and claim reference."""
    refs = sorted({r for r in (spec.get("numbers") or {}).values() if r.startswith(("ex:", "claim:"))})
    return {ref: f"{9000 + i:,} {'个' if lang == 'zh' else 'units'}#{i}" for i, ref in enumerate(refs)}


def render(spec: dict, lang: str, series: dict, values: dict | None = None) -> str:
    return render_figure_svg(
        spec, lang, values if values is not None else fake_values(spec, lang), TEMPLATES, series
    )


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def texts(root: ET.Element) -> list[ET.Element]:
    return list(root.iter("{http://www.w3.org/2000/svg}text")) + list(root.iter("text"))


def label_texts(spec: dict, lang: str, shown: dict[str, str]) -> dict[str, str]:
    """Every label as drawn: placeholders filled, script markup removed."""

    def fill(m):
        return shown[spec["numbers"][m.group(1)]]

    return {key: squash(plain(PLACEHOLDER.sub(fill, e[lang]))) for key, e in spec["labels"].items()}


def shown_numbers(spec: dict, lang: str, series: dict) -> dict[str, str]:
    """What each number reference displays: fake texts for examples and claims, the renderer's
    own formatting for assume and series references (read back from a one-label render)."""
    values = fake_values(spec, lang)
    out = dict(values)
    from atlas_site.figures.render import Texts

    texts_ = Texts(spec, lang, values, series)
    for key, ref in (spec.get("numbers") or {}).items():
        out.setdefault(ref, texts_.n(key))
    return out


# -- the ledger ------------------------------------------------------------------


def test_every_figure_is_placed_in_both_languages():
    placed = {lang: set() for lang in LANGS}
    for lang in LANGS:
        for path in (ROOT / "content" / lang).rglob("*.md"):
            placed[lang] |= set(
                re.findall(r"^\{\{figure:([a-z0-9-]+)\}\}$", path.read_text(encoding="utf-8"), re.M)
            )
    assert placed["zh"] == placed["en"] == set(IDS)


@pytest.mark.book  # this book's figures and computed series
def test_referenced_examples_and_claims_exist(project):
    book, _ = project
    missing = []
    for spec in SPECS:
        for ref in (spec.get("numbers") or {}).values():
            kind, _, key = ref.partition(":")
            name, _, field = key.partition(".")
            if kind == "ex" and (
                name not in book.examples
                or field not in {**book.examples[name].outputs, **book.examples[name].args}
            ):
                missing.append(f"{spec['id']}: {ref}")
            elif kind == "claim" and key not in book.claims:
                missing.append(f"{spec['id']}: {ref}")
            elif kind == "series" and name not in (spec.get("series") or {}):
                missing.append(f"{spec['id']}: {ref}")
            elif kind == "assume" and key not in (spec.get("assume") or {}):
                missing.append(f"{spec['id']}: {ref}")
    assert missing == []


# -- rendering -------------------------------------------------------------------


@pytest.mark.book  # this book's figures and computed series
def test_text_is_escaped(project):
    spec = copy.deepcopy(BY_ID["serving-stack"])
    spec["labels"]["moe"] = {"zh": "<b>&", "en": "<b>&"}
    spec["title"] = {"zh": "a<b", "en": "a<b"}
    svg = render(spec, "en", {})
    assert "&lt;b&gt;&amp;" in svg and "<b>" not in svg
    assert '<title id="fig-serving-stack-title">a&lt;b</title>' in svg


@pytest.mark.book  # this book's figures and computed series
def test_subscripts_are_shifted_tspans_at_least_the_minimum_size(project):
    spec = BY_ID["kv-formula"]
    svg = render(spec, "en", series_of(project, "kv-formula"))
    assert re.search(r'H<tspan dy="[\d.]+">kv</tspan>', svg)
    assert "_{" not in svg and "^{" not in svg


def test_template_dir_may_be_the_figures_folder():
    spec = BY_ID["serving-stack"]
    assert render_figure_svg(spec, "zh", {}, TEMPLATES / "figures") == render(spec, "zh", {}, {})


def test_missing_label_names_figure_and_key():
    spec = copy.deepcopy(BY_ID["serving-stack"])
    del spec["labels"]["moe"]
    with pytest.raises(FigureError, match=r"serving-stack.*moe"):
        render(spec, "en", {})


def test_label_missing_a_language_is_an_error():
    spec = copy.deepcopy(BY_ID["serving-stack"])
    del spec["labels"]["routing"]["zh"]
    with pytest.raises(FigureError, match=r"serving-stack.*routing.*zh"):
        render(spec, "zh", {})
    assert any("routing" in p for p in spec_problems(spec, KINDS, LANGS))


@pytest.mark.book  # this book's figures and computed series
def test_missing_number_value_names_figure_and_reference(project):
    spec = BY_ID["kv-formula"]
    values = fake_values(spec, "zh")
    values.pop("ex:kv-128k-context.gib")
    with pytest.raises(FigureError, match=r"kv-formula.*ctx_gib.*kv-128k-context\.gib"):
        render(spec, "zh", series_of(project, "kv-formula"), values)


@pytest.mark.book  # this book's figures and computed series
def test_unknown_placeholder_is_an_error(project):
    spec = copy.deepcopy(BY_ID["kv-formula"])
    spec["labels"]["ex_head"] = {"zh": "{nope}", "en": "{nope}"}
    with pytest.raises(FigureError, match=r"kv-formula.*nope"):
        render(spec, "en", series_of(project, "kv-formula"))
    assert any("nope" in p for p in spec_problems(spec, KINDS, LANGS))


def test_a_chart_without_its_series_is_an_error():
    with pytest.raises(FigureError, match=r"roofline.*series.*not computed"):
        render(BY_ID["roofline"], "en", {})


def test_unknown_language_is_rejected():
    with pytest.raises(FigureError):
        render(BY_ID["serving-stack"], "fr", {}, {})


# -- the pictures tell the truth -----------------------------------------------------


@pytest.mark.book  # this book's figures and computed series
def test_serving_stack_request_enters_at_the_cluster_and_flows_down(project):
    spec = BY_ID["serving-stack"]
    assert [layer["key"] for layer in spec["layers"]] == ["fleet", "engine", "kernel", "model"]
    root = parse(render(spec, "en", {}))
    down, back = [p.get("points") for p in root.iter("polyline")][:2]
    ys = [float(pt.split(",")[1]) for pt in down.split()]
    assert ys[1] > ys[0], "the request arrow must run downwards, from the cluster to the model"
    assert float(back.split()[-1].split(",")[1]) < float(back.split()[0].split(",")[1]), (
        "tokens travel back up"
    )


def test_request_clock_ttft_ends_at_the_first_token_after_the_first_decode_step():
    clock = BY_ID["request-clock"]["clock"]
    assert clock["prefill"][1] == clock["steps"][0] < clock["steps"][1]
    template = (TEMPLATES / "figures" / "request-clock.svg.j2").read_text(encoding="utf-8")
    assert 'm.span(c.queue[0], s[1], sy, t("span_ttft")' in template
    assert 'm.label(t("ev_first"), s[1]' in template


def test_request_clock_tells_itl_one_gap_from_tpot_their_average():
    """Issue 30: TPOT was drawn as one gap t_i − t_(i−1), the glossary's ITL; on the one timeline
    of the book, ITL brackets a single gap and TPOT the whole stretch from the first token to done."""
    clock = BY_ID["request-clock"]["clock"]
    first, second = clock["itl"]
    assert second == first + 1 and 1 <= first < len(clock["steps"]) - 1, "ITL: two consecutive tokens"
    template = (TEMPLATES / "figures" / "request-clock.svg.j2").read_text(encoding="utf-8")
    assert 'm.span(s[c.itl[0]], s[c.itl[1]], sy, t("span_itl")' in template
    assert 'm.span(s[1], s[-1], sy + gap, t("span_tpot")' in template
    labels = BY_ID["request-clock"]["labels"]
    assert labels["span_itl"]["en"] == "ITL" and "mean ITL" in labels["span_tpot"]["en"]


@pytest.mark.book  # this book's figures and computed series
def test_paged_allocator_gaps_fit_the_request_in_total_but_not_alone(project):
    spec = BY_ID["paged-allocator"]
    book, _ = project
    request = book.examples["paged-waste-100-11-4"].args["max_len"]
    assert series_of(project, "paged-allocator")["paged"]["reserved_slots"] == [request]
    ends, gaps, at = spec["pool"]["slots"], [], 0
    for _key, start, stop in spec["pool"]["used"]:
        if start > at:
            gaps.append(start - at)
        at = stop
    if at < ends:
        gaps.append(ends - at)
    assert sum(gaps) >= request > max(gaps)


def test_speculative_rounds_show_a_rejection_and_an_all_accepted_bonus():
    first, second = BY_ID["speculative-state-machine"]["strip"]
    assert [m for _, m in first][-1] == "correct" and "reject" in [m for _, m in first]
    assert all(m == "accept" for _, m in second[:-1]) and second[-1][1] == "bonus"


@pytest.mark.book  # this book's figures and computed series
def test_roofline_bandwidth_roof_passes_through_the_origin(project):
    roof = series_of(project, "roofline")["roof"]
    attainable = [x / t for x, t in zip(roof["x"], roof["lower_bound_s"], strict=False)]
    bandwidth, peak = roof["args"]["bytes_per_s"], roof["args"]["flops_per_s"]
    for x, y, bound in zip(roof["x"], attainable, roof["bound"], strict=False):
        assert y == pytest.approx(min(peak, bandwidth * x))  # y = B × I: zero at zero intensity
        assert bound == ("memory" if bandwidth * x < peak else "compute")


# -- series: computed by the labs' formulas ------------------------------------------


@pytest.mark.book  # this book's figures and computed series
def test_series_are_the_labs_formulas(project):
    book, _ = project
    kv = series_of(project, "kv-formula")["gqa_many"]
    per_token = book.examples["kv-per-token"]
    for tokens, gib in zip(kv["x"], kv["gib"], strict=False):
        expected = (
            kv["args"]["concurrency"]
            * tokens
            * per_token.args["layers"]
            * 2
            * per_token.args["kv_heads"]
            * per_token.args["head_dim"]
            * 2
            / 2**30
        )
        assert gib == pytest.approx(expected)
    case = series_of(project, "speculative-state-machine")["case"]["expected_tokens"][0]
    assert case == pytest.approx(_computed(project, "spec-expected-tokens-teaching")["expected_tokens"])


def _computed(project, example_id):
    return project[1][example_id]


def _book_with(spec_edit):
    book, _rules, _problems, _suppressed = validate(load_project(ROOT))
    figures = dict(book.figures)
    raw = figures["roofline"].model_dump()
    spec_edit(raw)
    figures["roofline"] = type(figures["roofline"])(**raw)
    return book.model_copy(update={"figures": figures})


@pytest.mark.book  # this book's figures and computed series
def test_changing_a_formula_input_changes_the_chart(project):
    """The chart follows its inputs: a different peak compute moves the compute roof."""
    before = render(BY_ID["roofline"], "en", series_of(project, "roofline"))

    def faster(raw):
        raw["assume"] = {"peak_tflops": 400}

    book = _book_with(faster)
    computed, problems = compute_examples(book, ROOT)
    assert problems == []
    spec = book.figures["roofline"].model_dump()
    after_series = computed[SERIES_KEY.format("roofline")]
    assert max(
        x / t for x, t in zip(after_series["roof"]["x"], after_series["roof"]["lower_bound_s"], strict=False)
    ) == pytest.approx(400)
    after = render(spec, "en", after_series)
    assert after != before and "400 TFLOP/s" in after and "400 TFLOP/s" not in before


@pytest.mark.parametrize(
    "edit, code, message",
    [
        (
            lambda raw: raw["series"]["roof"].update(fn="bottleneck.no_such_function"),
            "figure.series-failed",
            "no_such_function",
        ),
        (
            lambda raw: raw["series"]["roof"].update(outputs=["lower_bound_s", "nonsense"]),
            "figure.series",
            "returns no output nonsense",
        ),
        (
            lambda raw: raw["series"]["roof"]["args"].update(bytes_per_s="ex:no-such-example.x"),
            "figure.series",
            "no input of a worked example",
        ),
        (
            lambda raw: raw["series"]["points"].update(values="series:roof.nothing"),
            "figure.series",
            "names no output",
        ),
        (lambda raw: raw["series"]["roof"].update(lab="nolab"), "figure.series", "no lab 'nolab'"),
    ],
)
def test_series_problems_are_located(edit, code, message):
    book = _book_with(edit)
    _, problems = compute_examples(book, ROOT)
    found = [p for p in problems if p.code == code]
    assert found and message in found[0].message, problems
    assert found[0].location == book.locate("figures:roofline") and found[0].location.line > 0


@pytest.mark.book  # this book's figures and computed series
@pytest.mark.parametrize("lang", LANGS)
def test_cost_curve_names_the_batch_its_ring_marks(project, lang):
    """issue 31 #8: the ring marked the cheapest feasible point (batch 40) while the number beside it
    read 32, the label of the neighbouring dot. The number nearest the ring is the batch it marks."""
    spec, series = BY_ID["cost-curve"], series_of(project, "cost-curve")
    decode, cost = series["decode"], series["cost"]
    slo = spec["assume"]["min_user_tokens_per_s"]
    feasible = [i for i, speed in enumerate(decode["per_user_tokens_per_s"]) if speed >= slo]
    cheapest = min(feasible, key=lambda i: cost["per_million"][i])
    root = parse(render(spec, lang, series))
    circles = list(root.iter("{http://www.w3.org/2000/svg}circle")) + list(root.iter("circle"))
    ring = next(c for c in circles if "fig-outline" in c.get("class", ""))
    numbers = [
        t
        for t in texts(root)
        if "fig-value" in t.get("class", "") and squash("".join(t.itertext())).isdigit()
    ]
    nearest = min(
        numbers,
        key=lambda t: (
            (float(t.get("x")) - float(ring.get("cx"))) ** 2
            + (float(t.get("y")) - float(ring.get("cy"))) ** 2
        ),
    )
    assert "".join(nearest.itertext()).strip() == str(decode["x"][cheapest]) == "40"


# -- what a reader sees in the drawings (reader review of figures 1, 8, 11 and 13) -------------


def _panel(fig_id: str, key: str, lang: str = "en", series: dict | None = None) -> ET.Element:
    root = parse(render(BY_ID[fig_id], lang, series or {}))
    return next(svg for svg in root if svg.get("data-panel") == key)


def _box(el: ET.Element) -> tuple[float, float, float, float]:
    x, y = float(el.get("x")), float(el.get("y"))
    return x, y, x + float(el.get("width")), y + float(el.get("height"))


def _classes(el: ET.Element) -> set[str]:
    return set((el.get("class") or "").split())


def _gpus_and_weights(panel: ET.Element):
    """The GPU outlines, left to right, and the copper cells each one holds."""
    gpus = sorted(
        (_box(r) for r in panel.iter("rect") if _classes(r) == {"fig-outline", "fig-muted"}),
        key=lambda b: b[0],
    )
    cells = [_box(r) for r in panel.iter("rect") if {"fig-resource", "fig-soft"} <= _classes(r)]
    held = [[c for c in cells if g[0] <= c[0] and c[2] <= g[2]] for g in gpus]
    return gpus, held


@pytest.mark.book  # this book's figures and computed series
def test_parallel_tp_gpus_hold_slices_that_add_up_to_a_layer_and_dp_whole_copies(project):
    """Figure 13: TP drew every GPU holding four full-width layer bars, the same as DP, with the
    all-reduce lines drawn through the bars. Now each TP GPU holds one slice of every layer, at its
    own offset, the four slices tiling the layer; the all-reduce runs between the boxes."""
    tp = _panel("parallel-topologies", "tp")
    gpus, held = _gpus_and_weights(tp)
    _, dp_held = _gpus_and_weights(_panel("parallel-topologies", "dp"))
    layer = dp_held[0][0][2] - dp_held[0][0][0]  # DP: every GPU a whole copy of each layer
    assert len(gpus) == 4 and all(len(cells) == 4 for cells in dp_held)
    assert all(c[2] - c[0] == pytest.approx(layer) for cells in dp_held for c in cells)
    rows = sorted({round(c[1], 1) for cells in held for c in cells})
    assert len(rows) == 4 and all(len(cells) == 4 for cells in held)  # a slice of every layer
    for row in rows:
        offsets = sorted(
            (c[0] - g[0], c[2] - g[0])
            for g, cells in zip(gpus, held, strict=True)
            for c in cells
            if round(c[1], 1) == row
        )
        assert all(b - a == pytest.approx(layer / 4) for a, b in offsets), offsets
        assert all(offsets[i][1] == pytest.approx(offsets[i + 1][0]) for i in range(3)), offsets
        assert offsets[-1][1] - offsets[0][0] == pytest.approx(layer)  # the four make one layer
    links = [ln for ln in tp.iter("line") if "fig-cluster" in _classes(ln)]
    assert links
    for ln in links:
        x1, x2 = sorted((float(ln.get("x1")), float(ln.get("x2"))))
        assert not any(g[0] < x2 and x1 < g[2] for g in gpus), "an all-reduce line crosses a GPU"


@pytest.mark.book  # this book's figures and computed series
def test_batching_chunked_panel_shows_r1_finished_as_the_iteration_panel_does():
    """Figure 8: panel ③ started at R2, so a reader could not tell whether R1 had finished or was
    left out; it shows the same requests as ②, R1 a short finished row."""
    b, c = BY_ID["batching-timelines"]["panels"][1:]
    assert [key for key, _ in c["rows"]] == [key for key, _ in b["rows"]]
    r1 = dict(c["rows"])["r1"]
    assert r1.rstrip(".") and set(r1[len(r1.rstrip(".")) :]) == {"."}, "R1 finishes and leaves"
    svg = _panel("batching-timelines", "c", "en")
    assert "R1" in "".join("".join(t.itertext()) for t in texts(svg))


@pytest.mark.book  # this book's figures and computed series
@pytest.mark.parametrize("lang", LANGS)
def test_speculative_labels_on_the_grid_lie_on_a_plate(project, lang):
    """Figure 11: 'a = 0: still one token' stood on the grid with only a stroked halo, which print
    switches off, so a grid line cut through its words on paper. Each label standing on the chart's
    grid now lies on a plate drawn after the grid and before its text."""
    spec, series = BY_ID["speculative-state-machine"], series_of(project, "speculative-state-machine")
    panel = _panel("speculative-state-machine", "expect", lang, series)
    children = list(panel)
    grid = [i for i, el in enumerate(children) if "fig-grid" in _classes(el)]
    drawn = label_texts(spec, lang, shown_numbers(spec, lang, series))
    for key in ("floor", "case"):
        first_words = drawn[key][:6]
        at = next(
            i
            for i, el in enumerate(children)
            if el.tag == "text" and squash("".join(el.itertext())).startswith(first_words)
        )
        plate = children[at - 1]
        assert plate.tag == "rect" and "fig-plate" in _classes(plate), f"{key}: no plate under it"
        assert max(grid) < at - 1, "the grid is drawn before the plate"
        x0, y0, x1, y1 = _box(plate)
        crossing = [
            el
            for el in (children[i] for i in grid)
            if x0 < float(el.get("x1")) < x1 or y0 < float(el.get("y1")) < y1
        ]
        assert crossing, f"{key}: the label stands on the grid (else it needs no plate)"


@pytest.mark.book  # this book's figures and computed series
@pytest.mark.parametrize("lang", LANGS)
def test_serving_stack_layer_boxes_are_one_size_with_their_words_centred(project, lang):
    """Figure 1 at 390 px: the 'Single-instance engine' box was taller than its words (its row took
    the height of its two rows of chips), an empty band under its text. The four layer boxes are one
    size and each holds its words centred."""
    panel = _panel("serving-stack", "path", lang)
    boxes = [_box(r) for r in panel.iter("rect") if "fig-backdrop" in _classes(r)]
    assert len(boxes) == 4
    assert len({round(b[3] - b[1], 2) for b in boxes}) == 1, boxes
    spare = []
    for top, bottom in ((b[1], b[3]) for b in boxes):
        baselines = [
            float(t.get("y")) + sum(float(s.get("dy") or 0) for s in t.iter("tspan"))
            for t in texts(panel)
            if top < float(t.get("y")) < bottom
        ]
        spare.append((min(baselines) - top) - (bottom - max(baselines)))
    # the room above the first baseline less the room below the last: the same in every box, one
    # line of gist or two, as words centred in their box give (top-aligned, it grew with the box)
    assert max(spare) - min(spare) < 0.5, spare


def test_a_chart_drawn_from_a_lab_links_to_the_lab_where_a_page_places_it():
    """Reviews 30-z9 #11, 30-z11 #6: a figure drawn from a lab's defaults stated none of them; its
    caption now links to the lab, where every setting shows. None when no page places the lab."""
    from types import SimpleNamespace

    from atlas_site.directives.blocks import _lab_links
    from atlas_site.resolve.example_labs import LAB_PAGES_KEY

    book = SimpleNamespace(labs={"batch": SimpleNamespace(title={"en": "Lab B <batch>"})})
    raw = {"series": {"load": {"fn": "batch.simulate", "lab": "batch"}, "other": {"fn": "cost.step"}}}

    def state(placed):
        return SimpleNamespace(
            book=book,
            lang="en",
            computed={LAB_PAGES_KEY: {"en": placed}},
            ui=lambda key: {"figure_lab": "Change its settings in {lab}"}[key],
        )

    assert _lab_links(state({"batch": "ch14"}), raw) == (
        ' <a class="fig-lab" href="ch14.html#lab-batch-panel">Change its settings in Lab B &lt;batch&gt;</a>'
    )
    assert _lab_links(state({}), raw) == "", "a lab no page of the language places gets no link"
    assert _lab_links(state({"batch": "ch14"}), {"series": {}}) == ""
