"""Every lab in Chromium, driven as a reader drives it: through its data-param inputs, its preset
buttons and the keyboard. Numbers on the page must equal what the same model computes in Node
(labs_js/compute.js); presets must not depend on what was clicked before; an invalid input must
replace the outputs with a message; the key outputs must stay on a phone screen while editing."""

from __future__ import annotations

import json
import math
import re
import subprocess

import pytest

from conftest import ROOT

PAGE_OF = {"memory": "ch14", "batch": "ch14", "speculative": "ch14", "fleet": "ch14", "cost": "tf-overview"}
LABS = list(PAGE_OF)
LANGS = ("zh", "en")
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}

# (lab, inputs to set): the seed's teaching cases and a few settings off the defaults
CASES = [
    ("memory", {"layers": 32, "kv_heads": 8, "head_dim": 128, "kv_bits": 16}),
    ("memory", {"layers": 32, "kv_heads": 32, "head_dim": 128, "kv_bits": 16, "attention": "mha"}),
    ("memory", {"params_b": 70, "weight_bits": 4, "context_len": 32768, "concurrency": 7}),
    ("speculative", {"k": 4, "acceptance": 0.7}),
    ("speculative", {"k": 8, "acceptance": 0.3, "draft_cost": 0.3, "verify_cost": 1.5}),
    ("batch", {"strategy": "static"}),
    ("batch", {"strategy": "chunked", "chunk_size": 256}),
    ("batch", {"strategy": "pd", "kv_link_gbps": 2}),
    ("fleet", {"physical_page": 6144, "hash_block": 512, "shared_tokens": 2800}),
    ("fleet", {"routing": "round_robin", "clusters": 8, "secondary_failure": True}),
    (
        "cost",
        {
            "hourly_cost": 100,
            "good_tokens_per_s": 10000,
            "opt_hourly_cost": 120,
            "opt_good_tokens_per_s": 15000,
        },
    ),
    ("cost", {"attempt_cost_a": 0.08, "attempts_a": 1, "attempt_cost_b": 0.05, "attempts_b": 2}),
    (
        "cost",
        {
            "step_gflop": 4000,
            "compute_tflops": 400,
            "step_gb": 2,
            "hbm_tbps": 3.35,
            "step_comm_mb": 300,
            "net_gbps": 50,
            "overhead_ms": 1.5,
            "optimizable_share": 0.6,
            "local_speedup": 3,
            "cheap_share": 0.5,
            "cheap_cost_ratio": 0.1,
        },
    ),
]

# The state of a panel: every input's value, every output's text (the pinned copies excluded) and
# the note of the preset last applied.
STATE_JS = """panel => ({
  note: panel.querySelector('[data-preset-status]').textContent,
  inputs: Object.fromEntries([...panel.querySelectorAll('[data-param]:not([type=range])')].map(el =>
    [el.dataset.param, el.type === 'checkbox' ? el.checked : el.value])),
  outputs: Object.fromEntries([...panel.querySelectorAll('[data-output]')].filter(el => !el.closest('[data-lab-summary]'))
    .map(el => { const unit = el.nextElementSibling && el.nextElementSibling.classList.contains('lab-unit') ? el.nextElementSibling.textContent : '';
                 return [el.dataset.output, (el.textContent.trim() + ' ' + unit).trim()]; })),
})"""


@pytest.fixture(scope="module")
def built(real_book):
    return real_book


@pytest.fixture(scope="module")
def contracts(built) -> dict:
    return {lab_id: lab.model_dump() for lab_id, lab in built.book.labs.items()}


