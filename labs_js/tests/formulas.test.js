'use strict';
// Tests for labs_js/formulas/*.js: every tutorial example reproduces the number
// the seed prints (at the seed's rounding), plus properties the formulas must
// keep whatever the inputs. Formulas that a lab model owns (KV size, paging,
// radix sharing, hit boundary, weights, slot-rounds, chunk budget, link
// transfer) are tested with their lab. Run: node --test labs_js/tests/formulas.test.js
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const dir = path.join(__dirname, '..', 'formulas');
const cost = require('../cost/model.js');
const bottleneck = require(path.join(dir, 'bottleneck.js'));
const kv = require(path.join(dir, 'kv.js'));
const quant = require(path.join(dir, 'quant.js'));
const cluster = require(path.join(dir, 'cluster.js'));
const { load_modules } = require('../compute.js');

// Half away from zero, as the build rounds.
function round(x, digits) {
  const f = Math.pow(10, digits);
  return Math.sign(x) * Math.round(Math.abs(x) * f + 1e-9) / f;
}
function near(actual, expected, digits, label) {
  assert.equal(round(actual, digits), expected, label + ': ' + actual);
}

// Deterministic pseudo-random numbers for property checks.
function rng(seed) {
  let s = seed >>> 0;
  return function () {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

test('modules register on globalThis.AtlasLabs and export the same object', () => {
  for (const [ns, mod] of Object.entries({ cost, bottleneck, kv, quant, cluster })) {
    assert.equal(globalThis.AtlasLabs[ns], mod, ns);
    for (const [name, fn] of Object.entries(mod)) assert.equal(typeof fn, 'function', ns + '.' + name);
  }
});

test('every fn named in ledger/examples-tutorial.md exists (formula or lab model)', () => {
  const ledger = path.join(__dirname, '..', '..', 'ledger', 'examples-tutorial.md');
  const names = [...fs.readFileSync(ledger, 'utf8').matchAll(/^\s*fn:\s*([a-z_]+)\.([a-z0-9_]+)\s*$/gm)];
  assert.ok(names.length > 0);
  const reg = load_modules();
  for (const [, ns, fn] of names) assert.equal(typeof (reg[ns] || {})[fn], 'function', ns + '.' + fn);
});

test('no formula module re-implements a lab model function', () => {
  const lab = load_modules();
  const owned = ['kv_bytes', 'kv_bytes_per_token', 'paged_slots', 'paged_waste', 'radix_prefix_sharing', 'radix_prefix_state',
    'hash_hit_boundary', 'hit_boundary', 'weight_gb', 'weight_bytes', 'static_batch_slots', 'slot_rounds',
    'chunk_budget', 'chunk_plan', 'transfer_time', 'kv_transfer', 'kv_handoff'];
  for (const [ns, mod] of Object.entries({ cost, bottleneck, kv, quant, cluster })) {
    for (const name of owned) assert.equal(mod[name], undefined, ns + '.' + name + ' belongs to a lab model');
  }
  assert.equal(typeof lab.memory.kv_bytes, 'function');
});

test('bad inputs fail loudly instead of returning NaN', () => {
  assert.throws(() => cost.cost_per_million({ window_cost: 1 }), TypeError);
  assert.throws(() => bottleneck.amdahl({ fraction: 1.2, local_speedup: 2 }), RangeError);
  assert.throws(() => cost.mixture_cost({ shares: [0.5, 0.4], relative_costs: [1, 1] }), RangeError);
  assert.throws(() => kv.kv_bytes_ratio({ kv_heads: 'eight' }), /kv: input "kv_heads"/);
});

// ------------------------------------------------------------------ seed 004 examples

test('004 l.19: cost per million 2.78 → 2.22, −20%, throughput +50%, spend +20%', () => {
  const r = cost.compare_hourly({ before_hourly_cost: 100, before_tokens_per_s: 10000, after_hourly_cost: 120, after_tokens_per_s: 15000 });
  near(r.before_per_million, 2.78, 2, 'before');
  near(r.after_per_million, 2.22, 2, 'after');
  near(r.cost_reduction_pct, 20, 0, 'reduction');
  near(r.throughput_gain_pct, 50, 0, 'throughput');
  near(r.spend_increase_pct, 20, 0, 'spend');
});

test('004 l.17: hourly form equals the window form c = 10^6 C / N', () => {
  const hourly = cost.cost_per_million_hourly({ hourly_cost: 100, qualified_tokens_per_s: 10000 }).per_million;
  const window = cost.cost_per_million({ window_cost: 100, output_tokens: 36e6 }).per_million;
  assert.ok(Math.abs(hourly - window) < 1e-12);
});

test('004 l.21: task cost 0.08 × 1 vs 0.05 × 2', () => {
  near(cost.task_cost({ cost_per_attempt: 0.08, attempts_per_task: 1 }).task_cost, 0.08, 2, 'A');
  near(cost.task_cost({ cost_per_attempt: 0.05, attempts_per_task: 2 }).task_cost, 0.10, 2, 'B');
});

test('004 l.55: routing 0.8×0.2 + 0.2×1 = 0.36, 64% saving', () => {
  const r = cost.mixture_cost({ shares: [0.8, 0.2], relative_costs: [0.2, 1] });
  near(r.mean_relative_cost, 0.36, 2, 'mean');
  near(r.saving_pct, 64, 0, 'saving');
});

test('004 l.73: electricity 15% × 30% cut = 4.5% of total', () => {
  near(cost.component_cut({ share: 0.15, local_cut: 0.30 }).total_cut_pct, 4.5, 1, 'cut');
});

test('004 l.253 / l.343: unit cost falls to 100/150 and 1/1.38 when only throughput changes', () => {
  near(cost.cost_ratio({ throughput_before: 100, throughput_after: 150 }).cost_ratio, 0.67, 2, '100/150');
  near(cost.cost_ratio({ throughput_before: 1, throughput_after: 1.38 }).cost_ratio, 0.72, 2, '1/1.38');
});

test('004 l.423: qualified cost 142.9 vs 122.2, B ≈ 14.4% cheaper', () => {
  const r = cost.compare_window({ a_window_cost: 100, a_output_tokens: 1e6, a_qualified_share: 0.7, b_window_cost: 110, b_output_tokens: 9e5 });
  near(r.a_per_million, 142.9, 1, 'A');
  near(r.b_per_million, 122.2, 1, 'B');
  near(r.b_saving_pct, 14.4, 1, 'saving');
});

test('004 l.39: 10 ms step, 8 ms of weight reads halved → 6 ms, 1.67×', () => {
  const r = bottleneck.partial_speedup({ total_ms: 10, part_ms: 8, part_ms_after: 4 });
  near(r.total_ms_after, 6, 0, 'step');
  near(r.speedup, 1.67, 2, 'speedup');
});

test('004 l.117: bandwidth-only decode, batch 1 vs 16', () => {
  const one = bottleneck.decode_step_bandwidth({ weight_gb: 20, kv_gb_per_request: 0.5, batch: 1, bandwidth_tb_per_s: 1 });
  near(one.step_ms, 20.5, 1, 'step 1');
  near(one.total_tokens_per_s, 48.8, 1, 'tps 1');
  const sixteen = bottleneck.decode_step_bandwidth({ weight_gb: 20, kv_gb_per_request: 0.5, batch: 16, bandwidth_tb_per_s: 1 });
  near(sixteen.step_ms, 28, 0, 'step 16');
  near(sixteen.total_tokens_per_s, 571.4, 1, 'tps 16');
  near(sixteen.per_user_tokens_per_s, 35.7, 1, 'per user 16');
});

test('004 l.155: 30 micro-kernels, 150 µs serial, ≤ 90 µs recoverable (60%), ≈ 3% of a 3 ms step', () => {
  const r = bottleneck.launch_gap_recovery({ kernels: 30, compute_us: 2, gap_us: 3, other_us: 3000 });
  near(r.serial_us, 150, 0, 'serial');
  near(r.recoverable_us, 90, 0, 'recoverable');
  near(r.gap_share_pct, 60, 0, 'gap share');
  near(r.step_share_pct, 3, 0, 'step share');
});

test('004 l.309: KV heads 32 → 8 leaves 1/4 of the KV body', () => {
  assert.equal(kv.kv_bytes_ratio({ kv_heads: 32, kv_heads_after: 8 }).ratio, 0.25);
});

test('004 l.125 with l.475: one head\'s 8192 × 8192 BF16 scores are 128 MiB, 32× its K and V', () => {
  const r = kv.score_matrix_vs_kv({ tokens: 8192, bits: 16, head_dim: 128 });
  assert.equal(r.score_mib, 128);
  assert.equal(r.kv_mib, 4);
  assert.equal(r.score_over_kv, 32);
  // the score matrix grows with N², the KV with N: doubling N doubles the ratio
  assert.equal(kv.score_matrix_vs_kv({ tokens: 16384, bits: 16, head_dim: 128 }).score_over_kv, 64);
});

test('004 l.528: keep KV that costs 150 ms to recompute and 20 ms to fetch; not 10 ms vs 40 ms', () => {
  assert.equal(kv.cache_value({ hit_probability: 1, recompute_ms: 150, fetch_ms: 20 }).worth_keeping, true);
  assert.equal(kv.cache_value({ hit_probability: 1, recompute_ms: 10, fetch_ms: 40 }).worth_keeping, false);
});

test('004 l.291 / l.183 / l.301: storage arithmetic of number formats', () => {
  const nv = quant.effective_bits({ element_bits: 4, scale_bits: 8, block_size: 16 });
  near(nv.bits_per_value, 4.5, 1, 'NVFP4 bits');
  near(nv.compression_vs_reference, 3.56, 2, 'NVFP4 vs FP16');
  assert.equal(quant.effective_bits({ element_bits: 2 }).compression_vs_reference, 8);
  assert.equal(quant.resident_gb({ weight_gb: 40, kv_gb: 40, weight_scale: 0.5 }).total_gb, 60);
  assert.equal(quant.resident_gb({ weight_gb: 40, kv_gb: 40, weight_scale: 0.5, kv_scale: 0.5 }).total_gb, 40);
});

test('004 l.475: 4× context → 4× KV bytes (the hand-off itself: batch.test.js)', () => {
  assert.equal(kv.kv_bytes_ratio({ tokens: 8192, tokens_after: 32768 }).ratio, 4);
  // memory.kv_bytes names: batch is `concurrency`, the element width is `kv_bits`.
  assert.equal(kv.kv_bytes_ratio({ concurrency: 2, concurrency_after: 6, kv_bits: 16, kv_bits_after: 4 }).ratio, 0.75);
});

test('004 l.477: example B, 1000 → 786 per million (−21.4%) at peak; 2750 vs 1500 at low traffic', () => {
  const peak = cost.compare_window({ a_window_cost: 120, a_output_tokens: 120000, b_window_cost: [35, 65, 10], b_output_tokens: 140000 });
  near(peak.a_per_million, 1000, 0, 'merged');
  near(peak.b_per_million, 786, 0, 'split');
  near(peak.b_saving_pct, 21.4, 1, 'saving');
  const low = cost.compare_window({ a_window_cost: 60, a_output_tokens: 40000, b_window_cost: [35, 65, 10], b_output_tokens: 40000 });
  near(low.a_per_million, 1500, 0, 'merged low');
  near(low.b_per_million, 2750, 0, 'split low');
});

test('004 l.498: heterogeneous pool 27.8 / 41.7 / 20.8 per million', () => {
  near(cost.cost_per_million_hourly({ hourly_cost: 10, qualified_tokens_per_s: 100 }).per_million, 27.8, 1, 'A');
  near(cost.cost_per_million_hourly({ hourly_cost: 6, qualified_tokens_per_s: 40 }).per_million, 41.7, 1, 'B');
  near(cost.cost_per_million_hourly({ hourly_cost: 6, qualified_tokens_per_s: 80 }).per_million, 20.8, 1, 'B decode');
});

test('004 l.556: one hot expert draws 60 of 100 units, the other three get ≈ 13', () => {
  near(cluster.expert_skew({ cards: 4, work_per_card: 25, hot_work: 60 }).other_per_card, 13, 0, 'others');
});

test('004 l.602: two cards 5 ms + 4 ms sync = 9 ms, 10/9 ≈ 1.11×; 6 ms sync is slower', () => {
  const r = cluster.parallel_speedup({ single_ms: 10, cards: 2, comm_ms: 4 });
  assert.deepEqual([r.compute_ms, r.parallel_ms], [5, 9]);
  near(r.speedup, 1.11, 2, 'speedup');
  assert.equal(cluster.parallel_speedup({ single_ms: 10, cards: 2, comm_ms: 6 }).slower_than_single, true);
});

test('004 l.658: AFD 60 layers × 100 steps × 20 µs = 120 ms', () => {
  assert.equal(cluster.afd_exposed_latency({ steps: 100, split_layers: 60, roundtrip_us: 20 }).exposed_ms, 120);
});

// ------------------------------------------------------------------ properties

test('property: Amdahl never exceeds 1/(1−p), is 1 at s = 1, and grows with s', () => {
  const r = rng(1);
  for (let i = 0; i < 500; i += 1) {
    const p = r() * 0.99;
    const s = 1 + r() * 1000;
    const a = bottleneck.amdahl({ fraction: p, local_speedup: s });
    assert.ok(a.speedup <= a.speedup_limit + 1e-12);
    assert.ok(a.speedup >= 1 - 1e-12);
    assert.ok(bottleneck.amdahl({ fraction: p, local_speedup: s * 2 }).speedup >= a.speedup - 1e-12);
    assert.ok(Math.abs(bottleneck.amdahl({ fraction: p, local_speedup: 1 }).speedup - 1) < 1e-12);
  }
});

test('property: unit cost falls iff throughput grows faster than spend', () => {
  const r = rng(2);
  for (let i = 0; i < 500; i += 1) {
    const spend = 0.5 + r() * 2;
    const tp = 0.5 + r() * 2;
    const base = cost.compare_hourly({ before_hourly_cost: 100, before_tokens_per_s: 1000, after_hourly_cost: 100 * spend, after_tokens_per_s: 1000 * tp });
    assert.equal(base.after_per_million < base.before_per_million, tp > spend);
    const ratio = cost.cost_ratio({ spend_before: 1, spend_after: spend, throughput_before: 1, throughput_after: tp }).cost_ratio;
    assert.ok(Math.abs(ratio - base.after_per_million / base.before_per_million) < 1e-9);
  }
});

test('property: failed output stays in the numerator — a lower qualified share never lowers cost', () => {
  const full = cost.cost_per_million({ window_cost: 100, output_tokens: 1e6 }).per_million;
  for (const share of [0.99, 0.7, 0.3]) {
    assert.ok(cost.cost_per_million({ window_cost: 100, output_tokens: 1e6, qualified_share: share }).per_million > full);
  }
});

test('property: a traffic mix costs between its cheapest and dearest path; a component cut is share × cut', () => {
  const r = rng(3);
  for (let i = 0; i < 200; i += 1) {
    const a = r();
    const c1 = r();
    const c2 = r() * 3;
    const m = cost.mixture_cost({ shares: [a, 1 - a], relative_costs: [c1, c2] }).mean_relative_cost;
    assert.ok(m >= Math.min(c1, c2) - 1e-12 && m <= Math.max(c1, c2) + 1e-12);
    const share = r();
    const cut = r();
    assert.ok(Math.abs(cost.component_cut({ share: share, local_cut: cut }).total_cut_pct - 100 * share * cut) < 1e-9);
  }
});

test('property: the step lower bound is at least every single term and names the largest', () => {
  const r = rng(4);
  for (let i = 0; i < 200; i += 1) {
    const args = { flops: r() * 1e12, flops_per_s: 1e14, bytes: r() * 1e10, bytes_per_s: 1e12, comm_bytes: r() * 1e9, comm_bytes_per_s: 1e11, exposed_s: r() * 1e-3 };
    const b = bottleneck.step_time_lower_bound(args);
    for (const t of [b.compute_s, b.memory_s, b.comm_s]) assert.ok(b.lower_bound_s >= t);
    const largest = Math.max(b.compute_s, b.memory_s, b.comm_s);
    assert.equal(b[{ compute: 'compute_s', memory: 'memory_s', communication: 'comm_s' }[b.bound]], largest);
  }
});

test('property: bigger batches raise total throughput but never per-user speed (bandwidth-only)', () => {
  let prev = null;
  for (let batch = 1; batch <= 64; batch *= 2) {
    const r = bottleneck.decode_step_bandwidth({ weight_gb: 20, kv_gb_per_request: 0.5, batch: batch, bandwidth_tb_per_s: 1 });
    if (prev) {
      assert.ok(r.total_tokens_per_s > prev.total_tokens_per_s);
      assert.ok(r.per_user_tokens_per_s < prev.per_user_tokens_per_s);
    }
    prev = r;
  }
});

test('property: visible transfer is never negative and T_split adds its parts', () => {
  assert.equal(cluster.visible_transfer({ raw_ms: 30, overlap_ms: 50 }).visible_ms, 0);
  assert.equal(cluster.visible_transfer({ raw_ms: 80, overlap_ms: 50 }).visible_ms, 30);
  const t = cluster.split_time({ queue_p_ms: 5, prefill_ms: 100, transfer_raw_ms: 80, overlap_ms: 50, queue_d_ms: 7, decode_ms: 400 });
  assert.equal(t.transfer_visible_ms, 30);
  assert.equal(t.total_ms, 5 + 100 + 30 + 7 + 400);
});

test('property: splitting over n cards is slower than one exactly when sync exceeds the compute saved', () => {
  const r = rng(5);
  for (let i = 0; i < 200; i += 1) {
    const single = 1 + r() * 20;
    const cards = 2 + Math.floor(r() * 7);
    const comm = r() * 20;
    const p = cluster.parallel_speedup({ single_ms: single, cards: cards, comm_ms: comm });
    assert.equal(p.slower_than_single, comm > single - single / cards);
    assert.ok(p.speedup < cards);
  }
});

test('property: a hot expert makes the busiest card exceed the mean while the total is conserved', () => {
  const r = cluster.expert_skew({ cards: 4, work_per_card: 25, hot_work: 60 });
  assert.ok(Math.abs(r.other_per_card * 3 + 60 - r.total_work) < 1e-9);
  assert.ok(r.max_over_mean > 1);
});

test('property: effective bits never fall below element bits; scales only add', () => {
  for (const block of [8, 16, 32, 64]) {
    const r = quant.effective_bits({ element_bits: 4, scale_bits: 8, block_size: block });
    assert.ok(r.bits_per_value > 4);
    assert.ok(r.compression_vs_reference < 4);
  }
});

test('linear intensity: about N at 16 bit while N is small; activations cap it near d·d′/(d+d′)', () => {
  const layer = { d_in: 4096, d_out: 4096, bytes_per_value: 2 };
  const decode = bottleneck.linear_intensity({ ...layer, tokens: 16 });
  assert.ok(Math.abs(decode.intensity_flop_per_byte - 16) < 0.2, 'decode at batch 16: about 16');
  assert.equal(decode.weights_only_flop_per_byte, 16);
  const prefill = bottleneck.linear_intensity({ ...layer, tokens: 8000 });
  assert.equal(Math.round(prefill.intensity_flop_per_byte), 1631, '8,000 rows: about 1,600, not 8,000');
  assert.equal(prefill.limit_flop_per_byte, 2048);
  const r = rng(11);
  let previous = 0;
  for (const tokens of [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 1e6]) {
    const out = bottleneck.linear_intensity({ ...layer, tokens });
    assert.ok(out.intensity_flop_per_byte > previous, 'more rows, more intensity');
    assert.ok(out.intensity_flop_per_byte < out.limit_flop_per_byte, 'never past the limit');
    assert.ok(out.intensity_flop_per_byte <= out.weights_only_flop_per_byte, 'activations only add bytes');
    previous = out.intensity_flop_per_byte;
  }
  for (let i = 0; i < 200; i++) {
    const args = { tokens: 1 + 1e5 * r(), d_in: 1 + 8191 * r(), d_out: 1 + 8191 * r(), bytes_per_value: 0.5 + 3.5 * r() };
    const out = bottleneck.linear_intensity(args);
    assert.ok(out.intensity_flop_per_byte < Math.min(out.limit_flop_per_byte, out.weights_only_flop_per_byte) + 1e-9);
  }
});

test('roofline ridge: 100 TFLOP/s over 1 TB/s is 100 FLOP/byte; a layer below it is bandwidth-bound', () => {
  const layer = { peak_tflops: 100, bandwidth_tb_per_s: 1, d_in: 4096, d_out: 4096, bytes_per_value: 2 };
  const prefill = bottleneck.ridge_point({ ...layer, tokens: 8000 });
  assert.equal(prefill.ridge_flop_per_byte, 100);
  assert.equal(prefill.attainable_tflops, 100);
  const decode = bottleneck.ridge_point({ ...layer, tokens: 16 });
  assert.equal(Math.round(decode.attainable_tflops), 16);
  assert.equal(Math.round(decode.peak_share_pct), 16);
  const r = rng(7);
  for (let i = 0; i < 200; i++) {
    const args = { ...layer, peak_tflops: 1 + 999 * r(), bandwidth_tb_per_s: 0.1 + 9.9 * r(), tokens: 1 + 20000 * r() };
    const out = bottleneck.ridge_point(args);
    assert.ok(out.attainable_tflops <= args.peak_tflops + 1e-9, 'never above the compute roof');
    assert.equal(out.intensity_flop_per_byte >= out.ridge_flop_per_byte, Math.abs(out.attainable_tflops - args.peak_tflops) < 1e-9);
  }
});

test('SmoothQuant in levels: an outlier of 100 leaves a typical channel about 1.3 INT8 levels; /10 gives 12.7', () => {
  const out = quant.smooth_levels({ outlier_max: 100, typical_max: 1, smoothing: 10, bits: 8 });
  near(out.levels_before, 1.3, 1, 'before');
  near(out.levels_after, 12.7, 1, 'after');
  assert.equal(out.weight_row_scale, 10);
  const none = quant.smooth_levels({ outlier_max: 100, typical_max: 1, smoothing: 1, bits: 8 });
  assert.equal(none.levels_after, none.levels_before, 'no smoothing, no change');
  const past = quant.smooth_levels({ outlier_max: 100, typical_max: 1, smoothing: 1000, bits: 8 });
  assert.equal(past.levels_after, 127, 'the typical channel can at most fill the whole range');
});

test('sparse read share: 2,048 of 131,072 history tokens is 1.5625 %', () => {
  const out = kv.sparse_read_share({ context_tokens: 131072, selected_tokens: 2048 });
  assert.equal(out.read_share_pct, 1.5625);
  assert.equal(out.skipped_tokens, 129024);
  assert.equal(kv.sparse_read_share({ context_tokens: 1000, selected_tokens: 2048 }).read_share_pct, 100, 'a short history is read whole');
});

test('004 l.201: in full prefill a GQA layer\'s KV is half its queries; in decode one query is tiny next to the history', () => {
  const prefill = kv.pass_kv_or_q({ tokens_q: 8192, tokens_kv: 8192, q_heads: 32, kv_heads: 8, head_dim: 128, bits: 16 });
  assert.equal(prefill.q_kib, 65536);
  assert.equal(prefill.kv_kib, 32768);
  assert.equal(prefill.kv_mib, 32);
  assert.equal(prefill.pass, 'kv');
  const decode = kv.pass_kv_or_q({ tokens_q: 1, tokens_kv: 131072, q_heads: 32, kv_heads: 8, head_dim: 128, bits: 16 });
  assert.equal(decode.q_kib, 8);
  assert.equal(decode.kv_kib, 524288);
  assert.equal(decode.kv_over_q, 65536);
  assert.equal(decode.pass, 'q');
});

test('004 l.131: one block per head leaves 68 of 100 SMs idle at batch 1; split along the sequence, all busy', () => {
  const r = bottleneck.attention_blocks({ batch: 1, heads: 32, seq_len: 8192, block_rows: 128, sms: 100 });
  assert.equal(r.blocks_per_head, 32);
  assert.equal(r.blocks_split, 2048);
  assert.equal(r.busy_share_per_head_pct, 32);
  assert.equal(r.busy_share_split_pct, 100);
  assert.equal(bottleneck.attention_blocks({ batch: 8, heads: 32, seq_len: 100, block_rows: 128, sms: 100 }).blocks_split, 256);
});

test('004 l.217-219: cold neurons on the CPU set the step unless the hot spot is concentrated enough', () => {
  const spread = bottleneck.neuron_split({ active_gb: 1, hot_share: 0.8, gpu_gbps: 1000, cpu_gbps: 50 });
  assert.ok(Math.abs(spread.gpu_ms - 0.8) < 1e-9 && Math.abs(spread.cpu_ms - 4) < 1e-9);
  assert.equal(spread.step_ms, spread.cpu_ms);
  assert.equal(spread.cpu_bound, true);
  const hot = bottleneck.neuron_split({ active_gb: 1, hot_share: 0.98, gpu_gbps: 1000, cpu_gbps: 50 });
  assert.ok(Math.abs(hot.step_ms - 0.98) < 1e-9 && Math.abs(hot.cpu_ms - 0.4) < 1e-9);
  assert.equal(hot.cpu_bound, false);
  assert.throws(() => bottleneck.neuron_split({ active_gb: 1, hot_share: 1.5, gpu_gbps: 1000, cpu_gbps: 50 }), RangeError);
});
