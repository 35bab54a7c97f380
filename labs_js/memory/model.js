/*
 * Lab A · Memory & KV — pure model (no DOM).
 * Classic script through shared/define.js: registers globalThis.AtlasLabs.memory
 * and, under Node, module.exports. Every function takes one object and returns one object.
 *
 * Units: GiB = 2^30 bytes, KiB = 2^10 bytes, GB = 10^9 bytes (the seeds print
 * "70B × 2 bytes = 140 GB" in decimal and "128 KiB", "16 GiB" in binary).
 * Architecture arithmetic only: no scales/zero points, workspace, graphs,
 * communication buffers or runtime metadata (seed 000 §3.1 lists them).
 */
(typeof module === 'object' ? module : {}).exports = (typeof require === 'function'
  ? require('../shared/define.js') : globalThis.AtlasLabs.define)('memory', function (lib) {
  'use strict';
  const num = lib.num;

  const KIB = 1024;
  const GIB = 1024 * 1024 * 1024;
  const ATTENTION = ['mha', 'gqa', 'mla', 'kda_hybrid'];

  /** P × b_w / 8 — the bare weight lower bound (seed 000 §3.1). */
  function weight_bytes(args) {
    const bytes = num(args, 'params_b') * 1e9 * num(args, 'weight_bits') / 8;
    return { bytes: bytes, gb: bytes / 1e9, gib: bytes / GIB };
  }

  /** L × 2 × H_kv × D_h × s — K and V of every layer for one token (seed 000 §3.2). */
  function kv_bytes_per_token(args) {
    const bytes = num(args, 'layers') * 2 * num(args, 'kv_heads') * num(args, 'head_dim') *
      num(args, 'kv_bits') / 8;
    return { bytes_per_token: bytes, kib_per_token: bytes / KIB };
  }

  /** B × T × KVBytesPerToken — linear in every factor. */
  function kv_bytes(args) {
    const per_token = kv_bytes_per_token(args).bytes_per_token;
    const bytes = num(args, 'concurrency', 1) * num(args, 'tokens') * per_token;
    return { bytes: bytes, kib: bytes / KIB, gib: bytes / GIB };
  }

  /**
   * Paged allocation of one request (seed 000 §4.1, 004 PagedAttention):
   * blocks = ceil(T / S); allocated = blocks × S; internal waste = allocated − T.
   * max_len (optional) is what a contiguous reservation would have held.
   */
  function paged_waste(args) {
    const actual = num(args, 'actual_len');
    const block = num(args, 'block_size');
    if (block < 1) throw new RangeError('memory: block_size must be ≥ 1');
    const blocks = Math.ceil(actual / block);
    const allocated = blocks * block;
    const waste = allocated - actual;
    const reserved = num(args, 'max_len', allocated);
    return {
      blocks: blocks,
      allocated_slots: allocated,
      waste_slots: waste,
      waste_share: allocated > 0 ? waste / allocated : 0,
      reserved_slots: reserved,
      reserved_waste_slots: reserved - actual,
    };
  }

  /**
   * Grouped-query attention shares each K/V head among the same number of query heads: the
   * KV heads are at most the query heads and divide them evenly (1 = MQA, equal = MHA). A
   * RangeError otherwise, naming the input at fault (`problem`: what the lab's form says).
   */
  function check_gqa_heads(q_heads, kv_heads) {
    if (kv_heads >= 1 && kv_heads <= q_heads && q_heads % kv_heads === 0) return;
    throw lib.refuse('GQA needs kv_heads ≤ q_heads with q_heads divisible by kv_heads (q_heads ' +
      q_heads + ', kv_heads ' + kv_heads + ')', { kind: 'divides', param: 'kv_heads', min: 1, max: q_heads });
  }

  /**
   * Per-request state layout for each attention family. MLA and KDA numbers
   * are explicit teaching assumptions, not any checkpoint's configuration:
   *  - mha: KV heads = Q heads;  gqa: KV heads as given (1 = MQA).
   *  - mla: every layer stores mla_latent_ratio × (2 × q_heads × head_dim)
   *    elements per token (a latent, still growing with T).
   *  - kda_hybrid: kda_share of the layers keep a fixed recurrent state of
   *    kda_state_kib per layer per request; the rest are MLA layers as above.
   */
  function attention_state(args) {
    const attention = args.attention === undefined ? 'gqa' : args.attention;
    if (ATTENTION.indexOf(attention) < 0) {
      throw new RangeError('memory: attention must be one of ' + ATTENTION.join(', '));
    }
    const layers = num(args, 'layers');
    const head_dim = num(args, 'head_dim');
    const q_heads = num(args, 'q_heads', num(args, 'kv_heads', 1));
    if (attention === 'gqa') check_gqa_heads(q_heads, num(args, 'kv_heads'));
    const bytes_per_elem = num(args, 'kv_bits') / 8;
    let kv_layers = layers;
    let elems_per_layer;
    let state_bytes = 0;
    if (attention === 'mha') elems_per_layer = 2 * q_heads * head_dim;
    else if (attention === 'gqa') elems_per_layer = 2 * num(args, 'kv_heads') * head_dim;
    else {
      elems_per_layer = num(args, 'mla_latent_ratio') * 2 * q_heads * head_dim;
      if (attention === 'kda_hybrid') {
        const kda_layers = Math.round(layers * num(args, 'kda_share'));
        kv_layers = layers - kda_layers;
        state_bytes = kda_layers * num(args, 'kda_state_kib') * KIB;
      }
    }
    const per_token = kv_layers * elems_per_layer * bytes_per_elem;
    return {
      attention: attention,
      kv_layers: kv_layers,
      state_layers: layers - kv_layers,
      kv_bytes_per_token: per_token,
      kv_kib_per_token: per_token / KIB,
      state_bytes_per_request: state_bytes,
      state_kib_per_request: state_bytes / KIB,
    };
  }

  /**
   * The whole lab. Status: OOM when not even one request fits next to the
   * weights, KV-LIMITED when fewer than `concurrency` fit, FIT otherwise.
   */
  function evaluate(args) {
    const weights = weight_bytes(args);
    const state = attention_state(args);
    const context = num(args, 'context_len');
    const concurrency = num(args, 'concurrency');
    const pages = paged_waste({ actual_len: context, block_size: num(args, 'block_size') });
    const active_per_request = context * state.kv_bytes_per_token + state.state_bytes_per_request;
    // Paged allocation reserves whole blocks, so capacity is planned on allocated slots.
    const allocated_per_request = pages.allocated_slots * state.kv_bytes_per_token +
      state.state_bytes_per_request;
    const hbm = num(args, 'hbm_gib') * GIB;
    const free = hbm - weights.bytes;
    let max_concurrency = 0;
    if (free > 0) {
      max_concurrency = allocated_per_request > 0 ? Math.floor(free / allocated_per_request) : Infinity;
    }
    let status = 'FIT';
    if (max_concurrency < 1) status = 'OOM';
    else if (max_concurrency < concurrency) status = 'KV-LIMITED';
    const needed = weights.bytes + concurrency * allocated_per_request;
    return {
      weight_gib: weights.gib,
      weight_gb: weights.gb,
      kv_kib_per_token: state.kv_kib_per_token,
      state_kib_per_request: state.state_kib_per_request,
      active_kv_gib: concurrency * active_per_request / GIB,
      paged_waste_tokens: pages.waste_slots,
      paged_waste_share: pages.waste_share,
      max_concurrency: max_concurrency,
      needed_gib: needed / GIB,
      hbm_share: needed / hbm,
      status: status,
    };
  }

  return {
    weight_bytes: weight_bytes,
    kv_bytes_per_token: kv_bytes_per_token,
    kv_bytes: kv_bytes,
    paged_waste: paged_waste,
    attention_state: attention_state,
    evaluate: evaluate,
  };
});