class Lab:
    """One lab on a freshly loaded page, its code live."""

    def __init__(self, browser, base: str, lab: str, lang: str, viewport=LAPTOP):
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.url = base + f"{lang}/{PAGE_OF[lab]}.html"
        self.lab, self.lang = lab, lang
        self.open()

    def open(self) -> None:
        self.page.goto(self.url)
        self.page.locator("[data-lab-scripts]").scroll_into_view_if_needed()
        tab = self.page.locator(f"[role=tab][aria-controls='lab-{self.lab}-panel']")
        if tab.count():
            tab.click()
        self.page.wait_for_selector(f"[data-lab='{self.lab}'].lab-js", timeout=15000)
        self.panel = self.page.locator(f"[data-lab='{self.lab}']")

    def state(self) -> dict:
        return self.panel.evaluate(STATE_JS)

    def set(self, name: str, value) -> None:
        field = self.panel.locator(f"[data-param='{name}']:not([type=range])")
        kind = field.evaluate("el => el.tagName.toLowerCase() + ':' + (el.type || '')")
        if kind.startswith("select"):
            field.select_option(str(value))
        elif kind.endswith("checkbox"):
            field.set_checked(bool(value))
        else:
            field.fill(str(value))

    def preset(self, preset_id: str | None) -> None:
        selector = "[data-preset-reset]" if preset_id is None else f"[data-preset='{preset_id}']"
        self.panel.locator(selector).click()

    def preset_and_state(self, preset_id: str | None) -> dict:
        """Click a preset and read the state in one round trip (the labs update synchronously in
        the click handler; a late update would show as a wrong state, never as a pass)."""
        selector = "[data-preset-reset]" if preset_id is None else f"[data-preset='{preset_id}']"
        return self.panel.evaluate(
            f"(panel, selector) => {{ panel.querySelector(selector).click(); return ({STATE_JS})(panel); }}",
            selector,
        )

    def done(self) -> None:
        """The end of a test on this page: no script error or console error happened."""
        errors, self.errors[:] = list(self.errors), []
        assert errors == [], errors


class LoadedLabs:
    """The module's lab pages, one per (lab, language, viewport), loaded once and shared.

    A test gets its page after Reset, which restores every input and output as the page loaded
    (test_presets_do_not_depend_on_click_order proves that on a fresh load for every lab and
    language), or freshly reloaded when what it checks is the page as it loads."""

    def __init__(self, browser, base: str):
        self.browser, self.base, self.pages = browser, base, {}

    def get(self, lab: str, lang: str, viewport=LAPTOP, fresh: bool = False) -> Lab:
        key = (lab, lang, viewport["width"], viewport["height"])
        page = self.pages.get(key)
        if page is None:
            page = self.pages[key] = Lab(self.browser, self.base, lab, lang, viewport)
        elif fresh:
            page.open()
        else:
            page.preset(None)
        return page

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()


@pytest.fixture(scope="module")
def labs(browser, base):
    pages = LoadedLabs(browser, base)
    yield pages
    pages.close()


def node_models(calls: list[tuple[str, dict]]) -> list[dict]:
    """What the labs' own functions compute for each (function, inputs), in one Node run."""
    run = subprocess.run(
        ["node", str(ROOT / "labs_js" / "compute.js")],
        input=json.dumps([{"fn": fn, "args": args} for fn, args in calls]),
        capture_output=True,
        text=True,
        check=True,
    )
    models = json.loads(run.stdout)
    assert len(models) == len(calls), run.stdout
    return models


def page_inputs(state: dict) -> dict:
    """Input values as the model takes them (numbers where the box holds a number)."""

    def value(v):
        if isinstance(v, bool):
            return v
        return float(v) if re.fullmatch(r"-?\d+(\.\d+)?(e-?\d+)?", v) else v

    return {k: value(v) for k, v in state["inputs"].items()}


DURATION_MS = {"ms": 1, "毫秒": 1, "s": 1e3, "秒": 1e3, "min": 6e4, "分钟": 6e4, "h": 3.6e6, "小时": 3.6e6}


