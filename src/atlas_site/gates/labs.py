"""The labs' gate (part of `check --browser`): every lab on every page, driven in the page as a
reader drives it, checked against the lab's own model run in Node.

In the page at 390 px (one script per lab and one for its charts): every preset and Reset gives
the same state whatever was clicked before, and after a reader's own edits; each preset shows
something of its own; Reset restores the page as it loaded; a preset marked pressed as the lab
loads is the scenario it starts in (it changes nothing), every other preset changes an output;
every number box, left empty or set below its range, replaces the outputs with a message and
marks the box invalid, and its default value brings the outputs back; across the presets, the
lab's chart text is at least 13 px and inside its box, and the page never scrolls sideways.
After the walk, in Node (one run for every page): the numbers each state shows (as loaded, each
preset, every box at its maximum) equal what the lab's function computes for the inputs the page
holds, at the digits the page shows (labs_js/compute.js, the runner of the build's examples).

The checks run on the Atlas's pages and on any book's: what grows with the labs is the work of
one walk, never a test case."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

MIN_CHART_TEXT_PX = 13

# One lab panel: its states, measured in the page in one round trip at the walk's first width (the labs update in their
# click and input handlers, so a state read right after is the state the reader sees).
_VISIT = """panel => {
  const tab = document.querySelector(`[role=tab][aria-controls="${CSS.escape(panel.id)}"]`);
  if (tab && tab.getAttribute('aria-selected') !== 'true') tab.click();
  const unitKeys = Object.fromEntries(Object.entries(JSON.parse(panel.dataset.units || '{}')).map(([k, v]) => [v, k]));
  const mains = [...panel.querySelectorAll('[data-output]')].filter(el => !el.closest('[data-lab-summary]'));
  const boxes = [...panel.querySelectorAll('[data-param]:not([type=range])')];
  const status = panel.querySelector('[data-preset-status]');
  const state = () => {
    const outputs = {}, units = {};
    for (const el of mains) {
      const next = el.nextElementSibling;
      const unit = next && next.classList.contains('lab-unit') ? next.textContent : '';
      // a subscript read back as the lab's strings write it (BW<sub>eff</sub> -> BW_eff)
      const said = [...el.childNodes].map(n => (n.nodeName === 'SUB' ? '_' : '') + n.textContent).join('');
      outputs[el.dataset.output] = (said.trim() + ' ' + unit).trim();
      if (el.hasAttribute('data-duration')) units[el.dataset.output] = unitKeys[unit] || unit;
    }
    return {note: status ? status.textContent : '', outputs, units,
            inputs: Object.fromEntries(boxes.map(el => [el.dataset.param, el.type === 'checkbox' ? el.checked : el.value]))};
  };
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const button = id => id === null ? panel.querySelector('[data-preset-reset]')
    : panel.querySelector(`[data-preset="${CSS.escape(id)}"]`);
  const press = id => { button(id).click(); return state(); };
  const type = (el, value) => { el.value = value; el.dispatchEvent(new Event('input', {bubbles: true})); };
  const ids = [...panel.querySelectorAll('[data-preset]')].map(b => b.dataset.preset);
  const labels = Object.fromEntries(mains.filter(el => el.dataset.labels).map(el => [el.dataset.output, JSON.parse(el.dataset.labels)]));
  const loaded = state();
  if (!button(null)) return {loaded, labels, ids, fresh: {}, reset: loaded, order: [], edits: [], invalid: [], edited: null};
  const fresh = {};
  for (const id of ids) { press(null); fresh[id] = press(id); }
  const reset = press(null);
  const order = [];
  for (const a of [...ids, null]) for (const b of [...ids, null]) {
    if (a === b) continue;
    press(a);
    if (!same(press(b), b === null ? reset : fresh[b])) order.push([a, b]);
  }
  // a reader's own scenario: every number box at its maximum, every checkbox turned; then each preset
  const edit = () => {
    press(null);
    for (const el of boxes) {
      if (el.type === 'checkbox') { el.checked = !el.checked; el.dispatchEvent(new Event('input', {bubbles: true})); }
      else if (el.type === 'number' && el.max !== '') type(el, el.max);
    }
    return state();
  };
  const edited = edit();
  const edits = [];
  for (const id of [...ids, null]) {
    edit();
    if (!same(press(id), id === null ? reset : fresh[id])) edits.push(id);
  }
  const invalid = [];
  const error = panel.querySelector('[data-lab-error]');
  const settled = s => ({inputs: s.inputs, outputs: s.outputs, units: s.units});
  for (const el of boxes.filter(el => el.type === 'number')) {
    const step = Number(el.step) > 0 ? Number(el.step) : 1;
    const bad = [''].concat(el.min === '' ? [] : [String(Number(el.min) - step)]);
    for (const value of bad) {
      press(null);
      type(el, value);
      const shown = state();
      const why = [];
      if (!Object.values(shown.outputs).every(t => t.startsWith('—'))) why.push('the outputs still show numbers');
      if (!error || error.hidden || !error.getClientRects().length || !error.textContent.trim()) why.push('no message says what is wrong');
      if (el.getAttribute('aria-invalid') !== 'true') why.push('the box is not marked aria-invalid');
      type(el, el.defaultValue);
      if (!same(settled(state()), settled(reset))) why.push('its default value does not bring the outputs back');
      if (why.length) invalid.push([el.dataset.param, value, why]);
    }
  }
  press(null);
  return {loaded, labels, ids, fresh, reset, order, edits, invalid, edited};
}"""

# The lab's charts at a phone's width, across its presets: text too small or outside the box, and
# a page that scrolls sideways.
_CHARTS = """(panel, least) => {
  const tab = document.querySelector(`[role=tab][aria-controls="${CSS.escape(panel.id)}"]`);
  if (tab && tab.getAttribute('aria-selected') !== 'true') tab.click();
  const found = [];
  const presets = [...panel.querySelectorAll('[data-preset]')];
  for (const button of [null, ...presets]) {
    if (button) button.click();
    const name = button ? button.dataset.preset : 'as loaded';
    for (const svg of panel.querySelectorAll('[data-lab-chart] svg')) {
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const box = svg.parentNode.getBoundingClientRect();
      for (const t of svg.querySelectorAll('text')) {
        const px = parseFloat(getComputedStyle(t).fontSize) * scale;
        const r = t.getBoundingClientRect();
        if (px < least) found.push(`${name}: chart text "${t.textContent}" is ${px.toFixed(1)} px`);
        if (r.width && (r.left < box.left - 1 || r.right > box.right + 1)) found.push(`${name}: chart text "${t.textContent}" runs out of its box`);
      }
    }
    const page = document.scrollingElement;
    if (page.scrollWidth > page.clientWidth) found.push(`${name}: the page scrolls sideways (${page.scrollWidth} > ${page.clientWidth})`);
  }
  const reset = panel.querySelector('[data-preset-reset]');
  if (reset) reset.click();
  return [...new Set(found)];
}"""

_PANELS = "[data-lab].lab-js"
EDITED = "every box at its maximum"  # the state of a reader's own edits, compared with the model too


@dataclass(frozen=True)
class LabVisit:
    """What one lab showed on one page: its states by preset (None: as loaded) and what the page
    itself found wrong."""

    path: str
    lab: str
    states: dict  # preset id or "" (as loaded) -> {inputs, outputs, units, note}
    labels: dict  # output -> {model value: text}
    problems: tuple[str, ...]


def visit_labs(page, path: str) -> list[LabVisit]:
    """Every live lab of the page, driven through its presets, Reset and number boxes. What each
    shows pressed is read before anything is clicked (any click moves the mark); the tabs selected
    before are selected again after, so the other gates see the page as it loaded."""
    pressed = page.evaluate(
        """sel => Object.fromEntries([...document.querySelectorAll(sel)].map(panel => [panel.dataset.lab,
          [...panel.querySelectorAll('[data-preset][aria-pressed=true]')].map(b => b.dataset.preset)]))""",
        _PANELS,
    )
    selected = page.evaluate(
        "() => [...document.querySelectorAll('[role=tab][aria-selected=true]')].map(t => t.id)"
    )
    visits = []
    panels = page.locator(_PANELS)
    for index in range(panels.count()):
        panel = panels.nth(index)
        lab = panel.get_attribute("data-lab") or ""
        seen = panel.evaluate(_VISIT)
        seen["pressed"] = pressed.get(lab, [])
        visits.append(
            LabVisit(
                path,
                lab,
                {"": seen["loaded"], **seen["fresh"], **({EDITED: seen["edited"]} if seen["edited"] else {})},
                seen["labels"],
                tuple(_page_problems(seen)),
            )
        )
    page.evaluate("ids => ids.forEach(id => document.getElementById(id).click())", [i for i in selected if i])
    return visits


def _name(preset) -> str:
    return "Reset" if preset is None else f"preset {preset}"


def _page_problems(seen: dict) -> list[str]:
    problems = []
    states = {json_key(s) for s in seen["fresh"].values()}
    if len(states) < len(seen["fresh"]):
        problems.append(
            "two presets show the same inputs, outputs and note: each should show a case of its own"
        )
    if seen["fresh"] and _settled(seen["reset"]) != _settled(seen["loaded"]):
        problems.append("Reset does not restore the lab as it loaded")
    problems += [
        f"{_name(b)} after {_name(a)} differs from {_name(b)} on a fresh page" for a, b in seen["order"]
    ]
    problems += [f"{_name(p)} after a reader's own edits differs from a fresh page" for p in seen["edits"]]
    for preset, state in seen["fresh"].items():
        changes = state["outputs"] != seen["loaded"]["outputs"]
        if preset in seen["pressed"] and changes:
            problems.append(f"preset {preset} is shown pressed as the lab loads but changes its outputs")
        if preset not in seen["pressed"] and not changes:
            problems.append(
                f"preset {preset} changes no output: mark it as the scenario the lab starts in, or make it show its case"
            )
    if len(seen["pressed"]) > 1:
        problems.append(f"{len(seen['pressed'])} presets are shown pressed as the lab loads")
    for name, value, why in seen["invalid"]:
        problems.append(f"input {name} = {value!r}: {'; '.join(why)}")
    return problems


def _settled(state: dict) -> dict:
    return {k: state[k] for k in ("inputs", "outputs", "units")}


def json_key(state: dict) -> str:
    return json.dumps(state, sort_keys=True, ensure_ascii=False)


def chart_problems(page) -> list[tuple[str, str]]:
    """(lab, problem) for the charts of every live lab at the page's width (the walk: 390 px)."""
    found = []
    panels = page.locator(_PANELS)
    for index in range(panels.count()):
        panel = panels.nth(index)
        lab = panel.get_attribute("data-lab") or ""
        found += [(lab, line) for line in panel.evaluate(_CHARTS, MIN_CHART_TEXT_PX)]
    return found


