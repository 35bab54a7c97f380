'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fleet = require('../fleet/model.js');

const SEED_TREE = {
  len: 1000,
  children: [
    { len: 4000, children: [{ len: 20 }, { len: 20 }] },
    { len: 3000, children: [{ len: 20 }] },
  ],
};
const LAB = {
  prefix_len: 20000, increment_len: 500, hit_rate: 0.8, clusters: 4, routing: 'cache_affinity',
  hot_share: 0.3, secondary_failure: false, short_budget: 200000, long_budget: 1000000,
  long_burst: 5, short_requests: 100, short_len: 2000,
};

test('seed 000 §16.4: 6144-token page, 512-token hash blocks, 2800 shared -> boundary 2560', () => {
  const out = fleet.hit_boundary({ physical_page: 6144, hash_block: 512, shared_tokens: 2800 });
  assert.equal(out.hit_boundary, 2560);
  assert.equal(out.hit_blocks, 5);
  assert.equal(out.hash_blocks_per_page, 12);
  assert.equal(out.recompute_tokens, 240);
});

test('hit boundary needs a KDA checkpoint and stays inside the cached span', () => {
  const base = { physical_page: 6144, hash_block: 512, shared_tokens: 2800 };
  assert.equal(fleet.hit_boundary({ ...base, checkpoint_every: 2 }).hit_boundary, 2048);
  assert.equal(fleet.hit_boundary({ ...base, checkpoints: [1024, 2048, 3072] }).hit_boundary, 2048);
  assert.equal(fleet.hit_boundary({ ...base, checkpoints: [1000, 1536] }).hit_boundary, 1536);
  assert.equal(fleet.hit_boundary({ ...base, shared_tokens: 9000 }).hit_boundary, 6144);
  assert.equal(fleet.hit_boundary({ ...base, shared_tokens: 500 }).hit_boundary, 0);
});

test('seed 004: radix tree stores 8,060 prefix tokens instead of 14,060', () => {
  const out = fleet.radix_prefix_state({ tree: SEED_TREE });
  assert.equal(out.requests, 3);
  assert.equal(out.unshared_tokens, 14060);
  assert.equal(out.tree_tokens, 8060);
  assert.equal(out.saved_tokens, 6000);
  assert.equal(Math.round(out.saved_pct * 10) / 10, 42.7);
  const built = fleet.radix_example_tree({ system_len: 1000, doc_a_len: 4000, doc_b_len: 3000, question_len: 20 });
  assert.deepEqual(built, SEED_TREE);
});

test('hit boundary: a whole number of hash blocks, never past the shared tokens or the page; the rest is recomputed', () => {
  for (let shared = 0; shared <= 7000; shared += 137) {
    const r = fleet.hit_boundary({ physical_page: 6144, hash_block: 512, shared_tokens: shared });
    assert.equal(r.hit_boundary % 512, 0);
    assert.ok(r.hit_boundary <= Math.min(shared, 6144));
    assert.ok(Math.min(shared, 6144) - r.hit_boundary < 512);
    assert.equal(r.recompute_tokens, shared - r.hit_boundary);
    assert.equal(r.hit_blocks * 512, r.hit_boundary);
  }
});

test('radix state: never more than independent copies; only a shared path from the root is shared', () => {
  const same = fleet.radix_prefix_state({ tree: { len: 10, children: [{ len: 5, children: [{ len: 0 }, { len: 0 }] }] } });
  assert.equal(same.tree_tokens, 15);
  assert.equal(same.unshared_tokens, 30);
  // The same document under two different system prompts (a forest under an empty root) shares nothing.
  const diff = fleet.radix_prefix_state({
    tree: { len: 0, children: [{ len: 10, children: [{ len: 50 }] }, { len: 10, children: [{ len: 50 }] }] },
  });
  assert.equal(diff.saved_tokens, 0);
  for (const q of [0, 20, 500]) {
    const r = fleet.radix_prefix_state({ system_len: 1000, doc_a_len: 4000, doc_b_len: 3000, question_len: q });
    assert.ok(r.tree_tokens <= r.unshared_tokens && r.saved_tokens >= 0);
  }
});

test('seed 000 §16.9: K3 report example, 400K prefix + 4K increment on the owner cluster', () => {
  const out = fleet.prefix_reuse({ prefix_len: 400000, increment_len: 4000, hit_rate: 1 });
  assert.equal(out.avoided_prefill_tokens, 400000);
  assert.equal(out.prefill_tokens, 4000);
});

