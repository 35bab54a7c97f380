/*
 * kv — teaching formulas for KV-cache size ratios and reuse decisions.
 * Classic script through shared/define.js: registers globalThis.AtlasLabs.kv
 * and, under Node, module.exports. One object in, one object out.
 *
 * The KV size itself (S_KV = 2 × L × N × H_kv × d × b × batch), paged
 * allocation, radix prefix sharing and the hybrid-cache hit boundary are the
 * lab models' functions: memory.kv_bytes / kv_bytes_per_token,
 * memory.paged_waste, fleet.radix_prefix_state and fleet.hit_boundary.
 * Scope: standard (MHA/GQA/MQA) attention caches.
 */
(typeof module === 'object' ? module : {}).exports = (typeof require === 'function'
  ? require('../shared/define.js') : globalThis.AtlasLabs.define)('kv', function (lib) {
  'use strict';
  const num = lib.num;
  const MIB = 1024 * 1024;

  // The inputs of memory.kv_bytes; batch is its `concurrency`, the element width its `kv_bits`.
  const KV_DIMS = ['concurrency', 'layers', 'tokens', 'kv_heads', 'head_dim', 'kv_bits'];

  /**
   * How much the KV body changes when some dimensions change and the rest
   * stay put: for each dimension give `x` (before) and optionally `x_after`.
   * Dimensions not given are held equal, so they cancel (counted as 1).
   * Only the cache size changes by this ratio — not the query-side compute.
   */
  function kv_bytes_ratio(args) {
    const before = {};
    const after = {};
    KV_DIMS.forEach(function (k) {
      before[k] = num(args, k, 1);
      after[k] = num(args, k + '_after', before[k]);
    });
    const memory = lib.model('memory');
    return { ratio: memory.kv_bytes(after).bytes / memory.kv_bytes(before).bytes };
  }

  /**
   * Teaching criterion for keeping a KV segment:
   * benefit ≈ P(hit again) × avoided prefill − storage − write − fetch − crowding.
   * Every cost term is an expected cost in the same unit as the avoided
   * prefill (here ms of work); keeping pays only when the benefit is positive.
   */
  function cache_value(args) {
    const benefit = num(args, 'hit_probability') * num(args, 'recompute_ms') -
      num(args, 'storage_ms', 0) - num(args, 'write_ms', 0) -
      num(args, 'fetch_ms') - num(args, 'crowding_ms', 0);
    return { expected_benefit_ms: benefit, worth_keeping: benefit > 0 };
  }

  /**
   * What FlashAttention never writes to HBM, next to what has to stay there:
   * the N × N score matrix of one head in one layer (N² × bits / 8) against
   * that head's K and V for the same N tokens (memory.kv_bytes, one layer,
   * one KV head). The scores are an intermediate; the KV is kept state.
   */
  function score_matrix_vs_kv(args) {
    const tokens = num(args, 'tokens');
    const bits = num(args, 'bits');
    const score = tokens * tokens * bits / 8;
    const kv = lib.model('memory').kv_bytes({
      layers: 1, tokens: tokens, kv_heads: 1, head_dim: num(args, 'head_dim'), kv_bits: bits,
    }).bytes;
    return { score_mib: score / MIB, kv_mib: kv / MIB, score_over_kv: score / kv };
  }

  return {
    kv_bytes_ratio: kv_bytes_ratio,
    cache_value: cache_value,
    score_matrix_vs_kv: score_matrix_vs_kv,
  };
});
