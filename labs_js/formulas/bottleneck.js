/*
 * bottleneck — teaching formulas for "which kind of busy is the step".
 * Classic script through shared/define.js: registers globalThis.AtlasLabs.bottleneck
 * and, under Node, module.exports. One object in, one object out.
 *
 * These are lower bounds and shares for building intuition, not latency
 * predictors: real steps add overlap effects, cache hits, batching and
 * implementation details. The time to move a payload over a link
 * (size / bandwidth) is the lab model's batch.kv_transfer.
 */
(typeof module === 'object' ? module : {}).exports = (typeof require === 'function'
  ? require('../shared/define.js') : globalThis.AtlasLabs.define)('bottleneck', function (lib) {
  'use strict';
  const num = lib.num;

  /**
   * Step-time lower bound ≳ max(F / C, M / B, comm / net) + exposed time.
   * Each term assumes the others overlap perfectly; `exposed_s` is the part
   * that cannot overlap (launch, sync, scheduling). Terms left out count as 0.
   */
  function step_time_lower_bound(args) {
    function term(amount_key, rate_key) {
      const amount = num(args, amount_key, 0);
      if (amount === 0) return 0;
      return amount / num(args, rate_key);
    }
    const compute_s = term('flops', 'flops_per_s');
    const memory_s = term('bytes', 'bytes_per_s');
    const comm_s = term('comm_bytes', 'comm_bytes_per_s');
    const exposed_s = num(args, 'exposed_s', 0);
    const slowest = Math.max(compute_s, memory_s, comm_s);
    let bound = 'none';
    if (slowest > 0) bound = slowest === compute_s ? 'compute' : slowest === memory_s ? 'memory' : 'communication';
    return {
      compute_s: compute_s,
      memory_s: memory_s,
      comm_s: comm_s,
      lower_bound_s: slowest + exposed_s,
      bound: bound,
    };
  }

  /**
   * Bandwidth-only decode step: every step reads the weights once (shared by
   * the batch) plus each request's own KV. Compute and communication are
   * ignored, so this is the memory term of the lower bound. Total throughput
   * grows with batch, but every user waits for the longer step.
   */
  function decode_step_bandwidth(args) {
    const batch = num(args, 'batch');
    const gb_per_step = num(args, 'weight_gb') + num(args, 'kv_gb_per_request') * batch;
    const step_s = step_time_lower_bound({
      bytes: gb_per_step * 1e9,
      bytes_per_s: num(args, 'bandwidth_tb_per_s') * 1e12,
    }).lower_bound_s;
    return {
      step_ms: step_s * 1e3,
      total_tokens_per_s: batch / step_s,
      per_user_tokens_per_s: 1 / step_s,
    };
  }

  /**
   * Amdahl: if a fraction f of the time is sped up locally by S_local, the
   * whole speeds up by 1 / ((1 − f) + f / S_local), and never beyond 1 / (1 − f).
   */
  function amdahl(args) {
    const p = num(args, 'fraction');
    const s = num(args, 'local_speedup');
    if (p < 0 || p > 1) throw new RangeError('bottleneck: fraction must lie in [0, 1]');
    if (s <= 0) throw new RangeError('bottleneck: local_speedup must be positive');
    const remaining = (1 - p) + p / s;
    return {
      remaining_fraction: remaining,
      speedup: 1 / remaining,
      // null when p = 1: no finite ceiling (and Infinity is not JSON).
      speedup_limit: p < 1 ? 1 / (1 - p) : null,
    };
  }

  /**
   * One part of a step gets faster (part_ms → part_ms_after): new step time
   * and whole-step speedup, via Amdahl with p = part / total, s = part / after.
   * A second optimisation of the same part must start from this new step.
   */
  function partial_speedup(args) {
    const total = num(args, 'total_ms');
    const part = num(args, 'part_ms');
    const after = num(args, 'part_ms_after');
    const a = amdahl({ fraction: part / total, local_speedup: part / after });
    return { total_ms_after: total * a.remaining_fraction, speedup: a.speedup };
  }

  /**
   * Many tiny kernels separated by CPU launch gaps: serial time, the most
   * that removing every gap could recover (an upper bound), the gap share of
   * that small-kernel segment, and its share of a whole step that also runs
   * other work (e.g. one large GEMM) — Amdahl again.
   */
  function launch_gap_recovery(args) {
    const kernels = num(args, 'kernels');
    const compute_us = num(args, 'compute_us');
    const gap_us = num(args, 'gap_us');
    const other_us = num(args, 'other_us', 0);
    const serial_us = kernels * (compute_us + gap_us);
    const recoverable_us = kernels * gap_us;
    return {
      serial_us: serial_us,
      recoverable_us: recoverable_us,
      gap_share_pct: 100 * recoverable_us / serial_us,
      step_share_pct: 100 * recoverable_us / (serial_us + other_us),
    };
  }

  /**
   * Arithmetic intensity of one linear layer (d_in × d_out weights) applied to `tokens` rows at
   * `bytes_per_value` bytes a value: 2·N·d_in·d_out operations over the bytes moved, the weights
   * read once plus the activations read in and written out. With few rows (decode: N is the batch)
   * the weights dominate the bytes and the intensity is about 2N / bytes_per_value (≈ N at 16 bit);
   * with many rows (a long prefill) the activations' bytes grow with N too, and the intensity
   * levels off towards 2·d_in·d_out / (bytes_per_value · (d_in + d_out)), however long the prompt.
   */
  function linear_intensity(args) {
    const n = num(args, 'tokens');
    const d_in = num(args, 'd_in');
    const d_out = num(args, 'd_out');
    const b = num(args, 'bytes_per_value');
    const flops = 2 * n * d_in * d_out;
    const intensity = flops / (b * (d_in * d_out + n * d_in + n * d_out));
    const limit = 2 * d_in * d_out / (b * (d_in + d_out));
    return {
      intensity_flop_per_byte: intensity,
      weights_only_flop_per_byte: flops / (b * d_in * d_out),
      limit_flop_per_byte: limit,
      share_of_limit_pct: 100 * intensity / limit,
    };
  }

  /**
   * The roofline's ridge point: peak compute / bandwidth, in FLOP per byte (TFLOP/s over TB/s),
   * and where a linear layer of `tokens` rows sits against it (linear_intensity). Below the ridge
   * a step is bound by bandwidth and reaches only bandwidth × intensity; above it, by compute, at
   * the peak.
   */
  function ridge_point(args) {
    const peak = num(args, 'peak_tflops');
    const bandwidth = num(args, 'bandwidth_tb_per_s');
    const intensity = linear_intensity(args).intensity_flop_per_byte;
    const attainable = Math.min(peak, bandwidth * intensity);
    return {
      ridge_flop_per_byte: peak / bandwidth,
      intensity_flop_per_byte: intensity,
      attainable_tflops: attainable,
      peak_share_pct: 100 * attainable / peak,
    };
  }

  /**
   * How many of a GPU's SMs an attention kernel can keep busy (seed 004 l.131, FA2): one thread
   * block per (sequence, head) gives batch × heads blocks; cutting each head's query sequence into
   * blocks of `block_rows` rows gives that many times more. The busy share is blocks / SMs, at most
   * one: a first-order count of parallel work, not a measured occupancy.
   */
  function attention_blocks(args) {
    const per_head = num(args, 'batch') * num(args, 'heads');
    const split = per_head * Math.ceil(num(args, 'seq_len') / num(args, 'block_rows'));
    const sms = num(args, 'sms');
    return {
      blocks_per_head: per_head,
      blocks_split: split,
      busy_share_per_head_pct: 100 * Math.min(1, per_head / sms),
      busy_share_split_pct: 100 * Math.min(1, split / sms),
    };
  }

  /**
   * A step whose weights are read on two devices at once (seed 004 l.217-219, PowerInfer): of the
   * `active_gb` of weights one token activates, `hot_share` sits in hot neurons on the GPU and the
   * rest in cold ones on the CPU; each side reads its part at its own bandwidth and the step waits
   * for the slower one (the merge is not counted). A first-order bound, not a measurement.
   */
  function neuron_split(args) {
    const active = num(args, 'active_gb');
    const hot = num(args, 'hot_share');
    if (!(hot >= 0 && hot <= 1)) throw new RangeError('bottleneck: hot_share must be within [0, 1]');
    const gpu_ms = active * hot / num(args, 'gpu_gbps') * 1e3;
    const cpu_ms = active * (1 - hot) / num(args, 'cpu_gbps') * 1e3;
    return {
      hot_pct: 100 * hot, cold_pct: 100 * (1 - hot),
      gpu_ms: gpu_ms, cpu_ms: cpu_ms, step_ms: Math.max(gpu_ms, cpu_ms), cpu_bound: cpu_ms > gpu_ms,
    };
  }

  return {
    neuron_split: neuron_split,
    attention_blocks: attention_blocks,
    linear_intensity: linear_intensity,
    ridge_point: ridge_point,
    step_time_lower_bound: step_time_lower_bound,
    decode_step_bandwidth: decode_step_bandwidth,
    amdahl: amdahl,
    partial_speedup: partial_speedup,
    launch_gap_recovery: launch_gap_recovery,
  };
});
