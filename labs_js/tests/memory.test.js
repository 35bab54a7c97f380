'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const memory = require('../memory/model.js');

const GQA = { layers: 32, kv_heads: 8, head_dim: 128, kv_bits: 16 };
const LAB = {
  params_b: 8, weight_bits: 16, layers: 32, q_heads: 32, kv_heads: 8, head_dim: 128,
  attention: 'gqa', mla_latent_ratio: 0.125, kda_share: 0.75, kda_state_kib: 1024,
  context_len: 131072, concurrency: 4, kv_bits: 16, block_size: 16, hbm_gib: 80,
};

test('seed 000 §3.2: GQA teaching case is 131,072 bytes = 128 KiB per token', () => {
  assert.deepEqual(memory.kv_bytes_per_token(GQA), { bytes_per_token: 131072, kib_per_token: 128 });
});

test('seed 000 §3.2: the same model as MHA (H_kv = 32) is 512 KiB per token', () => {
  assert.equal(memory.kv_bytes_per_token({ ...GQA, kv_heads: 32 }).kib_per_token, 512);
  const mha = memory.attention_state({ ...GQA, attention: 'mha', q_heads: 32 });
  assert.equal(mha.kv_kib_per_token, 512);
});

test('seed 000 §3.2: 128K tokens of the GQA case are 16 GiB (exact, 131,072 tokens)', () => {
  assert.equal(memory.kv_bytes({ ...GQA, tokens: 131072, concurrency: 1 }).gib, 16);
});

test('seed 004: 8,192 tokens of the GQA case are 1 GiB', () => {
  assert.equal(memory.kv_bytes({ ...GQA, tokens: 8192 }).gib, 1);
});

test('seed 004: paging max 100 / actual 11 / block 4 -> 12 slots, 1 wasted', () => {
  const p = memory.paged_waste({ max_len: 100, actual_len: 11, block_size: 4 });
  assert.equal(p.reserved_slots, 100);
  assert.equal(p.blocks, 3);
  assert.equal(p.allocated_slots, 12);
  assert.equal(p.waste_slots, 1);
  assert.equal(p.reserved_waste_slots, 89);
});

test('seed 004: 70B weights are 140 GB at 16 bits and 35 GB at 4 bits (decimal GB)', () => {
  assert.equal(memory.weight_bytes({ params_b: 70, weight_bits: 16 }).gb, 140);
  assert.equal(memory.weight_bytes({ params_b: 70, weight_bits: 4 }).gb, 35);
});

test('KV scales linearly in each factor', () => {
  const base = { ...GQA, tokens: 1000, concurrency: 3 };
  const b0 = memory.kv_bytes(base).bytes;
  for (const key of ['layers', 'kv_heads', 'head_dim', 'kv_bits', 'tokens', 'concurrency']) {
    for (const factor of [2, 3, 0.5]) {
      const scaled = memory.kv_bytes({ ...base, [key]: base[key] * factor }).bytes;
      assert.equal(scaled, b0 * factor, key + ' × ' + factor);
    }
  }
});

test('paged waste stays within 0 … S − 1 and is 0 on block multiples', () => {
  for (let s = 1; s <= 32; s++) {
    for (let t = 1; t <= 200; t++) {
      const w = memory.paged_waste({ actual_len: t, block_size: s }).waste_slots;
      assert.ok(w >= 0 && w <= s - 1);
      if (t % s === 0) assert.equal(w, 0);
    }
  }
});

test('lab defaults: 8B BF16 weights, 4 × 16 GiB KV fit in 80 GiB', () => {
  const out = memory.evaluate(LAB);
  assert.equal(out.kv_kib_per_token, 128);
  assert.equal(out.active_kv_gib, 64);
  assert.equal(out.max_concurrency, 4);
  assert.equal(out.status, 'FIT');
  assert.ok(Math.abs(out.weight_gib - 16e9 / 2 ** 30) < 1e-12);
});

test('status: FIT, KV-LIMITED, OOM', () => {
  assert.equal(memory.evaluate({ ...LAB, concurrency: 5 }).status, 'KV-LIMITED');
  assert.equal(memory.evaluate({ ...LAB, params_b: 70 }).status, 'OOM');
  assert.equal(memory.evaluate({ ...LAB, params_b: 70, weight_bits: 4, concurrency: 1 }).status, 'FIT');
  assert.equal(memory.evaluate({ ...LAB, params_b: 70 }).max_concurrency, 0);
});

test('paged capacity is planned on whole blocks', () => {
  const out = memory.evaluate({ ...LAB, context_len: 11, block_size: 4, concurrency: 1 });
  assert.equal(out.paged_waste_tokens, 1);
  assert.equal(out.paged_waste_share, 1 / 12);
});

test('MLA (teaching ratio) scales the MHA K+V elements; KDA hybrid adds a fixed state', () => {
  const mla = memory.attention_state({ ...GQA, q_heads: 32, attention: 'mla', mla_latent_ratio: 0.125 });
  assert.equal(mla.kv_kib_per_token, 512 * 0.125);
  const kda = memory.attention_state({
    ...GQA, q_heads: 32, attention: 'kda_hybrid', mla_latent_ratio: 0.125, kda_share: 0.75, kda_state_kib: 1024,
  });
  assert.equal(kda.kv_layers, 8);
  assert.equal(kda.state_layers, 24);
  assert.equal(kda.kv_kib_per_token, 512 * 0.125 / 4);
  assert.equal(kda.state_kib_per_request, 24 * 1024);
  // The fixed state does not grow with context; the MLA part does.
  const short = memory.evaluate({ ...LAB, attention: 'kda_hybrid', context_len: 1024, block_size: 1, concurrency: 1 });
  const long = memory.evaluate({ ...LAB, attention: 'kda_hybrid', context_len: 2048, block_size: 1, concurrency: 1 });
  assert.equal(long.state_kib_per_request, short.state_kib_per_request);
  assert.ok(long.active_kv_gib > short.active_kv_gib);
});

test('bad inputs throw with the input name', () => {
  assert.throws(() => memory.kv_bytes_per_token({ layers: 32, kv_heads: 8, head_dim: 128 }), /kv_bits/);
  assert.throws(() => memory.attention_state({ ...GQA, attention: 'sparse' }), /attention must be one of/);
  assert.throws(() => memory.paged_waste({ actual_len: 3, block_size: 0 }), /block_size/);
});

test('GQA: KV heads above the query heads, or not dividing them, are refused with the input named', () => {
  for (const kv_heads of [64, 33, 5, 0]) {
    assert.throws(
      () => memory.evaluate({ ...LAB, kv_heads }),
      (err) => err instanceof RangeError && /kv_heads/.test(err.message) &&
        err.problem.param === 'kv_heads' && err.problem.kind === 'divides' && err.problem.max === 32,
      `kv_heads ${kv_heads} with 32 query heads`,
    );
  }
  for (const kv_heads of [1, 2, 4, 8, 16, 32]) {  // MQA … MHA: every divisor is a GQA layout
    assert.ok(memory.evaluate({ ...LAB, kv_heads }).kv_kib_per_token > 0, `kv_heads ${kv_heads}`);
  }
  // the other layouts do not read kv_heads: a leftover value does not block them
  assert.equal(memory.evaluate({ ...LAB, attention: 'mha', kv_heads: 64 }).kv_kib_per_token, 512);
});
