'use strict';
// Lab E · Cost & Bottleneck (labs_js/cost/model.js, cost.lab): the five worked cases of seed 004
// at the seed's rounding, and the properties the model keeps whatever the inputs.
// Run: node --test labs_js/tests/cost.test.js
const test = require('node:test');
const assert = require('node:assert/strict');
const cost = require('../cost/model.js');

// the lab's starting point: the changed system equals the baseline, nothing routed, no speedup
const BEFORE = {
  hourly_cost: 100, good_tokens_per_s: 10000, opt_hourly_cost: 100, opt_good_tokens_per_s: 10000,
  attempt_cost_a: 0.08, attempts_a: 1, attempt_cost_b: 0.08, attempts_b: 1,
  step_gflop: 0, compute_tflops: 100, step_gb: 20.5, hbm_tbps: 1, step_comm_mb: 0, net_gbps: 25, overhead_ms: 0,
  optimizable_share: 0.8, local_speedup: 1, cheap_share: 0, cheap_cost_ratio: 0.2,
};

function lab(changes) {
  return cost.lab(Object.assign({}, BEFORE, changes));
}

// Half away from zero, as the build and the UI round.
function round(x, digits) {
  const f = Math.pow(10, digits);
  return Math.sign(x) * Math.round(Math.abs(x) * f + 1e-9) / f;
}

function rng(seed) {
  let s = seed >>> 0;
  return function () {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

test('100 per hour at 10,000 tokens/s costs 2.78 per million; 120 at 15,000 costs 2.22: −20 % while throughput rises 50 %', () => {
  const out = lab({ opt_hourly_cost: 120, opt_good_tokens_per_s: 15000 });
  assert.equal(round(out.cost_per_million, 2), 2.78);
  assert.equal(round(out.opt_cost_per_million, 2), 2.22);
  assert.equal(round(out.cost_change_pct, 0), -20);
  assert.equal(round(out.throughput_change_pct, 0), 50);
  assert.equal(round(out.spend_change_pct, 0), 20);
});

test('0.08 × 1 attempt against 0.05 × 2 attempts: the cheaper attempt is the dearer task', () => {
  const out = lab({ attempt_cost_b: 0.05, attempts_b: 2 });
  assert.equal(round(out.task_cost_a, 2), 0.08);
  assert.equal(round(out.task_cost_b, 2), 0.10);
  assert.ok(out.task_cost_b > out.task_cost_a);
});

test('a 10 ms step with 8 ms of weight reads halved takes 6 ms: 1.67× overall, never past 5×', () => {
  const out = lab({ step_gb: 8, hbm_tbps: 1, overhead_ms: 2, optimizable_share: 0.8, local_speedup: 2 });
  assert.equal(round(out.step_lower_bound_ms, 1), 10);
  assert.equal(out.bottleneck, 'memory');
  assert.equal(round(out.amdahl_step_ms, 1), 6);
  assert.equal(round(out.amdahl_speedup, 2), 1.67);
  assert.equal(round(out.amdahl_limit, 2), 5);
});

test('80 % routed at one fifth of the cost: mean cost 0.36, a 64 % saving', () => {
  const out = lab({ cheap_share: 0.8, cheap_cost_ratio: 0.2 });
  assert.equal(round(out.routing_mean_cost, 2), 0.36);
  assert.equal(round(out.routing_saving_pct, 0), 64);
});

test('the decode step of the tutorial: 20.5 GB at 1 TB/s is a memory-bound step of at least 20.5 ms', () => {
  const out = lab({});
  assert.equal(round(out.step_lower_bound_ms, 1), 20.5);
  assert.equal(out.bottleneck, 'memory');
  assert.equal(round(out.cost_change_pct, 0), 0);
});

test('properties: the bound is the largest term plus the overhead, and names that term', () => {
  const random = rng(20261201);
  for (let i = 0; i < 500; i += 1) {
    const args = {
      step_gflop: random() * 4000, compute_tflops: 10 + random() * 990,
      step_gb: random() * 80, hbm_tbps: 0.5 + random() * 7.5,
      step_comm_mb: random() * 4000, net_gbps: 10 + random() * 890, overhead_ms: random() * 5,
    };
    const out = lab(args);
    const terms = { compute: args.step_gflop / args.compute_tflops, memory: args.step_gb / args.hbm_tbps,
                    network: args.step_comm_mb / args.net_gbps };  // MB at GB/s, GFLOP at TFLOP/s, GB at TB/s: all ms
    const largest = Math.max(terms.compute, terms.memory, terms.network);
    assert.ok(Math.abs(out.step_lower_bound_ms - (largest + args.overhead_ms)) < 1e-9 * Math.max(1, largest), JSON.stringify(args));
    if (largest > args.overhead_ms) assert.ok(Math.abs(terms[out.bottleneck] - largest) < 1e-9 * Math.max(1, largest), out.bottleneck);
  }
});

test('properties: Amdahl never beats the local speedup or 1 / (1 − share); routing saves within [0, 100)', () => {
  const random = rng(7);
  for (let i = 0; i < 500; i += 1) {
    const share = random() * 0.99;
    const speedup = 1 + random() * 20;
    const out = lab({ optimizable_share: share, local_speedup: speedup, cheap_share: random(), cheap_cost_ratio: 0.01 + random() * 0.99 });
    assert.ok(out.amdahl_speedup >= 1 - 1e-12 && out.amdahl_speedup <= speedup + 1e-9, `${share} ${speedup}`);
    assert.ok(out.amdahl_speedup <= 1 / (1 - share) + 1e-9);
    assert.ok(out.routing_saving_pct >= 0 && out.routing_saving_pct < 100, String(out.routing_saving_pct));
    assert.ok(out.routing_mean_cost > 0 && out.routing_mean_cost <= 1 + 1e-12);
  }
});

test('cost per million scales with the hourly cost and inversely with the qualified rate', () => {
  const base = lab({}).cost_per_million;
  assert.ok(Math.abs(lab({ hourly_cost: 200 }).cost_per_million - 2 * base) < 1e-9);
  assert.ok(Math.abs(lab({ good_tokens_per_s: 20000 }).cost_per_million - base / 2) < 1e-9);
});
