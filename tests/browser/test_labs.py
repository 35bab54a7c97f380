"""Each lab driven through its data-param inputs in Chromium; its data-output values must equal what
the same model computes in Node (labs_js/compute.js) for the same inputs."""
from __future__ import annotations

import json
import subprocess

import pytest

from atlas_site.build import assemble
from atlas_site.gates.browser import launched_browser, serve_folder
from atlas_site.write import write_site
from conftest import ROOT

LAB_FUNCTIONS = {"memory": "memory.evaluate", "batch": "batch.simulate", "speculative": "speculative.evaluate", "fleet": "fleet.lab"}
# (lab, inputs to set, outputs to compare) — inputs are the seed's teaching cases
CASES = [
    ("memory", {"layers": 32, "kv_heads": 8, "head_dim": 128, "kv_bits": 16}, {"kv_kib_per_token": "128.00"}),
    ("memory", {"layers": 32, "kv_heads": 32, "head_dim": 128, "kv_bits": 16}, {"kv_kib_per_token": "512.00"}),
    ("speculative", {"k": 4, "acceptance": 0.7}, {"expected_tokens": "2.77"}),
    ("speculative", {"k": 8, "acceptance": 0.3, "draft_cost": 0.3, "verify_cost": 1.5}, {}),
    ("batch", {"strategy": "static"}, {}),
    ("batch", {"strategy": "chunked", "chunk_size": 256}, {}),
    ("fleet", {"physical_page": 6144, "hash_block": 512, "shared_tokens": 2800}, {"hit_boundary": "2,560"}),
]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    result = assemble(ROOT)
    assert result.output is not None, "\n".join(map(str, result.errors))
    folder = tmp_path_factory.mktemp("labs") / "_site"
    write_site(result.output, folder)
    return folder


def node_model(lab: str, inputs: dict) -> dict:
    run = subprocess.run(["node", str(ROOT / "labs_js" / "compute.js")], input=json.dumps([{"fn": LAB_FUNCTIONS[lab], "args": inputs}]),
                         capture_output=True, text=True, check=True)
    return json.loads(run.stdout)[0]


def set_input(page, panel, name: str, value) -> None:
    field = panel.locator(f"[data-param='{name}']:not([type=range])")  # a slider mirrors its number box
    tag = field.evaluate("el => el.tagName.toLowerCase() + ':' + (el.type || '')")
    if tag.startswith("select"):
        field.select_option(str(value))
    elif tag.endswith("checkbox"):
        field.set_checked(bool(value))
    else:
        field.fill(str(value))


def read_inputs(panel) -> dict:
    return panel.evaluate("""panel => Object.fromEntries([...panel.querySelectorAll('[data-param]:not([type=range])')].map(el => {
        if (el.type === 'checkbox') return [el.dataset.param, el.checked];
        const v = el.value; return [el.dataset.param, (v !== '' && !isNaN(Number(v))) ? Number(v) : v]; }))""")


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("lab, inputs, expected", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_lab_outputs_follow_inputs(site, lang, lab, inputs, expected):
    with serve_folder(site) as base, launched_browser() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + f"{lang}/ch14.html")
        page.locator(f"[role=tab][aria-controls='lab-{lab}-panel']").click()
        panel = page.locator(f"[data-lab='{lab}']")
        page.wait_for_selector(f"[data-lab='{lab}'].lab-js", timeout=15000)  # the lab code loads near the labs
        for name, value in inputs.items():
            set_input(page, panel, name, value)
        shown = panel.evaluate("panel => Object.fromEntries([...panel.querySelectorAll('[data-output]')].map(el => [el.dataset.output, el.textContent.trim()]))")
        for name, text in expected.items():
            assert shown[name].startswith(text), f"{lab}.{name}: shows {shown[name]!r}, expected {text!r}"
        model = node_model(lab, read_inputs(panel))
        if lab == "speculative":
            assert shown["no_gain"] and (model["speedup"] <= 1) == (model["no_gain"] is True)
        if lab == "batch":
            assert model["goodput"] <= model["req_throughput"] + 1e-9
            assert shown["req_throughput"].startswith(f"{model['req_throughput']:.2f}")
        assert errors == []