def assert_shows_model(contract: dict, shown: dict, model: dict, labels: dict) -> None:
    """Every output on the page equals the Node model's value at the digits the page shows."""
    for spec in contract["outputs"]:
        name, text = spec["name"], shown[spec["name"]]
        if spec.get("labels"):
            assert (
                text
                == labels[name][
                    str(model[name]).lower() if isinstance(model[name], bool) else str(model[name])
                ]
            ), name
            continue
        number_text, _, unit = text.partition(" ")
        number = float(number_text.replace(",", "").replace("−", "-").replace("+", "").rstrip("%"))
        want = model[name] if model[name] is not None else math.inf
        if spec.get("percent"):
            want *= 100
        digits = spec.get("digits", 0)
        if spec.get("duration"):
            scale = DURATION_MS[unit]
            want, digits = want / scale, (digits if scale == 1 else 1)
        if math.isinf(want):
            assert number_text == "∞", name
            continue
        assert abs(number - want) <= 0.5 * 10**-digits + 1e-9 * max(1, abs(want)), (
            f"{name}: page {text!r}, model {model[name]!r}"
        )


def output_labels(lab: Lab) -> dict:
    return lab.panel.evaluate("""panel => Object.fromEntries([...panel.querySelectorAll('[data-output][data-labels]')]
        .map(el => [el.dataset.output, JSON.parse(el.dataset.labels)]))""")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lab_id", LABS)
def test_outputs_equal_the_node_model(labs, contracts, lang, lab_id):
    """Each case of the lab in one loaded page: Reset (which restores the page as it loaded, proved
    by test_presets_do_not_depend_on_click_order), set the case's inputs, compare with Node."""
    cases = [inputs for lab, inputs in CASES if lab == lab_id]
    assert cases, f"no case for {lab_id}"
    contract = contracts[lab_id]
    lab = labs.get(lab_id, lang)
    labels = output_labels(lab)
    states = []
    for inputs in cases:
        lab.preset(None)
        for name, value in inputs.items():
            lab.set(name, value)
        state = lab.state()
        assert {k: str(v) for k, v in inputs.items() if not isinstance(v, bool)} == {
            k: state["inputs"][k] for k, v in inputs.items() if not isinstance(v, bool)
        }, f"{lab_id}: the case's inputs took"
        states.append(state)
    models = node_models([(contract["fn"], page_inputs(state)) for state in states])
    for inputs, state, model in zip(cases, states, models, strict=False):
        try:
            assert_shows_model(contract, state["outputs"], model, labels)
        except AssertionError as error:
            raise AssertionError(f"{lab_id} case {inputs}: {error}") from None
    lab.done()


def ordered_pairs_walk(nodes: list) -> list:
    """A sequence in which every ordered pair (a, b), a != b, appears as neighbours (Eulerian
    circuit of the complete directed graph, Hierholzer)."""
    unused = {a: [b for b in nodes if b != a] for a in nodes}
    stack, walk = [nodes[0]], []
    while stack:
        top = stack[-1]
        if unused[top]:
            stack.append(unused[top].pop())
        else:
            walk.append(stack.pop())
    return walk[::-1]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lab_id", LABS)
