"""What the labs' gate (gates/labs.py, part of `check --browser`) does not drive: the key outputs
pinned on a phone while each input is edited, the keyboard, the address that holds a lab's state and
units in the singular. Every preset, Reset, click order, bad value and chart of every lab, and every
number against the model in Node, are the gate's, on every page of any book. The interface is the
engine's: it is driven on Lab A as the reader's fixture book (tests/projects/reader) places it, alone
on its chapter's first page; Labs B and D, their refusals and their paired durations, on its
tutorial page in their place (other_labs)."""

from __future__ import annotations

import pytest

from conftest import PHONE as ON_A_PHONE
from conftest import errors_in, new_tab, open_page

PAGE_OF = {"memory": "ch1"}  # the reader's fixture book
LABS = list(PAGE_OF)
LANGS = ("zh", "en")
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}

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
def reader_book(reader_build):
    return reader_build[0]


@pytest.fixture(scope="module")
def contracts(reader_book) -> dict:
    return {lab_id: lab.model_dump() for lab_id, lab in reader_book.book.labs.items()}


class Lab:
    """One lab on a freshly loaded page, its code live."""

    def __init__(self, browser, base: str, lab: str, lang: str, viewport=LAPTOP, page_id: str | None = None):
        self.context, self.page = new_tab({"browser": browser, "base": base}, viewport=viewport)
        self.errors = errors_in(self.page)
        self.url = base + f"{lang}/{page_id or PAGE_OF[lab]}.html"
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
    (the labs' gate proves that on every page, for every lab), or freshly reloaded when what it
    checks is the page as it loads."""

    def __init__(self, browser, base: str, page_of: dict[str, str] = PAGE_OF):
        self.browser, self.base, self.page_of, self.pages = browser, base, page_of, {}

    def get(self, lab: str, lang: str, viewport=LAPTOP, fresh: bool = False) -> Lab:
        key = (lab, lang, viewport["width"], viewport["height"])
        page = self.pages.get(key)
        if page is None:
            page = self.pages[key] = Lab(self.browser, self.base, lab, lang, viewport, self.page_of[lab])
        elif fresh:
            page.open()
        else:
            page.preset(None)
        return page

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()


@pytest.fixture(scope="module")
def labs(browser, reader_site_url):
    pages = LoadedLabs(browser, reader_site_url)
    yield pages
    pages.close()


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
          const items = [...panel.querySelectorAll('.lab-summary-item')].filter(el => !el.closest('.lab-summary-off'));
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
            # a state reads by its name ("FIT"), its sentence by the outputs (review 31-k #9)
            assert item["text"] == item["main"] or item["main"].startswith(item["text"] + ":"), item
    summary = lab.panel.locator(".lab-summary").bounding_box()
    assert summary["height"] <= 0.1 * PHONE["height"], (
        f"{lab_id}: the pinned summary is {summary['height']:.0f} px"
    )
    lab.done()


@pytest.mark.parametrize("lab_id", LABS)
def test_a_presets_effect_shows_under_the_tap_on_a_phone(labs, lab_id):
    """Review 31-w #1: on a phone the outputs stood below all the inputs, 1.4-1.9 screens from the
    preset that changed them. With the presets at the top of the screen, a tap leaves the outputs
    and the chart that changed in view, above the pinned summary."""
    lab = labs.get(lab_id, "en", PHONE)
    preset = lab.panel.locator("[data-preset]").last
    preset.evaluate("el => el.closest('.lab-presets').scrollIntoView({block: 'start'})")
    preset.click()
    seen = lab.panel.evaluate(
        """panel => {
      const summary = panel.querySelector('.lab-summary').getBoundingClientRect();
      const bottom = Math.min(innerHeight, summary.top > 0 ? summary.top : innerHeight);
      const first = panel.querySelector('.lab-body .lab-outputs .lab-out');
      const chart = panel.querySelector('.lab-body .lab-chart');
      return {bottom, output: first.getBoundingClientRect().bottom,
              chart: chart ? chart.getBoundingClientRect().top : null};
    }"""
    )
    assert seen["output"] <= seen["bottom"], f"{lab_id}: the first output ends at {seen}, under the fold"
    if seen["chart"] is not None:
        assert seen["chart"] <= seen["bottom"], f"{lab_id}: the chart starts under the fold: {seen}"
    lab.done()


@pytest.mark.parametrize("lab_id", LABS)
def test_a_field_being_retyped_on_a_phone_stays_where_it_is(labs, lab_id):
    """Review 31-x #1: on a phone the outputs stand above the inputs; an empty or refused value took
    them away (display: none) and the field being typed in jumped ~700 px up under the header, and
    back once the value was valid. Their room is kept while the value is refused."""
    lab = labs.get(lab_id, "en", PHONE)
    field = lab.panel.locator("[data-param]:not([type=range]):not(select)").last
    field.evaluate("el => el.scrollIntoView({block: 'center'})")
    top = field.evaluate("el => el.getBoundingClientRect().top")
    field.fill("")
    emptied = field.evaluate("el => el.getBoundingClientRect().top")
    assert lab.panel.get_attribute("data-invalid") is not None, "an empty field is refused"
    assert abs(emptied - top) < 2, f"{lab_id}: the field moved from {top:.0f} to {emptied:.0f} px"
    lab.preset(None)
    lab.done()


@pytest.mark.parametrize("lang", LANGS)
def test_units_follow_the_number(labs, reader_book, lang):
    strings = reader_book.book.lab_strings
    lab = labs.get("memory", lang)
    lab.set("hbm_gib", 32)  # 14.9 GiB of weights + 16 GiB per 128K-token request: one fits
    assert lab.state()["outputs"]["max_concurrency"] == f"1 {strings['unit.requests.one'][lang]}"
    lab.set("hbm_gib", 80)
    assert lab.state()["outputs"]["max_concurrency"] == f"4 {strings['unit.requests'][lang]}"
    lab.done()


def test_a_lab_works_from_the_keyboard(labs, contracts):
    """Presets by Enter and Space, a slider by the arrow keys, a value typed into a box, and Tab
    through every input in the contract's order (on the Atlas this drove Lab E)."""
    lab = labs.get("memory", "en", fresh=True)  # focus and keyboard state as a reader finds them
    page = lab.page
    first = lab.panel.locator("[data-preset]").first
    first.focus()
    page.keyboard.press("Enter")
    assert lab.state()["outputs"]["kv_kib_per_token"].startswith("128.00")
    page.keyboard.press("Tab")
    # one focus ring on every page (review 31-n #9: one control drew its own, thinner and darker)
    ring = page.evaluate(
        """() => { const s = getComputedStyle(document.activeElement), c = document.createElement('canvas').getContext('2d');
          const norm = (v) => { c.fillStyle = '#000'; c.fillStyle = v.trim(); return c.fillStyle; };
          return [s.outlineStyle, s.outlineWidth, norm(s.outlineColor),
                  norm(getComputedStyle(document.documentElement).getPropertyValue('--c-focus'))]; }"""
    )
    assert ring[:2] == ["solid", "3px"] and ring[2] == ring[3], ring
    page.keyboard.press("Space")
    assert lab.state()["outputs"]["kv_kib_per_token"].startswith("512.00")  # the same model as MHA
    slider = lab.panel.locator("input[type=range][data-param='context_len']")
    slider.focus()
    before = lab.state()["inputs"]["context_len"]
    for _ in range(20):
        page.keyboard.press("ArrowRight")
    after = lab.state()["inputs"]["context_len"]
    assert float(after) > float(before)
    box = lab.panel.locator("[data-param='params_b']:not([type=range])")
    box.focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("70")
    assert lab.state()["outputs"]["weight_gib"].startswith("130.39")  # 70B at 16 bits
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
    shown = lab.panel.evaluate(
        "p => [...p.querySelectorAll('[data-param]:not([type=range])')]"
        ".filter(el => el.getClientRects().length).map(el => el.dataset.param)"
    )
    assert names == [i["param"] for i in contracts["memory"]["inputs"] if i["param"] in shown]
    lab.done()


def test_inputs_a_choice_does_not_use_are_put_away_and_nothing_above_the_choice_moves(labs, contracts):
    """Review 31-j #12: with GQA chosen, Lab A still showed the MLA ratio and the KDA inputs. The
    inputs a choice does not use are out of sight (and of the Tab order) until one uses them, and
    they come after the choice in the contract, so choosing never moves the choice itself."""
    lab = labs.get("memory", "en")
    shown = "p => [...p.querySelectorAll('[data-param]:not([type=range])')].filter(el => el.getClientRects().length).map(el => el.dataset.param)"
    order = [i["param"] for i in contracts["memory"]["inputs"]]
    choice = lab.panel.locator("select[data-param='attention']")
    # measured from the top of the inputs: above them, the preset's note may change its length
    WITHIN_INPUTS = (
        "el => el.getBoundingClientRect().top - el.closest('.lab-inputs').getBoundingClientRect().top"
    )
    top = choice.evaluate(WITHIN_INPUTS)
    seen = {}
    for kind in ("gqa", "mla", "kda_hybrid", "mha"):
        lab.set("attention", kind)
        seen[kind] = set(lab.panel.evaluate(shown))
        assert choice.evaluate(WITHIN_INPUTS) == top, kind
    assert "kv_heads" in seen["gqa"] and not {"mla_latent_ratio", "kda_share", "kda_state_kib"} & seen["gqa"]
    assert "mla_latent_ratio" in seen["mla"] and "kv_heads" not in seen["mla"]
    assert {"kda_share", "kda_state_kib"} <= seen["kda_hybrid"]
    assert seen["mha"] == set(order) - {"kv_heads", "mla_latent_ratio", "kda_share", "kda_state_kib"}
    put_away = set(order) - set.intersection(*seen.values())
    assert all(order.index(name) > order.index("attention") for name in put_away), put_away
    lab.done()


def test_presets_are_reached_by_tab_in_order(labs):
    """On the Atlas this entered the panel from its tab (four labs in a tablist); a lab on its own
    has no tab: from its first preset, Tab walks the presets in order and Enter applies one."""
    lab = labs.get("memory", "en", fresh=True)
    page = lab.page
    lab.panel.locator("[data-preset]").first.focus()
    assert page.evaluate("document.activeElement.dataset.preset") == "gqa-128k"
    for _ in range(4):
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the fifth preset: 70B at 4 bits
    assert lab.state()["outputs"]["status"].startswith("KV-LIMITED")
    lab.done()


def test_reset_is_an_action_and_the_defaults_scenario_is_pressed_after_it(labs):
    """Review 31-p #13: "Reset to defaults" took aria-pressed="true" and the chosen chip's outline,
    so a screen reader said "Reset to defaults, pressed": an action has no state. After a reset the
    presets say which scenario shows, as on the first load."""
    lab = labs.get("memory", "en", fresh=True)
    pressed = "[...document.querySelectorAll('[data-lab=memory] [data-preset]')].map(b => b.getAttribute('aria-pressed'))"
    first = lab.page.evaluate(pressed)
    lab.preset(lab.panel.locator("[data-preset]").nth(2).get_attribute("data-preset"))
    lab.preset(None)
    reset = lab.panel.locator("[data-preset-reset]")
    assert reset.get_attribute("aria-pressed") is None, "the reset has no pressed state"
    assert lab.page.evaluate(pressed) == first, "after a reset the presets are as they loaded"
    lab.done()


def test_a_lab_state_lives_in_the_address_and_survives_a_reload(browser, reader_site_url):
    """Issue 32: '#lab-<id>-panel?name=value…' opens the lab with those inputs;
    'link to this state' writes the address (and copies it), and the address restores it."""
    base = reader_site_url
    context, page = open_page(
        {"browser": browser, "base": base},
        "en/ch1.html#lab-memory-panel",
        viewport={"width": 1280, "height": 900},
    )
    outputs = "[...document.querySelectorAll('#lab-memory-panel .lab-results [data-output]')].map(e => e.textContent)"
    page.locator("#lab-memory-panel.lab-js").wait_for(timeout=15000)
    defaults = page.evaluate(outputs)
    page.goto(base + "en/ch1.html#lab-memory-panel?context_len=65536&concurrency=3")
    page.reload()
    page.locator("#lab-memory-panel.lab-js").wait_for(timeout=15000)
    assert page.locator("#lab-memory-panel").is_visible(), "the lab is shown (alone, it has no tab)"
    assert (
        page.locator("#lab-memory-panel [data-param='context_len']:not([type=range])").input_value()
        == "65536"
    )
    changed = page.evaluate(outputs)
    assert changed != defaults
    page.locator("#lab-memory-panel [data-lab-link]").click()
    assert "context_len=65536" in page.url and "concurrency=3" in page.url and "attention=" in page.url
    # said once the clipboard has answered (a promise: under load it settles after the click returns)
    page.wait_for_function(
        "() => document.querySelector('#lab-memory-panel [data-lab-link-status]').textContent !== ''"
    )
    again = context.new_page()
    again.goto(page.url)
    again.locator("#lab-memory-panel.lab-js").wait_for(timeout=15000)
    assert again.evaluate(outputs) == changed
    context.close()


def test_lab_a_marks_where_its_curve_leaves_the_chart(labs, reader_book):
    """Review 31-j: the KV curve was cut at the chart's ceiling with no mark that it goes on. Where it
    leaves the top an arrow and its label say so; a curve that stays inside the chart has none."""
    words = reader_book.book.lab_strings["memory.chart.above"]["en"]
    lab = labs.get("memory", "en")
    texts = "p => [...p.querySelectorAll('[data-lab-chart] svg text')].map(t => t.textContent)"
    assert words in lab.panel.evaluate(texts), "at 128K tokens and B = 4 the curve leaves an 80 GiB chart"
    lab.set("concurrency", 1)
    lab.set("hbm_gib", 4096)
    assert words not in lab.panel.evaluate(texts), "a curve inside the chart gets no arrow"
    lab.done()


@pytest.fixture(scope="module")
def other_labs(browser, tmp_path_factory):
    """The reader's book with Labs B and D where its tutorial places C and E: the engine's form
    code over the models that refuse a pair of inputs and show durations side by side."""
    from atlas_site.gates.browser import serve_folder
    from conftest import built_cleanly, edit, make_reader

    workspace = tmp_path_factory.mktemp("other-labs")
    project = make_reader(workspace)
    for lang in ("zh", "en"):
        edit(
            project / "content" / lang / "tut-labs" / "index.md",
            "{{labs:speculative,cost}}",
            "{{labs:batch,fleet}}",
        )
    with serve_folder(built_cleanly(project, workspace / "_site")[1]) as url:
        pages = LoadedLabs(browser, url, {"batch": "tut-labs", "fleet": "tut-labs"})
        yield pages
        pages.close()


def _field_note(lab: Lab, name: str) -> str:
    """The message under the field of input `name` ('' when there is none), that field's
    aria-describedby pointing at it."""
    box = lab.panel.locator(f"[data-param='{name}']:not([type=range])")
    return box.evaluate(
        "el => { const id = el.getAttribute('aria-describedby'); const note = id && document.getElementById(id);"
        " return note ? note.textContent : ''; }"
    )


def test_a_pair_of_inputs_the_model_does_not_take_is_refused_at_the_field_naming_the_other(other_labs):
    """Review 31-k #6: a hash block longer than the physical page, a prefill chunk larger than the
    token budget and a secondary failure with one cluster were taken without a word."""
    fleet = other_labs.get("fleet", "en")
    fleet.set("hash_block", 7000)
    assert fleet.panel.get_attribute("data-invalid") == "true"
    assert _field_note(fleet, "hash_block") == "Hash block must not exceed “Physical page” (6,144)."
    fleet.set("hash_block", 512)
    assert fleet.panel.get_attribute("data-invalid") is None and _field_note(fleet, "hash_block") == ""
    failure = fleet.panel.locator("[data-param='secondary_failure']")
    fleet.set("clusters", 1)
    assert not failure.is_visible(), "one cluster has none to fail over to"
    fleet.set("clusters", 2)
    assert failure.is_visible()
    fleet.done()
    batch = other_labs.get("batch", "zh")
    batch.set("strategy", "chunked")
    batch.set("token_budget", 64)
    assert _field_note(batch, "chunk_size") == "“prefill 块大小”不能大于“每轮 token 预算”（64）。"
    batch.set("strategy", "continuous")  # the chunk size is not used: nothing to refuse
    assert batch.panel.get_attribute("data-invalid") is None
    batch.done()


def test_a_screen_reader_hears_what_is_wrong_and_then_the_mended_outputs(other_labs):
    """Review 31-n #10: with every output showing "—", the lab's live status still said the last
    verdict; once the inputs are mended, the outputs are said again."""
    fleet = other_labs.get("fleet", "en")
    live = fleet.panel.locator("[data-lab-live]")
    fleet.set("hash_block", 7000)
    said = live.text_content()
    assert "Hash block must not exceed" in said, said
    fleet.set("hash_block", 512)
    said = live.text_content()
    assert said and "must not exceed" not in said, said
    fleet.done()


def test_a_p50_is_shown_in_the_unit_of_its_p99(other_labs):
    """Review 31-k #5: static batching showed TTFT P50 "7,183 ms" beside P99 "14.4 s"."""
    batch = other_labs.get("batch", "en")
    outputs = batch.preset_and_state("static")["outputs"]
    p50, p99 = outputs["ttft_p50_ms"].split(), outputs["ttft_p99_ms"].split()
    assert p50[1] == p99[1] == "s", outputs
    assert float(p50[0].replace(",", "")) < float(p99[0].replace(",", ""))
    batch.done()


def test_the_pinned_summary_shows_the_group_a_preset_sets(other_labs):
    """Review 31-l #3: on a phone Lab D's hit-boundary preset left the pinned summary on the routing
    outputs; its answer (2,560 tokens) was screens further down."""
    fleet = other_labs.get("fleet", "en", PHONE)
    fleet.preset("k3-hit-boundary")
    shown = fleet.panel.evaluate(
        "p => [...p.querySelectorAll('.lab-summary-group:not(.lab-summary-off) .lab-summary-item')]"
        ".map(el => [el.parentNode.dataset.group, el.querySelector('[data-output]').textContent])"
    )
    assert shown and all(group == "boundary" for group, _ in shown), shown
    assert ["boundary", "2,560"] in shown, shown
    fleet.done()


def test_the_pinned_summary_keeps_one_height_whichever_group_it_shows(other_labs):
    """Review 31-l #6: the tutorial's cost lab made its page 24 px longer and shorter as the reader
    scrolled through it, its summary one line for one group and two for the next. The summary
    keeps the height of its tallest group."""
    fleet = other_labs.get("fleet", "en", PHONE)
    heights = {}
    for group in fleet.panel.evaluate(
        "p => [...new Set([...p.querySelectorAll('.lab-summary [data-group]')].map(el => el.dataset.group))]"
    ):
        box = fleet.panel.locator(f".lab-body[data-group='{group}'] input:not([type=range])").first
        box.focus()
        heights[group] = fleet.panel.evaluate(
            "p => p.querySelector('.lab-summary').getBoundingClientRect().height"
        )
    assert len(heights) >= 3 and max(heights.values()) - min(heights.values()) <= 1, heights
    fleet.done()


def test_a_charts_legend_names_only_what_it_draws(other_labs):
    """Review 31-l: Lab B's timeline legend listed "KV hand-off" under a continuous-batching run,
    which has none."""
    batch = other_labs.get("batch", "en")
    LEGEND = "p => [...p.querySelectorAll('.lab-legend li')].filter(li => !li.hidden).map(li => li.textContent.trim())"
    batch.set("strategy", "continuous")
    assert "KV hand-off" not in batch.panel.evaluate(LEGEND)
    batch.set("strategy", "pd")
    assert "KV hand-off" in batch.panel.evaluate(LEGEND)
    # review 31-x #9: the queue's grey, laid over the panel, stands 3:1 against it in both schemes
    for scheme in ("light", "dark"):
        batch.page.emulate_media(color_scheme=scheme)
        ratio = batch.panel.evaluate(QUEUE_CONTRAST)
        assert ratio >= 3, f"{scheme}: the queue segment is {ratio:.2f}:1 against the panel"
    batch.page.emulate_media(color_scheme="light")
    batch.done()


# the queue segment's fill at its opacity laid over the panel's background, against that background
QUEUE_CONTRAST = """panel => {
  const seg = panel.querySelector('.lab-seg-queue'), style = getComputedStyle(seg);
  const rgb = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const fill = rgb(style.fill), back = rgb(getComputedStyle(panel).backgroundColor), a = Number(style.opacity);
  const mixed = fill.map((v, i) => a * v + (1 - a) * back[i]);
  const lum = c => { const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [hi, lo] = [lum(mixed), lum(back)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_preset_applied_is_filled_not_outlined_like_focus(browser, reader_site_url, scheme):
    """Review 31-u #6: in the dark scheme the pressed preset showed only an outline, which read as the
    focus ring. The applied preset has a background of its own, unlike the others."""
    site = {"browser": browser, "base": reader_site_url}
    context, page = open_page(
        site, "en/ch1.html#lab-memory-panel", color_scheme=scheme, **{"viewport": LAPTOP}
    )
    try:
        page.locator("#lab-memory-panel.lab-js").wait_for(timeout=15000)
        chips = page.locator("#lab-memory-panel .lab-preset")
        chips.nth(1).click()
        fills = chips.evaluate_all(
            "els => els.map(el => [el.getAttribute('aria-pressed'), getComputedStyle(el).backgroundColor])"
        )
    finally:
        context.close()
    pressed = {fill for state, fill in fills if state == "true"}
    others = {fill for state, fill in fills if state != "true"}
    assert len(pressed) == 1 and not pressed & others, fills


def test_a_symbols_subscript_is_set_as_in_the_form_in_outputs_and_charts(browser, reader_site_url):
    """Review 31-x #7: Lab E's form showed BW<sub>eff</sub> while its bottleneck output read
    "M / BW_eff is the largest term" and its chart "memory M/BW_eff"."""
    lab = Lab(browser, reader_site_url, "cost", "en", LAPTOP, "tut-labs")
    try:
        lab.set("hbm_tbps", 0.1)  # memory binds: the output names M / BW_eff
        seen = lab.panel.evaluate(
            """p => ({out: p.querySelector('[data-output="bottleneck"]:not([data-lab-summary] *)').innerHTML,
                     chart: [...p.querySelectorAll('.lab-chart text')].map(t => t.innerHTML).filter(h => h.includes('eff'))})"""
        )
        assert "BW<sub>eff</sub>" in seen["out"] and "_" not in seen["out"], seen["out"]
        assert seen["chart"] and all("<tspan" in h and "_eff" not in h for h in seen["chart"]), seen["chart"]
        lab.done()
    finally:
        lab.context.close()


@pytest.mark.parametrize(
    ("start", "box", "twin"),
    [
        (
            "zh/ch1.html#lab-memory-panel",
            "#lab-memory-panel [data-param='context_len']:not([type=range])",
            "en/ch1.html",
        ),
        ("en/tut-map.html#map-", None, "zh/tut-map.html"),
    ],
)
def test_the_language_switch_carries_a_lab_in_use_and_a_selected_map_node(
    browser, reader_site_url, start, box, twin
):
    """Review 31-z #1, #6: from inside a lab with an edited input the switch carried the section
    above it (the twin opened its first lab at the defaults), and from the map with a node selected
    it carried the map's section with nothing selected."""
    site = {"browser": browser, "base": reader_site_url}
    context, page = open_page(site, start.split("#map-")[0], **ON_A_PHONE)
    if box:
        page.locator("#lab-memory-panel.lab-js").wait_for(timeout=15000)
        page.locator(box).fill("65536")
        page.locator(box).dispatch_event("change")
        wanted = "#lab-memory-panel?"
    else:
        node = page.locator("[data-devmap] .devmap-chip").nth(1)
        node.scroll_into_view_if_needed()
        node.tap()
        wanted = "#map-" + node.get_attribute("data-node")
    switch = page.locator("[data-lang-switch]")
    switch.dispatch_event("touchstart")
    href = switch.get_attribute("href")
    assert wanted in href and (not box or "context_len=65536" in href), href
    switch.tap()
    page.wait_for_url(f"**/{twin}*")
    page.wait_for_load_state("load")
    if box:
        page.locator("#lab-memory-panel.lab-js").wait_for(timeout=15000)
        assert page.locator(box).input_value() == "65536"
        top = page.evaluate("document.getElementById('lab-memory-panel').getBoundingClientRect().top")
        assert 0 <= top < page.evaluate("innerHeight"), f"the lab is {top} px from the top"
    else:
        selected = page.locator("[data-devmap] .devmap-chip[aria-pressed='true']")
        selected.wait_for(timeout=15000)
        assert selected.get_attribute("data-node") == wanted.split("map-")[1]
    context.close()