test('routing: round robin hits the owner 1/clusters of the time and is even; affinity concentrates the hot prefix', () => {
  const rr = fleet.evaluate({ ...LAB, routing: 'round_robin' });
  assert.equal(rr.effective_hit_rate, 0.8 / 4);
  assert.equal(rr.hot_cluster_skew, 1);
  const aff = fleet.evaluate(LAB);
  assert.equal(aff.effective_hit_rate, 0.8);
  assert.ok(Math.abs(aff.hot_cluster_skew - (1 + 0.3 * 3)) < 1e-12);
  assert.ok(aff.avoided_prefill_tokens > rr.avoided_prefill_tokens);
  assert.equal(aff.recommendation, 'replicate_hot_prefix');
  assert.equal(rr.recommendation, 'use_affinity');
});

test('failover: the busiest primary moves to spread secondaries that re-prefill what was a hit', () => {
  const off = fleet.evaluate(LAB);
  assert.equal(off.failover_share, 0);
  assert.equal(off.failover_recompute_tokens, 0);
  const on = fleet.evaluate({ ...LAB, secondary_failure: true });
  assert.ok(Math.abs(on.failover_share - (0.3 + 0.7 / 4)) < 1e-12);
  assert.equal(on.failover_recompute_tokens, 16000);
  assert.ok(Math.abs(on.failover_spread_share - on.failover_share / 3) < 1e-12);
  assert.equal(fleet.evaluate({ ...LAB, clusters: 1, secondary_failure: 'on' }).failover_share, 0);
});

test('admission: class budgets keep short requests whole while a long burst is rejected early', () => {
  const burst = { ...LAB, prefix_len: 400000, increment_len: 4000, long_burst: 20 };
  const out = fleet.evaluate(burst);
  assert.equal(out.short_slo_met, 1);
  assert.equal(out.long_rejected, 20 - 2); // floor(1,000,000 / 404,000) = 2 admitted
  assert.equal(out.admitted, 102);
  assert.equal(out.rejected, 18);
  // 100K-token long requests: one shared pool lets the burst take what the short class kept.
  const pool = fleet.admission({ ...LAB, prefix_len: 96000, increment_len: 4000, long_burst: 20 });
  assert.equal(pool.long_admitted, 10);
  assert.equal(pool.short_slo_met, 1);
  assert.equal(pool.shared_pool_short_slo_met, 0);
  assert.equal(fleet.evaluate({ ...LAB, short_budget: 100000 }).recommendation, 'replicate_hot_prefix');
  assert.equal(fleet.evaluate({ ...LAB, hot_share: 0, short_budget: 100000 }).recommendation, 'raise_short_budget');
  assert.equal(fleet.evaluate({ ...burst, hot_share: 0 }).recommendation, 'long_burst_rejected_early');
  assert.equal(fleet.evaluate({ ...LAB, hot_share: 0 }).recommendation, 'balanced');
});

test('lab() merges the policy model with the boundary and radix tools', () => {
  const out = fleet.lab({
    ...LAB, physical_page: 6144, hash_block: 512, shared_tokens: 2800, checkpoint_every: 1,
    system_len: 1000, doc_a_len: 4000, doc_b_len: 3000, question_len: 20,
  });
  assert.equal(out.hit_boundary, 2560);
  assert.equal(out.radix_unshared_tokens, 14060);
  assert.equal(out.radix_tree_tokens, 8060);
  assert.equal(out.avoided_prefill_tokens, 16000);
});

test('cluster loads: the hot owner and the rest add up to the whole traffic; failover moves the busiest', () => {
  const sum = (loads) => loads.reduce((s, c) => s + c.load + c.extra, 0);
  for (const routing of ['round_robin', 'cache_affinity']) {
    for (const clusters of [1, 2, 4, 7]) {
      for (const secondary_failure of [false, true]) {
        const out = fleet.evaluate({ ...LAB, routing, clusters, secondary_failure });
        const loads = out.cluster_loads;
        const failed = secondary_failure && clusters > 1;
        assert.equal(loads.length, clusters);
        assert.ok(Math.abs(sum(loads) - clusters) < 1e-9, 'mean load is 1: ' + JSON.stringify(loads));
        assert.equal(loads[0].failed, failed);
        if (!failed) assert.ok(Math.abs(Math.max(...loads.map((c) => c.load)) - out.hot_cluster_skew) < 1e-9);
        else assert.ok(loads.slice(1).every((c) => Math.abs(c.extra - out.failover_spread_share * clusters) < 1e-9));
      }
    }
  }
});

test('a hash block longer than the physical page is refused with both inputs named (review 31-k #6)', () => {
  assert.throws(
    () => fleet.hit_boundary({ physical_page: 6144, hash_block: 7000, shared_tokens: 2800 }),
    (err) => err instanceof RangeError && err.problem.kind === 'not_above' &&
      err.problem.param === 'hash_block' && err.problem.other === 'physical_page' && err.problem.max === 6144,
  );
  assert.equal(fleet.hit_boundary({ physical_page: 6144, hash_block: 6144, shared_tokens: 7000 }).hash_blocks_per_page, 1);
});
