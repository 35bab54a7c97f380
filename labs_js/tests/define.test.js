'use strict';
/*
 * shared/define.js: the one module wrapper. Node loads modules through
 * require; the page (file://, no require, no module) runs them as classic
 * scripts in one global scope, in the order render/site.py gives. Both must
 * register the same functions and compute the same numbers.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const LABS = path.join(__dirname, '..');
const define = require('../shared/define.js');
const { load_modules } = require('../compute.js');

/** Run files as classic scripts in one fresh global scope, as a page would. */
function page(files) {
  const context = vm.createContext({});
  for (const file of files) {
    vm.runInContext(fs.readFileSync(path.join(LABS, file), 'utf8'), context, { filename: file });
  }
  return context.AtlasLabs;
}

const LABS_IN_PAGE = ['memory', 'batch', 'speculative', 'fleet'];

test('define registers the api on AtlasLabs, returns it, and binds helpers to the namespace', () => {
  assert.equal(globalThis.AtlasLabs.define, define);
  const api = define('define_test_ns', function (lib) {
    return { twice: function (args) { return { value: 2 * lib.num(args, 'x', 1) }; } };
  });
  assert.equal(globalThis.AtlasLabs.define_test_ns, api);
  assert.equal(api.twice({}).value, 2);
  assert.equal(api.twice({ x: 4 }).value, 8);
  assert.throws(() => api.twice({ x: 'four' }), /^TypeError: define_test_ns: input "x" must be a finite number$/);
  assert.throws(() => api.twice({ x: NaN }), TypeError);
  delete globalThis.AtlasLabs.define_test_ns;
});

test('every model and formula module loads through define in Node and exports what it registers', () => {
  const modules = load_modules();
  for (const [ns, mod] of Object.entries(modules)) assert.equal(globalThis.AtlasLabs[ns], mod, ns);
  for (const ns of ['memory', 'batch', 'speculative', 'fleet', 'cost', 'bottleneck', 'kv', 'quant', 'cluster']) {
    assert.ok(modules[ns], ns);
  }
  assert.equal(require('../shared/format.js'), globalThis.AtlasLabs.format);
});

test('page order (define.js, shared helpers, models) works without require: same numbers as Node', () => {
  const scripts = ['shared/define.js', 'shared/format.js'].concat(LABS_IN_PAGE.map((ns) => ns + '/model.js'));
  const A = page(scripts);
  assert.equal(typeof A.define, 'function');
  assert.equal(A.format.format_number(1234.5, 1), '1,234.5');
  const node = load_modules();
  const args = {
    memory: [{ fn: 'kv_bytes_per_token', args: { layers: 32, kv_heads: 8, head_dim: 128, kv_bits: 16 } }],
    batch: [{ fn: 'kv_transfer', args: { tokens: 8192, kv_kib_per_token: 128, kv_link_gbps: 20, interference_saved_ms: 200 } }],
    speculative: [{ fn: 'expected_tokens', args: { k: 4, acceptance: 0.7 } }],
    fleet: [{ fn: 'hit_boundary', args: { physical_page: 6144, hash_block: 512, shared_tokens: 2800 } }],
  };
  for (const ns of LABS_IN_PAGE) {
    for (const call of args[ns]) {
      assert.equal(JSON.stringify(A[ns][call.fn](call.args)), JSON.stringify(node[ns][call.fn](call.args)), ns + '.' + call.fn);
    }
  }
});

test('formula modules run as classic scripts too, finding a lab model on AtlasLabs', () => {
  const A = page(['shared/define.js', 'memory/model.js', 'formulas/kv.js']);
  assert.equal(A.kv.kv_bytes_ratio({ kv_heads: 32, kv_heads_after: 8 }).ratio, 0.25);
  const lone = page(['shared/define.js', 'formulas/kv.js']);
  assert.throws(() => lone.kv.kv_bytes_ratio({ kv_heads: 32, kv_heads_after: 8 }), /the memory module must be loaded first/);
});