def test_presets_do_not_depend_on_click_order(labs, contracts, lang, lab_id):
    """Every ordered pair of presets (Reset included): the second gives exactly what it gives on a
    fresh page, inputs and outputs; so does a preset after the reader changed every input."""
    presets = [p["id"] for p in contracts[lab_id]["presets"]] + [None]
    lab = labs.get(lab_id, lang, fresh=True)
    defaults = lab.state()  # the page as it loaded
    # The reference state of each preset. The first is clicked on the fresh page itself; the others
    # after Reset, which the next assertion proves restores the page as it loaded, so every
    # reference is what a fresh page shows (and the walk below compares against them all).
    fresh = {}
    for preset in presets:
        if fresh:
            lab.preset_and_state(None)
        fresh[preset] = lab.preset_and_state(preset)
    assert len({json.dumps(s, sort_keys=True) for s in fresh.values()}) == len(presets), (
        "every preset shows something of its own"
    )
    assert dict(defaults, note="") == dict(fresh[None], note=""), "Reset restores the page as it loaded"
    lab.preset(None)  # as good as a fresh load, just proved
    for name, value in defaults["inputs"].items():  # a reader's own scenario first
        field = lab.panel.locator(f"[data-param='{name}']:not([type=range])")
        if isinstance(value, bool):
            lab.set(name, not value)
        elif field.get_attribute("type") == "number":
            lab.set(name, field.get_attribute("max"))
    walk = ordered_pairs_walk(presets)
    assert len(walk) == len(presets) * (len(presets) - 1) + 1
    for step, preset in enumerate(walk):
        got = lab.preset_and_state(preset)
        assert got == fresh[preset], (
            f"{lab_id}: preset {preset!r} after {walk[step - 1] if step else 'edits'!r} differs from a fresh page"
        )
    lab.done()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lab_id", LABS)
def test_presets_show_what_their_notes_promise(labs, contracts, built, lang, lab_id):
    """Each preset's `expect` (the seed's numbers for Lab E's five worked cases), as the page shows them."""
    strings = built.book.lab_strings
    lab = labs.get(lab_id, lang)
    for preset in contracts[lab_id]["presets"]:
        lab.preset(preset["id"])
        shown = lab.state()["outputs"]
        assert lab.panel.locator("[data-preset-status]").inner_text() == preset["note"][lang]
        for name, want in preset.get("expect", {}).items():
            spec = next(o for o in contracts[lab_id]["outputs"] if o["name"] == name)
            if spec.get("labels"):
                want = strings[f"{lab_id}.{name}.{want}"][lang]
            elif spec.get("duration"):
                number, unit = str(want).rsplit(" ", 1)
                want = f"{number} {strings['unit.' + unit][lang]}"
            elif spec.get("unit"):
                unit = strings[spec["unit"]][lang]
                one = strings.get(spec["unit"] + ".one")
                want = f"{want} {one[lang] if one and want == '1' else unit}"
            assert shown[name] == want, f"{lab_id} preset {preset['id']}: {name}"
    lab.done()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lab_id", LABS)
def test_every_preset_visibly_changes_the_lab_or_is_marked_as_its_start(labs, lang, lab_id):
    """issue 31 #10: Lab D's "K3 Fig. 12" preset set the defaults' own values, so pressing it changed
    nothing a reader could see. The class: from the page as it loaded, every preset changes an
    output, or it is the scenario the lab starts in and is shown pressed from the start."""
    lab = labs.get(lab_id, lang, fresh=True)
    marked = lab.panel.evaluate(
        "p => Object.fromEntries([...p.querySelectorAll('[data-preset]')]"
        ".map(b => [b.dataset.preset, b.getAttribute('aria-pressed') === 'true']))"
    )
    for preset_id, pressed in marked.items():
        before = lab.preset_and_state(None)["outputs"]  # Reset: the page as it loaded
        after = lab.preset_and_state(preset_id)["outputs"]
        assert after != before or pressed, (
            f"{lab_id}: preset {preset_id} changes no output and is not marked as the start"
        )
        assert not (after != before and pressed), (
            f"{lab_id}: preset {preset_id} is marked as the start but changes outputs"
        )
    assert sum(marked.values()) <= 1
    lab.done()


