/*
 * cluster — teaching formulas for serving many requests on many devices:
 * P/D split time, parallelism, MoE skew, AFD, routing cost.
 * Classic script through shared/define.js: registers globalThis.AtlasLabs.cluster
 * and, under Node, module.exports. One object in, one object out.
 *
 * Static-batch slot-rounds, the chunked-prefill token budget and the raw KV
 * hand-off time are the lab model's functions: batch.slot_rounds,
 * batch.chunk_plan and batch.kv_transfer.
 * These are first-order decompositions for reasoning, not a scheduler model:
 * real systems overlap, queue and batch in ways these sums leave out.
 */
(typeof module === 'object' ? module : {}).exports = (typeof require === 'function'
  ? require('../shared/define.js') : globalThis.AtlasLabs.define)('cluster', function (lib) {
  'use strict';
  const num = lib.num;

  /** T_X_visible ≈ max(0, T_X_raw − overlappable part). */
  function visible_transfer(args) {
    return { visible_ms: Math.max(0, num(args, 'raw_ms') - num(args, 'overlap_ms', 0)) };
  }

  /**
   * T_split = Q_P + T_P + T_X_visible + Q_D + T_D: queueing and work in the
   * prefill pool, the part of the KV hand-off that is not hidden, then
   * queueing and work in the decode pool.
   */
  function split_time(args) {
    const visible = visible_transfer({
      raw_ms: num(args, 'transfer_raw_ms'),
      overlap_ms: num(args, 'overlap_ms', 0),
    }).visible_ms;
    return {
      transfer_visible_ms: visible,
      total_ms: num(args, 'queue_p_ms', 0) + num(args, 'prefill_ms') + visible +
        num(args, 'queue_d_ms', 0) + num(args, 'decode_ms'),
    };
  }

  /**
   * Splitting one computation over several cards: compute divides (at best),
   * synchronisation does not. Speedup = single / (single / cards + comm);
   * below 1 the split is slower than one card.
   */
  function parallel_speedup(args) {
    const single = num(args, 'single_ms');
    const compute = single / num(args, 'cards');
    const total = compute + num(args, 'comm_ms');
    return {
      compute_ms: compute,
      parallel_ms: total,
      speedup: single / total,
      slower_than_single: total > single,
    };
  }

  /**
   * MoE load skew: when one expert's card receives hot_work units out of the
   * usual cards × work_per_card, the rest share the remainder, but the step
   * still waits for the busiest card; the mean hides that wait.
   */
  function expert_skew(args) {
    const cards = num(args, 'cards');
    const total = cards * num(args, 'work_per_card');
    const hot = num(args, 'hot_work');
    const mean = total / cards;
    return {
      total_work: total,
      other_per_card: (total - hot) / (cards - 1),
      mean_per_card: mean,
      max_over_mean: hot / mean,
    };
  }

  /**
   * Attention/FFN disaggregation: every split layer adds a round trip on every
   * decode step, so the unhidden extra ≈ steps × split layers × per-layer
   * unhidden round trip (fully serial; micro-batch pipelining hides some).
   */
  function afd_exposed_latency(args) {
    const us = num(args, 'steps') * num(args, 'split_layers') * num(args, 'roundtrip_us');
    return { exposed_us: us, exposed_ms: us / 1e3 };
  }

  /**
   * Routing score: expected completion ≈ queue + un-hit prefill + state
   * transfer + decode. A cache hit on a long queue can lose to a miss on an
   * idle node.
   */
  function completion_cost(args) {
    return {
      total_s: num(args, 'queue_s', 0) + num(args, 'miss_prefill_s', 0) +
        num(args, 'transfer_s', 0) + num(args, 'decode_s', 0),
    };
  }

  return {
    visible_transfer: visible_transfer,
    split_time: split_time,
    parallel_speedup: parallel_speedup,
    expert_skew: expert_skew,
    afd_exposed_latency: afd_exposed_latency,
    completion_cost: completion_cost,
  };
});
