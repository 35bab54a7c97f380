'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const CLI = path.join(__dirname, '..', 'compute.js');
const run = (input) => spawnSync(process.execPath, [CLI], { input, encoding: 'utf8' });

test('compute.js runs a batch of calls in order', () => {
  const res = run(JSON.stringify([
    { fn: 'memory.kv_bytes_per_token', args: { layers: 32, kv_heads: 8, head_dim: 128, kv_bits: 16 } },
    { fn: 'fleet.hit_boundary', args: { physical_page: 6144, hash_block: 512, shared_tokens: 2800 } },
    { fn: 'speculative.expected_tokens', args: { k: 3, acceptance: 1 } },
  ]));
  assert.equal(res.status, 0, res.stderr);
  const out = JSON.parse(res.stdout);
  assert.equal(out[0].kib_per_token, 128);
  assert.equal(out[1].hit_boundary, 2560);
  assert.equal(out[2].expected_tokens, 4);
});

test('compute.js loads every lab namespace', () => {
  const { load_modules } = require('../compute.js');
  const mods = load_modules();
  for (const ns of ['memory', 'batch', 'speculative', 'fleet']) assert.equal(typeof mods[ns].evaluate === 'function' || typeof mods[ns].simulate === 'function', true, ns);
});

test('unknown function: exit 1 with a clear message', () => {
  const res = run('[{"fn": "memory.no_such_thing", "args": {}}]');
  assert.equal(res.status, 1);
  assert.match(res.stderr, /unknown function "memory\.no_such_thing"/);
  assert.match(res.stderr, /memory: .*kv_bytes_per_token/);
  assert.equal(res.stdout, '');
});

test('malformed input and throwing functions: exit 1 naming the item', () => {
  assert.equal(run('{"fn": "memory.kv_bytes"}').status, 1);
  assert.equal(run('not json').status, 1);
  const res = run('[{"fn": "memory.kv_bytes_per_token", "args": {"layers": 32}}]');
  assert.equal(res.status, 1);
  assert.match(res.stderr, /item 0 .*kv_heads/);
});