INVALID = {  # lab: (input, bad value) — the issue's own example first
    "memory": ("kv_heads", "0"),
    "batch": ("arrival_rate", "500"),
    "speculative": ("k", "2.5"),
    "fleet": ("hash_block", ""),
    "cost": ("hbm_tbps", "0"),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lab_id", LABS)
def test_invalid_input_replaces_the_outputs_with_a_message(labs, contracts, built, lang, lab_id):
    name, bad = INVALID[lab_id]
    lab = labs.get(lab_id, lang, PHONE)
    before = lab.state()
    lab.set(name, bad)
    shown = lab.state()["outputs"]
    assert all(text.startswith("—") for text in shown.values()), shown
    error = lab.panel.locator("[data-lab-error]")
    assert error.is_visible()
    message = error.inner_text()
    label = built.book.lab_strings[f"{lab_id}.in.{name}"][lang]
    assert label in message and built.book.lab_strings["labs.invalid.title"][lang] in message, message
    assert lab.panel.locator(".lab-outputs").first.is_hidden()
    summary = lab.panel.locator(".lab-summary-invalid")
    assert (
        summary.is_visible() and summary.inner_text() == built.book.lab_strings["labs.summary_invalid"][lang]
    )
    assert (
        lab.panel.locator(f"[data-param='{name}']:not([type=range])").get_attribute("aria-invalid") == "true"
    )
    lab.set(name, contracts[lab_id]["defaults"][name])
    assert lab.state() == before, "a valid value brings the outputs back"
    assert error.is_hidden()
    lab.done()


@pytest.mark.parametrize("lab_id", LABS)
def test_key_outputs_stay_on_a_phone_screen_while_editing_any_input(labs, lab_id):
    lab = labs.get(lab_id, "en", PHONE)
    names = lab.panel.evaluate(
        "p => [...p.querySelectorAll('[data-param]:not([type=range])')].map(el => el.dataset.param)"
    )
    for name in names:
        field = lab.panel.locator(f"[data-param='{name}']:not([type=range])")
        field.focus()
        field.evaluate(
            "el => el.scrollIntoView({block: 'center'})"
        )  # where a reader editing it would hold it
        seen = lab.panel.evaluate(
            """(panel, name) => {
          const field = panel.querySelector(`[data-param='${name}']:not([type=range])`).getBoundingClientRect();
          const items = [...panel.querySelectorAll('.lab-summary-item')].filter(el => !el.hidden);
          return items.map(el => { const r = el.getBoundingClientRect(); const out = el.querySelector('[data-output]');
            const main = [...panel.querySelectorAll(`[data-output='${out.dataset.output}']`)].find(o => !o.closest('[data-lab-summary]'));
            return {top: r.top, bottom: r.bottom, text: out.textContent, main: main.textContent,
                    overlaps: r.top < field.bottom && r.bottom > field.top}; });
        }""",
            name,
        )
        assert seen, f"{lab_id}: no pinned output while editing {name}"
        for item in seen:
            assert 0 <= item["top"] and item["bottom"] <= PHONE["height"], (
                f"{lab_id}.{name}: pinned output off screen {item}"
            )
            assert not item["overlaps"], f"{lab_id}.{name}: the pinned outputs cover the input"
            assert item["text"] == item["main"]
    lab.done()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lab_id", LABS)
def test_charts_are_legible_on_a_phone_and_never_scroll_sideways(labs, lang, lab_id):
    lab = labs.get(lab_id, lang, PHONE)
    for preset in lab.panel.evaluate(
        "p => [...p.querySelectorAll('[data-preset]')].map(b => b.dataset.preset)"
    ):
        lab.preset(preset)
        charts = lab.panel.evaluate("""panel => [...panel.querySelectorAll('[data-lab-chart] svg')].map(svg => {
          const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          const texts = [...svg.querySelectorAll('text')];
          const box = svg.parentNode.getBoundingClientRect();
          return {smallest: Math.min(...texts.map(t => parseFloat(getComputedStyle(t).fontSize) * scale)), texts: texts.length,
                  inside: [...texts].every(t => { const r = t.getBoundingClientRect(); return r.left >= box.left - 1 && r.right <= box.right + 1; })};
        })""")
        assert charts, f"{lab_id}: no chart"
        for chart in charts:
            assert chart["texts"] and chart["smallest"] >= 13, f"{lab_id} {preset}: chart text {chart}"
            assert chart["inside"], f"{lab_id} {preset}: a chart label runs out of its box"
        assert lab.page.evaluate(
            "document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth"
        )
    lab.done()


def test_the_slow_pd_link_visibly_stretches_the_hand_off(labs):
    lab = labs.get("batch", "en")

    def widest_hand_off():
        return lab.panel.evaluate(
            "p => Math.max(0, ...[...p.querySelectorAll('[data-lab-chart] rect.lab-seg-cluster')].map(r => r.getBBox().width))"
        )

    lab.preset("pd-20gbs")
    fast = widest_hand_off()
    lab.preset("pd-2gbs")
    slow = widest_hand_off()
    assert slow >= 20 and slow >= 5 * fast, (fast, slow)
    assert lab.panel.locator("[data-lab-chart] text", has_text="L").count() >= 1, (
        "the long prompt is on the timeline"
    )
    lab.done()


@pytest.mark.parametrize("lang", LANGS)
def test_units_follow_the_number(labs, built, lang):
    strings = built.book.lab_strings
    lab = labs.get("memory", lang)
    lab.set("hbm_gib", 32)  # 14.9 GiB of weights + 16 GiB per 128K-token request: one fits
    assert lab.state()["outputs"]["max_concurrency"] == f"1 {strings['unit.requests.one'][lang]}"
    lab.set("hbm_gib", 80)
    assert lab.state()["outputs"]["max_concurrency"] == f"4 {strings['unit.requests'][lang]}"
    lab.done()
    lab = labs.get("batch", lang)
    lab.preset("static")
    assert lab.state()["outputs"]["ttft_p99_ms"] == f"14.4 {strings['unit.s'][lang]}"
    lab.done()


def test_lab_e_works_from_the_keyboard(labs, contracts):
    lab = labs.get("cost", "en", fresh=True)  # focus and keyboard state as a reader finds them
    page = lab.page
    first = lab.panel.locator("[data-preset]").first
    first.focus()
    page.keyboard.press("Enter")
    assert lab.state()["outputs"]["opt_cost_per_million"].startswith("2.22")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    assert lab.state()["outputs"]["task_cost_b"].startswith("0.10")
    slider = lab.panel.locator("input[type=range][data-param='local_speedup']")
    slider.focus()
    before = lab.state()["inputs"]["local_speedup"]
    for _ in range(20):
        page.keyboard.press("ArrowRight")
    after = lab.state()["inputs"]["local_speedup"]
    assert float(after) > float(before)
    box = lab.panel.locator("[data-param='cheap_share']:not([type=range])")
    box.focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("0.8")
    assert lab.state()["outputs"]["routing_mean_cost"].startswith("0.36")
    # Tab reaches every input in order, and every preset button is a real button
    names = []
    lab.panel.locator("[data-preset-reset]").focus()
    for _ in range(80):
        page.keyboard.press("Tab")
        name = page.evaluate("document.activeElement.dataset.param || ''")
        if not lab.panel.evaluate("(p) => p.contains(document.activeElement)"):
            break
        if name and name not in names:
            names.append(name)
    assert names == [i["param"] for i in contracts["cost"]["inputs"]]
    lab.done()


def test_chapter_labs_work_from_the_keyboard(labs):
    lab = labs.get("memory", "en", fresh=True)
    page = lab.page
    page.locator("[role=tab][aria-controls='lab-memory-panel']").focus()
    page.keyboard.press("Tab")  # into the panel: the first preset
    assert page.evaluate("document.activeElement.dataset.preset") == "gqa-128k"
    for _ in range(4):
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the fifth preset: 70B at 4 bits
    assert lab.state()["outputs"]["status"].startswith("KV-LIMITED")
    lab.done()


def test_a_lab_state_lives_in_the_address_and_survives_a_reload(browser, base):
    """Issue 32: '#lab-<id>-panel?name=value…' opens the lab with those inputs (its tab selected);
    'link to this state' writes the address (and copies it), and the address restores it."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(base + "en/ch14.html#lab-batch-panel")
    outputs = "[...document.querySelectorAll('#lab-batch-panel .lab-results [data-output]')].map(e => e.textContent)"
    page.locator("#lab-batch-panel.lab-js").wait_for(timeout=15000)
    defaults = page.evaluate(outputs)
    page.goto(base + "en/ch14.html#lab-batch-panel?long_len=20000&long_share=0.3")
    page.reload()
    page.locator("#lab-batch-panel.lab-js").wait_for(timeout=15000)
    assert page.locator("#lab-batch-tab").get_attribute("aria-selected") == "true", "its tab is selected"
    assert page.locator("#lab-batch-panel [data-param='long_len']:not([type=range])").input_value() == "20000"
    changed = page.evaluate(outputs)
    assert changed != defaults
    page.locator("#lab-batch-panel [data-lab-link]").click()
    assert "long_len=20000" in page.url and "long_share=0.3" in page.url and "strategy=" in page.url
    assert page.locator("#lab-batch-panel [data-lab-link-status]").text_content()
    again = context.new_page()
    again.goto(page.url)
    again.locator("#lab-batch-panel.lab-js").wait_for(timeout=15000)
    assert again.evaluate(outputs) == changed
    context.close()


NUMBER_IN_TEXT = re.compile(r"[−-]?[\d,]*\.?\d+")


def test_every_worked_example_a_lab_shows_opens_the_lab_showing_its_number(browser, base, built):
    """Issue 32: each example linked to a lab (examples.json `lab.links`, the numbers page's
    "open it in the lab") opens the lab in its state, and the lab's output there is the example's
    number as the book prints it. The build already runs the lab's function in that state; this
    walks the page the reader gets: the address, the restore, the formatting."""
    from atlas_site.resolve.number_format import format_number

    data = json.loads(built.output.text("examples.json"))
    linked = [e for e in data["examples"] if e["lab"]]
    assert len(linked) >= 20, "the Atlas links most of its lab-domain examples to their labs"
    numbers = {lang: built.output.text(f"{lang}/numbers.html") for lang in ("zh", "en")}
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    checked = 0
    for example in linked:
        links = example["lab"]["links"]
        assert set(links) == {"zh", "en"}
        assert links["zh"].removeprefix("zh/") == links["en"].removeprefix("en/"), (
            "one state in both languages"
        )
        for lang in links:
            if example["used_in"].get(lang):  # the numbers page lists the examples the prose shows
                assert f'href="{links[lang].removeprefix(lang + "/").replace("&", "&amp;")}"' in numbers[lang]
        panel = "#" + links["en"].split("#", 1)[1].split("?", 1)[0]
        page.goto(base + links["en"])
        page.reload()  # a hash change alone does not run the lab's set-up again
        page.locator(f"{panel}.lab-js").wait_for(timeout=15000)
        for mine, theirs in example["lab"]["shows"].items():
            output = example["outputs"][mine]
            element = page.locator(f"{panel} .lab-results [data-output='{theirs}']").first
            text = element.text_content().strip()
            if isinstance(output["value"], bool):
                labels = json.loads(element.get_attribute("data-labels") or "{}")
                assert text == labels[str(output["value"]).lower()], (example["id"], mine, text)
            else:
                found = NUMBER_IN_TEXT.search(text)
                assert found, (example["id"], theirs, text)
                shown = float(found.group(0).replace(",", "").replace("−", "-"))
                assert format_number(shown, output["digits"]) == format_number(
                    output["value"], output["digits"]
                ), (
                    f"{example['id']}.{mine}: the lab shows {text!r} for {theirs}, the book prints "
                    f"{format_number(output['value'], output['digits'])}"
                )
            checked += 1
    assert not errors, errors
    assert checked == sum(len(e["lab"]["shows"]) for e in linked)
    context.close()
