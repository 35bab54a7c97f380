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

const examples_fm = read_front_matter('ledger/examples.md');
const labs_fm = read_front_matter('ledger/labs.md');
const modules = load_modules();

const tutorial_fm = fs.existsSync(path.join(ROOT, 'ledger/examples-tutorial.md'))
  ? read_front_matter('ledger/examples-tutorial.md') : { data: { examples: [] } };

test('ledger/examples*.md: every expect matches its function after rounding', (t) => {
  if (examples_fm.skip || tutorial_fm.skip) return t.skip(examples_fm.skip || tutorial_fm.skip);
  const examples = examples_fm.data.examples.concat(tutorial_fm.data.examples || []);
  assert.ok(examples_fm.data.examples.length >= 15);
  const ids = new Set();
  for (const ex of examples) {
    assert.ok(!ids.has(ex.id), 'duplicate id ' + ex.id);
    ids.add(ex.id);
    assert.match(ex.id, /^[a-z0-9][a-z0-9-]*$/);
    assert.ok(['teaching-assumption', 'analytic'].includes(ex.kind), ex.id);
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
  if (examples_fm.skip || tutorial_fm.skip) return t.skip(examples_fm.skip || tutorial_fm.skip);
  const mine = new Set(examples_fm.data.examples.map((e) => e.id));
  for (const ex of tutorial_fm.data.examples || []) assert.ok(!mine.has(ex.id), 'id used in both files: ' + ex.id);
});

test('every worked example is registered once: no two entries run the same function on the same inputs', (t) => {
  if (examples_fm.skip || tutorial_fm.skip) return t.skip(examples_fm.skip || tutorial_fm.skip);
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

test('ledger/labs.md: static_outputs equal the formatted result for the defaults', (t) => {
  if (labs_fm.skip) return t.skip(labs_fm.skip);
  const labs = labs_fm.data.labs;
  assert.deepEqual(labs.map((l) => l.id), ['memory', 'batch', 'speculative', 'fleet']);
  for (const lab of labs) {
    const [out] = run([{ fn: lab.fn, args: lab.defaults }], modules);
    for (const o of lab.outputs) {
      const want = o.labels ? String(out[o.name]) : F.format_output(out[o.name], { digits: o.digits, percent: o.percent });
      assert.equal(lab.static_outputs[o.name], want, lab.id + '.' + o.name);
      if (o.labels) assert.ok(o.labels.map(String).includes(want), lab.id + '.' + o.name + ' code ' + want + ' not listed');
    }
    // Every input has a default inside its range, and presets only set known inputs.
    const params = new Set(lab.inputs.map((i) => i.param));
    for (const input of lab.inputs) {
      const v = lab.defaults[input.param];
      assert.ok(v !== undefined, lab.id + ': no default for ' + input.param);
      if (input.options) assert.ok(input.options.includes(v), lab.id + '.' + input.param);
      else if (!input.checkbox) assert.ok(v >= input.min && v <= input.max, lab.id + '.' + input.param + ' out of range');
    }
    for (const preset of lab.presets) {
      assert.ok(['teaching-assumption', 'report-example'].includes(preset.kind), preset.id);
      for (const key of Object.keys(preset.values)) assert.ok(params.has(key), lab.id + ' preset ' + preset.id + ' sets unknown ' + key);
      // Presets must produce valid inputs for the model.
      run([{ fn: lab.fn, args: { ...lab.defaults, ...preset.values } }], modules);
    }
  }
});

test('ledger/labs.md: worked examples cite registered examples whose numbers they print', (t) => {
  if (labs_fm.skip || examples_fm.skip) return t.skip(labs_fm.skip || examples_fm.skip);
  const by_id = Object.fromEntries(examples_fm.data.examples.map((e) => [e.id, e]));
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
  if (labs_fm.skip) return t.skip(labs_fm.skip);
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
  }
  for (const key of needed) {
    assert.ok(strings[key], 'missing string ' + key);
    assert.ok(strings[key].zh && strings[key].en, 'string ' + key + ' needs zh and en');
  }
});
