'use strict';
/*
 * The ledgers this lab code owns agree with it: every worked example's
 * `expect` (ledger/examples.md and ledger/examples-tutorial.md) after rounding, every lab's static_outputs
 * and worked-example refs (ledger/labs.md), and every UI string key the
 * templates ask for.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { read_front_matter, ROOT } = require('./_ledger.js');
const { load_modules, run } = require('../compute.js');
const F = require('../shared/format.js');

// Read inside each test (memoised): a missing ledger or YAML reader fails the tests that need it.
const front_matter = {};
const ledger = (relative) => (front_matter[relative] = front_matter[relative] || read_front_matter(relative));
const examples_fm = { get data() { return ledger('ledger/examples.md'); } };
const labs_fm = { get data() { return ledger('ledger/labs.md'); } };
const tutorial_fm = { get data() { return ledger('ledger/examples-tutorial.md'); } };
const modules = load_modules();

test('ledger/examples*.md: every expect matches its function after rounding', (t) => {
  const examples = examples_fm.data.examples.concat(tutorial_fm.data.examples || []);
  assert.ok(examples_fm.data.examples.length >= 15);
  const ids = new Set();
  for (const ex of examples) {
    assert.ok(!ids.has(ex.id), 'duplicate id ' + ex.id);
    ids.add(ex.id);
    assert.match(ex.id, /^[a-z0-9][a-z0-9-]*$/);
    assert.ok(['teaching-assumption', 'analytic', 'report-example'].includes(ex.kind), ex.id);
    const [out] = run([{ fn: ex.fn, args: ex.args }], modules);
    for (const [name, spec] of Object.entries(ex.outputs)) {
      assert.ok(name in out, ex.id + ': ' + ex.fn + ' returns no ' + name);
      assert.equal(typeof spec.digits, 'number', ex.id + '.' + name + ' needs digits');
    }
    for (const [name, want] of Object.entries(ex.expect || {})) {
      const got = out[name];
      const shown = typeof got === 'number' ? F.round_half_away(got, ex.outputs[name].digits) : got;
      assert.equal(shown, want, ex.id + '.' + name + ': ' + got + ' rounds to ' + shown + ', seed prints ' + want);
    }
  }
});

test('ledger/examples.md ids do not collide with ledger/examples-tutorial.md', (t) => {
  const mine = new Set(examples_fm.data.examples.map((e) => e.id));
  for (const ex of tutorial_fm.data.examples || []) assert.ok(!mine.has(ex.id), 'id used in both files: ' + ex.id);
});

test('every worked example is registered once: no two entries run the same function on the same inputs', (t) => {
  const seen = new Map();
  const canonical = (v) => (v && typeof v === 'object' && !Array.isArray(v)
    ? '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canonical(v[k])).join(',') + '}'
    : Array.isArray(v) ? '[' + v.map(canonical).join(',') + ']' : JSON.stringify(v));
  for (const ex of examples_fm.data.examples.concat(tutorial_fm.data.examples || [])) {
    const key = ex.fn + ' ' + canonical(ex.args);
    assert.ok(!seen.has(key), ex.id + ' repeats ' + seen.get(key));
    seen.set(key, ex.id);
  }
});

/** What a lab shows for one output, language-neutral: enum codes as codes, a duration with its
 *  unit code (a group's durations in the unit their largest value picks). */
function shown(value, o, out, outputs) {
  if (o.labels) return String(value);
  if (o.duration) {
    const group = typeof o.duration === 'string' ? outputs.filter((other) => other.duration === o.duration) : [o];
    const largest = Math.max(...group.map((other) => Math.abs(out[other.name])));
    const d = F.format_duration(value, o.digits, F.duration_unit(largest));
    return d.text + ' ' + d.unit;
  }
  return F.format_output(value, { digits: o.digits, percent: o.percent, suffix: o.suffix, signed: o.signed });
}

