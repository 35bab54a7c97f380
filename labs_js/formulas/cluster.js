/*
 * cluster — teaching formulas for serving many requests on many devices:
 * batching, chunked prefill, P/D disaggregation, parallelism, MoE skew, AFD.
 * Classic script, no dependencies beyond sibling formula modules (kv,
 * bottleneck), looked up lazily so load order does not matter. Registers
 * globalThis.AtlasLabs.cluster and, under Node, module.exports.
 *
 * These are first-order decompositions for reasoning, not a scheduler model:
 * real systems overlap, queue and batch in ways these sums leave out.
 */
(function (root) {
  'use strict';

  function finite(v, name) {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new TypeError('cluster: input "' + name + '" must be a finite number');
    }
    return v;
  }
  function need(args, key, fallback) {
    return finite(args && args[key] !== undefined ? args[key] : fallback, key);
  }
  // Sibling module: from the shared registry in a page, via require in Node.
  function dep(name) {
    if (root.AtlasLabs && root.AtlasLabs[name]) return root.AtlasLabs[name];
    if (typeof require === 'function') return require('./' + name + '.js');
    throw new Error('cluster: formulas/' + name + '.js must be loaded first');
  }

  /**
   * Static batch: every slot stays held until the longest request finishes,
   * so it offers slots × max(rounds) slot-rounds while only Σ rounds do work.
   * The idle slot-rounds are what iteration-level (continuous) batching can
   * refill with new requests; offered / useful is a ceiling, not a promise.
   */
  function static_batch_slots(args) {
    const rounds = args.remaining_rounds;
    if (!Array.isArray(rounds) || rounds.length === 0) {
      throw new TypeError('cluster: remaining_rounds must be a non-empty array');
    }
    rounds.forEach(function (r) { finite(r, 'remaining_rounds[]'); });
    const offered = rounds.length * Math.max.apply(null, rounds);
    const useful = rounds.reduce(function (s, r) { return s + r; }, 0);
    return {
      offered_slot_rounds: offered,
      useful_slot_rounds: useful,
      idle_slot_rounds: offered - useful,
      offered_over_useful: offered / useful,
    };
  }

  /**
   * Chunked prefill with a per-round token budget: running decodes are served
   * first (tokens_per_decode each), the rest of the budget goes to prefill
   * chunks. A first-order knob only: equal token counts are not equal work.
   */
  function chunk_budget(args) {
    const budget = need(args, 'token_budget');
    const decode_tokens = need(args, 'decode_requests') * need(args, 'tokens_per_decode', 1);
    const prefill = Math.max(0, budget - decode_tokens);
    const out = { decode_tokens: Math.min(budget, decode_tokens), prefill_tokens_per_round: prefill };
    if (args.prompt_tokens !== undefined) {
      out.rounds_for_prompt = prefill > 0 ? Math.ceil(need(args, 'prompt_tokens') / prefill) : null;
    }
    return out;
  }

  /** T_X_visible ≈ max(0, T_X_raw − overlappable part). */
  function visible_transfer(args) {
    return { visible_ms: Math.max(0, need(args, 'raw_ms') - need(args, 'overlap_ms', 0)) };
  }

  /**
   * T_split = Q_P + T_P + T_X_visible + Q_D + T_D: queueing and work in the
   * prefill pool, the part of the KV hand-off that is not hidden, then
   * queueing and work in the decode pool.
   */
  function split_time(args) {
    const visible = visible_transfer({
      raw_ms: need(args, 'transfer_raw_ms'),
      overlap_ms: need(args, 'overlap_ms', 0),
    }).visible_ms;
    return {
      transfer_visible_ms: visible,
      total_ms: need(args, 'queue_p_ms', 0) + need(args, 'prefill_ms') + visible +
        need(args, 'queue_d_ms', 0) + need(args, 'decode_ms'),
    };
  }

  /**
   * One request's KV hand-off from P to D: S_KV from the model shape, then
   * T_X_raw ≈ startup + S_KV / effective bandwidth + relayout + sync, minus
   * what overlaps. If the split removes some interference time, the net gain
   * is that saving minus the visible transfer (queues and layout still extra).
   */
  function kv_handoff(args) {
    const size = dep('kv').kv_bytes({
      layers: need(args, 'layers'),
      tokens: need(args, 'tokens'),
      kv_heads: need(args, 'kv_heads'),
      head_dim: need(args, 'head_dim'),
      bytes_per_element: need(args, 'bytes_per_element'),
    });
    const wire_ms = dep('bottleneck').transfer_time({ bytes: size.bytes, gb_per_s: need(args, 'gb_per_s') }).ms;
    const raw_ms = need(args, 'startup_ms', 0) + wire_ms + need(args, 'relayout_ms', 0) + need(args, 'sync_ms', 0);
    const visible_ms = visible_transfer({ raw_ms: raw_ms, overlap_ms: need(args, 'overlap_ms', 0) }).visible_ms;
    const out = { kv_bytes: size.bytes, kv_gib: size.gib, transfer_raw_ms: raw_ms, transfer_visible_ms: visible_ms };
    if (args.interference_saved_ms !== undefined) {
      out.net_gain_ms = need(args, 'interference_saved_ms') - visible_ms;
      out.may_gain = out.net_gain_ms > 0;
    }
    return out;
  }

  /**
   * Splitting one computation over several cards: compute divides (at best),
   * synchronisation does not. Speedup = single / (single / cards + comm);
   * below 1 the split is slower than one card.
   */
  function parallel_speedup(args) {
    const single = need(args, 'single_ms');
    const compute = single / need(args, 'cards');
    const total = compute + need(args, 'comm_ms');
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
    const cards = need(args, 'cards');
    const total = cards * need(args, 'work_per_card');
    const hot = need(args, 'hot_work');
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
    const us = need(args, 'steps') * need(args, 'split_layers') * need(args, 'roundtrip_us');
    return { exposed_us: us, exposed_ms: us / 1e3 };
  }

  /**
   * Routing score: expected completion ≈ queue + un-hit prefill + state
   * transfer + decode. A cache hit on a long queue can lose to a miss on an
   * idle node.
   */
  function completion_cost(args) {
    return {
      total_s: need(args, 'queue_s', 0) + need(args, 'miss_prefill_s', 0) +
        need(args, 'transfer_s', 0) + need(args, 'decode_s', 0),
    };
  }

  const api = {
    static_batch_slots: static_batch_slots,
    chunk_budget: chunk_budget,
    visible_transfer: visible_transfer,
    split_time: split_time,
    kv_handoff: kv_handoff,
    parallel_speedup: parallel_speedup,
    expert_skew: expert_skew,
    afd_exposed_latency: afd_exposed_latency,
    completion_cost: completion_cost,
  };

  root.AtlasLabs = root.AtlasLabs || {};
  root.AtlasLabs.cluster = api;
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
})(typeof globalThis !== 'undefined' ? globalThis : this);
