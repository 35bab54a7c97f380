/*
 * bottleneck — teaching formulas for "which kind of busy is the step".
 * Classic script, no dependencies. Registers globalThis.AtlasLabs.bottleneck
 * and, under Node, module.exports. One object in, one object out.
 *
 * These are lower bounds and shares for building intuition, not latency
 * predictors: real steps add overlap effects, cache hits, batching and
 * implementation details.
 */
(function (root) {
  'use strict';

  function finite(v, name) {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new TypeError('bottleneck: input "' + name + '" must be a finite number');
    }
    return v;
  }
  function need(args, key, fallback) {
    return finite(args && args[key] !== undefined ? args[key] : fallback, key);
  }

  // Size given in exactly one unit; GB is decimal (10^9), GiB binary (2^30),
  // because the tutorial mixes decimal link speeds with binary cache sizes.
  function to_bytes(args) {
    const given = ['bytes', 'gb', 'gib'].filter(function (k) { return args[k] !== undefined; });
    if (given.length !== 1) throw new TypeError('bottleneck: give exactly one of bytes, gb, gib');
    if (given[0] === 'bytes') return need(args, 'bytes');
    if (given[0] === 'gb') return need(args, 'gb') * 1e9;
    return need(args, 'gib') * Math.pow(2, 30);
  }

  /**
   * Time to move a payload over a link or memory at an effective (not peak)
   * bandwidth in decimal GB/s: size / bandwidth, nothing hidden by overlap.
   */
  function transfer_time(args) {
    const bytes = to_bytes(args);
    const seconds = bytes / (need(args, 'gb_per_s') * 1e9);
    return { bytes: bytes, seconds: seconds, ms: seconds * 1e3 };
  }

  /**
   * Step-time lower bound ≳ max(F / C, M / B, comm / net) + exposed time.
   * Each term assumes the others overlap perfectly; `exposed_s` is the part
   * that cannot overlap (launch, sync, scheduling). Terms left out count as 0.
   */
  function step_time_lower_bound(args) {
    function term(amount_key, rate_key) {
      const amount = need(args, amount_key, 0);
      if (amount === 0) return 0;
      return amount / need(args, rate_key);
    }
    const compute_s = term('flops', 'flops_per_s');
    const memory_s = term('bytes', 'bytes_per_s');
    const comm_s = term('comm_bytes', 'comm_bytes_per_s');
    const exposed_s = need(args, 'exposed_s', 0);
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
    const batch = need(args, 'batch');
    const gb_per_step = need(args, 'weight_gb') + need(args, 'kv_gb_per_request') * batch;
    const step_s = step_time_lower_bound({
      bytes: gb_per_step * 1e9,
      bytes_per_s: need(args, 'bandwidth_tb_per_s') * 1e12,
    }).lower_bound_s;
    return {
      step_ms: step_s * 1e3,
      total_tokens_per_s: batch / step_s,
      per_user_tokens_per_s: 1 / step_s,
    };
  }

  /**
   * Amdahl: if a fraction p of the time is sped up locally by s, the whole
   * speeds up by 1 / ((1 − p) + p / s), and never beyond 1 / (1 − p).
   */
  function amdahl(args) {
    const p = need(args, 'fraction');
    const s = need(args, 'local_speedup');
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
    const total = need(args, 'total_ms');
    const part = need(args, 'part_ms');
    const after = need(args, 'part_ms_after');
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
    const kernels = need(args, 'kernels');
    const compute_us = need(args, 'compute_us');
    const gap_us = need(args, 'gap_us');
    const other_us = need(args, 'other_us', 0);
    const serial_us = kernels * (compute_us + gap_us);
    const recoverable_us = kernels * gap_us;
    return {
      serial_us: serial_us,
      recoverable_us: recoverable_us,
      gap_share_pct: 100 * recoverable_us / serial_us,
      step_share_pct: 100 * recoverable_us / (serial_us + other_us),
    };
  }

  const api = {
    transfer_time: transfer_time,
    step_time_lower_bound: step_time_lower_bound,
    decode_step_bandwidth: decode_step_bandwidth,
    amdahl: amdahl,
    partial_speedup: partial_speedup,
    launch_gap_recovery: launch_gap_recovery,
  };

  root.AtlasLabs = root.AtlasLabs || {};
  root.AtlasLabs.bottleneck = api;
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
})(typeof globalThis !== 'undefined' ? globalThis : this);