test('ledger/labs.md: static_outputs equal the formatted result for the defaults', (t) => {
  const labs = labs_fm.data.labs;
  assert.deepEqual(labs.map((l) => l.id), ['memory', 'batch', 'speculative', 'fleet', 'cost']);
  for (const lab of labs) {
    assert.equal(lab.fn.split('.')[0], lab.id, lab.id + ': fn lives in labs_js/' + lab.id + '/model.js');
    const [out] = run([{ fn: lab.fn, args: lab.defaults }], modules);
    for (const o of lab.outputs) {
      const want = shown(out[o.name], o, out, lab.outputs);
      assert.equal(lab.static_outputs[o.name], want, lab.id + '.' + o.name);
      if (o.labels) assert.ok(o.labels.map(String).includes(want), lab.id + '.' + o.name + ' code ' + want + ' not listed');
      if (o.group !== undefined) assert.ok(lab.groups.includes(o.group), lab.id + '.' + o.name + ' in unknown group');
    }
    assert.ok(lab.outputs.some((o) => o.summary), lab.id + ' pins at least one output on phones');
    if (lab.state) assert.ok(lab.outputs.some((o) => o.name === lab.state && o.labels), lab.id + ': state must be an enum output');
    // Every input has a default inside its range; a log slider starts above zero.
    for (const input of lab.inputs) {
      const v = lab.defaults[input.param];
      assert.ok(v !== undefined, lab.id + ': no default for ' + input.param);
      if (input.options) assert.ok(input.options.includes(v), lab.id + '.' + input.param);
      else if (!input.checkbox) assert.ok(v >= input.min && v <= input.max, lab.id + '.' + input.param + ' out of range');
      if (input.slider === 'log') assert.ok((input.slider_min || input.min) > 0, lab.id + '.' + input.param + ': log slider needs a positive start');
      if (lab.groups) assert.ok(lab.groups.includes(input.group), lab.id + '.' + input.param + ' in unknown group');
    }
    assert.deepEqual(Object.keys(lab.defaults).sort(), lab.inputs.map((i) => i.param).sort(), lab.id + ': defaults name exactly the inputs');
  }
});

test('ledger/labs.md: every preset is a complete scenario that shows what its note promises', (t) => {
  for (const lab of labs_fm.data.labs) {
    const params = new Set(lab.inputs.map((i) => i.param));
    const ids = new Set();
    for (const preset of lab.presets) {
      assert.ok(!ids.has(preset.id), lab.id + ' preset id twice: ' + preset.id);
      ids.add(preset.id);
      assert.ok(['teaching-assumption', 'report-example'].includes(preset.kind), preset.id);
      assert.ok(preset.note && preset.note.zh && preset.note.en, preset.id + ' needs a note in both languages');
      for (const key of Object.keys(preset.values)) assert.ok(params.has(key), lab.id + ' preset ' + preset.id + ' sets unknown ' + key);
      // The page applies the defaults first, then the preset: its result never depends on what came before.
      const [out] = run([{ fn: lab.fn, args: { ...lab.defaults, ...preset.values } }], modules);
      for (const [name, want] of Object.entries(preset.expect || {})) {
        const o = lab.outputs.find((x) => x.name === name);
        assert.ok(o, lab.id + ' preset ' + preset.id + ' expects unknown output ' + name);
        assert.equal(shown(out[name], o, out, lab.outputs), String(want), lab.id + ' preset ' + preset.id + ': ' + name);
      }
    }
  }
});

// issue 31: Lab D's "K3 Fig. 12" preset set the defaults' own values, so pressing it changed nothing.
test('ledger/labs.md: every preset changes what the reader sees, or is the one baseline the lab starts in', (t) => {
  for (const lab of labs_fm.data.labs) {
    const [base] = run([{ fn: lab.fn, args: lab.defaults }], modules);
    const baselines = [];
    for (const preset of lab.presets) {
      const keeps = Object.entries(preset.values).every(([key, value]) => lab.defaults[key] === value);
      if (keeps) { baselines.push(preset); continue; }
      const [out] = run([{ fn: lab.fn, args: { ...lab.defaults, ...preset.values } }], modules);
      // the outputs its note is about (its expect), or any output the lab shows
      const watched = Object.keys(preset.expect || {}).length ? Object.keys(preset.expect) : lab.outputs.map((o) => o.name);
      const changed = watched.filter((name) => {
        const o = lab.outputs.find((x) => x.name === name);
        return shown(out[name], o, out, lab.outputs) !== shown(base[name], o, base, lab.outputs);
      });
      assert.ok(changed.length, lab.id + ' preset ' + preset.id + ': none of ' + watched.join(', ') +
        ' differs from what the defaults show');
    }
    // a preset that keeps every default is the lab's starting scenario (marked pressed on load): one
    // at most, and a named teaching mode, never a report's example that would seem to do nothing
    assert.ok(baselines.length <= 1, lab.id + ': several presets keep the defaults: ' + baselines.map((p) => p.id));
    for (const preset of baselines) {
      assert.equal(preset.kind, 'teaching-assumption', lab.id + ' preset ' + preset.id + ' only repeats the defaults');
    }
  }
});

