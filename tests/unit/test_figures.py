"""The fifteen figures: specs in ledger/figures.md rendered by atlas_site.figures."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from atlas_site.figures import (FigureError, layout_estimate_problems,
                                render_figure_svg, spec_problems)

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
IDS = ["serving-stack", "request-clock", "kv-formula", "attention-state", "paged-allocator",
       "roofline", "batching-timelines", "radix-tree", "pd-disaggregation",
       "speculative-state-machine", "quantization-objects", "parallel-topologies",
       "deepseek-lineage", "kimi-cache-lineage", "fleet-objectives"]
LANGS = ("zh", "en")
PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_]+)\}")


def front_matter(path: Path) -> dict:
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[0] == "---", f"{path} must start with front matter"
    end = lines.index("---", 1)
    return yaml.safe_load("\n".join(lines[1:end]))


SPECS = front_matter(ROOT / "ledger" / "figures.md")["figures"]
KINDS = yaml.safe_load((ROOT / "book.yaml").read_text(encoding="utf-8"))["figure_kinds"]
BY_ID = {spec["id"]: spec for spec in SPECS}


def fake_values(spec: dict, lang: str) -> dict[str, str]:
    """A distinct, realistic-looking display text for every number reference."""
    refs = sorted(set((spec.get("numbers") or {}).values()))
    return {ref: f"{9000 + i:,} {'个' if lang == 'zh' else 'units'}#{i}" for i, ref in enumerate(refs)}


def render(spec: dict, lang: str, values: dict | None = None) -> str:
    return render_figure_svg(spec, lang, values if values is not None else fake_values(spec, lang), TEMPLATES, KINDS[spec["kind"]][lang])


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def text_elements(root: ET.Element) -> list[str]:
    return ["".join(el.itertext()) for el in root.iter("text")]


# -- the ledger ------------------------------------------------------------------

def test_all_fifteen_figures_in_order():
    assert [s["id"] for s in SPECS] == IDS


@pytest.mark.parametrize("fig_id", IDS)
def test_spec_is_well_formed(fig_id):
    assert spec_problems(BY_ID[fig_id], KINDS, LANGS) == []


@pytest.mark.parametrize("fig_id", IDS)
def test_every_number_is_used_by_a_label(fig_id):
    spec = BY_ID[fig_id]
    used = {name for entry in spec["labels"].values() for name in PLACEHOLDER.findall(entry["en"])}
    assert used == set(spec.get("numbers") or {})


def _registered() -> tuple[dict[str, set[str]], set[str]]:
    examples: dict[str, set[str]] = {}
    for path in sorted((ROOT / "ledger").glob("examples*.md")):
        for item in front_matter(path).get("examples") or []:
            # a figure may show an output or one of the example's (top-level) inputs
            examples[item["id"]] = set(item.get("outputs") or {}) | set(item.get("args") or {})
    claims_path = ROOT / "ledger" / "claims.md"
    claims = {c["id"] for c in front_matter(claims_path).get("claims") or []} if claims_path.exists() else set()
    return examples, claims


def _references():
    for spec in SPECS:
        for ref in (spec.get("numbers") or {}).values():
            yield spec["id"], ref


def test_referenced_examples_and_claims_exist():
    examples, claims = _registered()
    if not examples and not claims:
        pytest.skip("no example or claim ledger yet")
    missing = []
    for fig_id, ref in _references():
        kind, _, key = ref.partition(":")
        name = key.split(".")[0]
        if (kind == "ex" and name not in examples) or (kind == "claim" and name not in claims):
            missing.append(f"{fig_id}: {ref}")
    assert missing == []


def test_referenced_example_outputs_or_inputs_exist():
    examples, _ = _registered()
    missing = [f"{fig_id}: {ref}" for fig_id, ref in _references()
               if ref.startswith("ex:") and "." in ref
               and ref[3:].split(".")[1] not in examples.get(ref[3:].split(".")[0], set())]
    assert missing == []


# -- rendering -------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("fig_id", IDS)
def test_renders_accessible_svg(fig_id, lang):
    spec = BY_ID[fig_id]
    svg = render(spec, lang)
    root = ET.fromstring(svg)
    assert root.tag == "svg"
    assert root.get("data-figure") == fig_id and root.get("lang") == lang
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == f"fig-{fig_id}-title fig-{fig_id}-desc"
    vb = [float(v) for v in root.get("viewBox").split()]
    assert vb[:3] == [0, 0, 480] and vb[3] > 100
    assert float(root.get("width")) == vb[2] and float(root.get("height")) == vb[3]
    title, desc = root.find("title"), root.find("desc")
    assert title.get("id") == f"fig-{fig_id}-title" and title.text == spec["title"][lang]
    assert desc.get("id") == f"fig-{fig_id}-desc" and desc.text == spec["desc"][lang]
    texts = text_elements(root)
    assert KINDS[spec["kind"]][lang] in texts


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("fig_id", IDS)
def test_every_number_appears_as_text(fig_id, lang):
    spec = BY_ID[fig_id]
    values = fake_values(spec, lang)
    shown = squash(" ".join(text_elements(ET.fromstring(render(spec, lang, values)))))
    for ref, value in values.items():
        assert squash(value) in shown, f"{fig_id} ({lang}) does not show {ref}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("fig_id", IDS)
def test_all_visible_text_comes_from_labels(fig_id, lang):
    """No template types text: each <text> is (part of) a label, a number or the kind label."""
    spec = BY_ID[fig_id]
    values = fake_values(spec, lang)
    allowed = [squash(PLACEHOLDER.sub(lambda m: values[spec["numbers"][m.group(1)]], e[lang]))
               for e in spec["labels"].values()]
    allowed.append(squash(KINDS[spec["kind"]][lang]))
    for text in text_elements(ET.fromstring(render(spec, lang, values))):
        assert any(squash(text) in label for label in allowed), f"{fig_id}: stray text {text!r}"


@pytest.mark.parametrize("fig_id", IDS)
def test_every_label_is_drawn(fig_id):
    spec = BY_ID[fig_id]
    for lang in LANGS:
        values = fake_values(spec, lang)
        drawn = squash("".join(text_elements(ET.fromstring(render(spec, lang, values)))))
        for key, entry in spec["labels"].items():
            label = squash(PLACEHOLDER.sub(lambda m: values[spec["numbers"][m.group(1)]], entry[lang]))
            assert label in drawn, f"{fig_id} ({lang}): label {key!r} is never drawn"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("fig_id", IDS)
def test_markup_is_self_contained(fig_id, lang):
    svg = render(BY_ID[fig_id], lang)
    for banned in ("style=", "<script", "http", "href", "<image", "<foreignObject", "font-family"):
        assert banned not in svg, f"{fig_id}: {banned!r} in output"
    assert not re.search(r'(fill|stroke)="(#|rgb|white|black)', svg), "hard-coded colour"
    sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', svg)]
    assert sizes and min(sizes) >= 15


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("fig_id", IDS)
def test_layout_estimate_fits(fig_id, lang):
    spec = BY_ID[fig_id]
    assert layout_estimate_problems(spec, lang, fake_values(spec, lang), TEMPLATES, KINDS[spec["kind"]][lang]) == []


def test_text_is_escaped():
    spec = copy.deepcopy(BY_ID["serving-stack"])
    spec["labels"]["moe"] = {"zh": "<b>&", "en": "<b>&"}
    spec["title"] = {"zh": "a<b", "en": "a<b"}
    svg = render(spec, "en")
    assert "&lt;b&gt;&amp;" in svg and "<b>" not in svg
    assert "<title id=\"fig-serving-stack-title\">a&lt;b</title>" in svg


def test_template_dir_may_be_the_figures_folder():
    spec = BY_ID["roofline"]
    assert render_figure_svg(spec, "zh", {}, TEMPLATES / "figures", KINDS[spec["kind"]]["zh"]) == render(spec, "zh", {})


def test_missing_label_names_figure_and_key():
    spec = copy.deepcopy(BY_ID["kv-formula"])
    del spec["labels"]["per_token"]
    with pytest.raises(FigureError, match=r"kv-formula.*per_token"):
        render(spec, "en")


def test_label_missing_a_language_is_an_error():
    spec = copy.deepcopy(BY_ID["roofline"])
    del spec["labels"]["regime"]["zh"]
    with pytest.raises(FigureError, match=r"roofline.*regime.*zh"):
        render(spec, "zh")
    assert any("regime" in p for p in spec_problems(spec, KINDS, LANGS))


def test_missing_number_value_names_figure_and_reference():
    spec = BY_ID["kv-formula"]
    values = fake_values(spec, "zh")
    values.pop("ex:kv-128k-context.gib")
    with pytest.raises(FigureError, match=r"kv-formula.*ctx_gib.*kv-128k-context\.gib"):
        render(spec, "zh", values)


def test_unknown_placeholder_is_an_error():
    spec = copy.deepcopy(BY_ID["kv-formula"])
    spec["labels"]["ex_head"] = {"zh": "{nope}", "en": "{nope}"}
    with pytest.raises(FigureError, match=r"kv-formula.*nope"):
        render(spec, "en")
    assert any("nope" in p for p in spec_problems(spec, KINDS, LANGS))


def test_unknown_language_is_rejected():
    with pytest.raises(FigureError):
        render_figure_svg(BY_ID["roofline"], "fr", {}, TEMPLATES, "kind")