# ------------------------------------------------------------------ the numbers against the model

DURATION_MS = {"ms": 1.0, "s": 1e3, "min": 6e4, "h": 3.6e6}
_NUMBER = re.compile(r"[−+-]?[\d,]*\.?\d+")


def model_inputs(inputs: dict) -> dict:
    """The page's input values as the model takes them: numbers where the box holds a number."""

    def value(v):
        if isinstance(v, bool):
            return v
        return float(v) if re.fullmatch(r"-?\d+(\.\d+)?(e-?\d+)?", v) else v

    return {k: value(v) for k, v in inputs.items()}


def shown_differences(contract: dict, state: dict, labels: dict, model: dict) -> list[str]:
    """Each output whose text differs from the model's value at the digits the page shows."""
    found = []
    for spec in contract.get("outputs", []):
        name = spec["name"]
        text = state["outputs"].get(name)
        if text is None:
            found.append(f"{name}: not on the page")
            continue
        want = model.get(name)
        if isinstance(want, dict) and "$nonfinite" in want:  # how compute.js sends ±Infinity and NaN
            want = float(want["$nonfinite"].replace("Infinity", "inf"))
        if spec.get("labels"):
            key = str(want).lower() if isinstance(want, bool) else str(want)
            expected = labels.get(name, {}).get(key, key)
            if text != expected:
                found.append(f"{name}: page {text!r}, model {expected!r}")
            continue
        match = _NUMBER.match(text.replace("−", "-"))
        if want is None or (isinstance(want, float) and not math.isfinite(want)):
            if not text.lstrip("−-").startswith("∞" if want is None or not math.isnan(want) else "—"):
                found.append(f"{name}: page {text!r}, model {want!r} (shown as ∞)")
            continue
        if not match or not isinstance(want, (int, float)):
            found.append(f"{name}: page {text!r}, model {want!r}")
            continue
        number = float(match.group(0).replace(",", ""))
        expected_value = float(want) * (100 if spec.get("percent") else 1)
        digits = spec.get("digits", 1 if spec.get("percent") else 0)
        if spec.get("duration"):
            scale = DURATION_MS.get(state["units"].get(name, "ms"), 1.0)
            expected_value, digits = expected_value / scale, (digits if scale == 1 else 1)
        if abs(number - expected_value) > 0.5 * 10**-digits + 1e-9 * max(1.0, abs(expected_value)):
            found.append(f"{name}: page {text!r}, model {want!r}")
    return found


def model_problems(visits: list[LabVisit], contracts: dict, runtime) -> list[tuple[LabVisit, str]]:
    """Every state of every visit against its lab's function, in one Node run."""
    jobs = [
        (visit, preset, state)
        for visit in visits
        if visit.lab in contracts and contracts[visit.lab].get("fn")
        for preset, state in visit.states.items()
    ]
    if not jobs:
        return []
    results = runtime.run(
        [{"fn": contracts[v.lab]["fn"], "args": model_inputs(state["inputs"])} for v, _, state in jobs]
    )
    if not isinstance(results, list):
        return [(jobs[0][0], f"the labs' model did not run in Node: {results.reason}")]
    found = []
    for (visit, preset, state), model in zip(jobs, results, strict=True):
        where = "as loaded" if not preset else preset if preset == EDITED else f"preset {preset}"
        found += [
            (visit, f"{where}: {line}")
            for line in shown_differences(contracts[visit.lab], state, visit.labels, model or {})
        ]
    return found