test('ledger/labs.md: worked examples cite registered examples whose numbers they print', (t) => {
  const by_id = Object.fromEntries(examples_fm.data.examples.concat(tutorial_fm.data.examples || []).map((e) => [e.id, e]));
  for (const lab of labs_fm.data.labs) {
    const we = lab.worked_example;
    assert.ok(we && we.zh && we.en && we.refs.length, lab.id);
    for (const ref of we.refs) {
      const ex = by_id[ref];
      assert.ok(ex, lab.id + ' cites unknown example ' + ref);
      const [out] = run([{ fn: ex.fn, args: ex.args }], modules);
      const name = Object.keys(ex.outputs)[0];
      const text = F.format_number(out[name], ex.outputs[name].digits);
      for (const lang of ['zh', 'en']) assert.ok(we[lang].includes(text), lab.id + ' ' + lang + ' text lacks ' + ref + ' = ' + text);
    }
  }
});

test('every UI string the templates ask for exists in zh and en', (t) => {
  const strings = labs_fm.data.strings;
  const needed = new Set();
  const dir = path.join(ROOT, 'templates', 'labs');
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.j2'))) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const m of text.matchAll(/(?<![\w.])t\('([^']+)'\)/g)) needed.add(m[1]);
  }
  for (const lab of labs_fm.data.labs) {
    needed.add(lab.id + '.tab');
    for (const input of lab.inputs) {
      needed.add(lab.id + '.in.' + input.param);
      if (input.unit) needed.add(input.unit);
      for (const opt of input.options || []) needed.add(lab.id + '.opt.' + input.param + '.' + opt);
    }
    for (const o of lab.outputs) {
      needed.add(lab.id + '.out.' + o.name);
      if (o.unit) needed.add(o.unit);
      for (const code of o.labels || []) needed.add(lab.id + '.' + o.name + '.' + code);
    }
    for (const g of lab.groups || []) needed.add(lab.id + '.group.' + g);
    for (const kind of new Set(lab.presets.map((p) => p.kind))) needed.add('labs.kind.' + kind);
    if (lab.chart) {
      needed.add(lab.chart.caption);
      for (const key of Object.values(lab.chart.labels || {})) needed.add(key);
      for (const [, key] of lab.chart.legend || []) needed.add(key);
    }
    if (lab.outputs.some((o) => o.duration)) for (const u of ['ms', 's', 'min', 'h']) needed.add('unit.' + u);
    for (const f of lab.formulas) assert.ok(typeof f === 'string' || (f.zh && f.en), lab.id + ': a formula is a string or {zh, en}');
  }
  // a message the lab code itself raises (a model's refusal, labs.invalid.divides) is an engine
  // string: templates/strings/<lang>.yaml, which the labs' t() falls back to (directives/blocks.py)
  const engine = {};
  for (const lang of ['zh', 'en']) {
    const text = fs.readFileSync(path.join(ROOT, 'templates', 'strings', lang + '.yaml'), 'utf8');
    engine[lang] = new Set(Array.from(text.matchAll(/^([\w.]+):\s*"/gm), (m) => m[1]));
  }
  for (const key of needed) {
    if (!strings[key] && engine.zh.has(key) && engine.en.has(key)) continue;
    assert.ok(strings[key], 'missing string ' + key);
    assert.ok(strings[key].zh && strings[key].en, 'string ' + key + ' needs zh and en');
  }
});
