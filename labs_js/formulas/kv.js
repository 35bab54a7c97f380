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

  /**
   * Context parallelism's choice of what to send (seed 004 l.201, pass-KV or pass-Q): per layer,
   * the queries of the tokens being computed (tokens_q × H_q × D_h) against the K and V of the
   * tokens they attend to (tokens_kv × 2 × H_kv × D_h), both at `bits`. Whichever is smaller is
   * the cheaper to pass; the real algorithm also has reductions and masks to handle.
   */
  function pass_kv_or_q(args) {
    const bytes = num(args, 'bits') / 8;
    const head_dim = num(args, 'head_dim');
    const q = num(args, 'tokens_q') * num(args, 'q_heads') * head_dim * bytes;
    const kv = lib.model('memory').kv_bytes({
      layers: 1, tokens: num(args, 'tokens_kv'), kv_heads: num(args, 'kv_heads'), head_dim: head_dim,
      kv_bits: num(args, 'bits'),
    }).bytes;
    return { q_kib: q / 1024, kv_kib: kv / 1024, q_mib: q / MIB, kv_mib: kv / MIB, kv_over_q: kv / q, pass: kv < q ? 'kv' : 'q' };
  }

  /**
   * Sparse attention that reads only `selected_tokens` of a `context_tokens`
   * history per query (DSA's main attention after its indexer): the share of
   * the history the main attention reads. The indexer that picks them still
   * scores every token, which this share leaves out.
   */
  function sparse_read_share(args) {
    const context = num(args, 'context_tokens');
    const selected = Math.min(num(args, 'selected_tokens'), context);
    return {
      read_share_pct: 100 * selected / context,
      skipped_tokens: context - selected,
    };
  }

  return {
    sparse_read_share: sparse_read_share,
    kv_bytes_ratio: kv_bytes_ratio,
    cache_value: cache_value,
    score_matrix_vs_kv: score_matrix_vs_kv,
    pass_kv_or_q: pass_kv_or_q,
  };
});
