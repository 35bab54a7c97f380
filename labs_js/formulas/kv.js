/*
 * kv — teaching formulas for KV-cache size, allocation and reuse.
 * Classic script, no dependencies. Registers globalThis.AtlasLabs.kv and,
 * under Node, module.exports. One object in, one object out.
 *
 * Scope: standard (MHA/GQA/MQA) attention caches. MLA latent caches and
 * recurrent (linear-attention) states follow other formulas and are not
 * covered here.
 */
(function (root) {
  'use strict';

  function finite(v, name) {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new TypeError('kv: input "' + name + '" must be a finite number');
    }
    return v;
  }
  function need(args, key, fallback) {
    return finite(args && args[key] !== undefined ? args[key] : fallback, key);
  }

  const KV_DIMS = ['batch', 'layers', 'tokens', 'kv_heads', 'head_dim', 'bytes_per_element'];

  /**
   * S_KV = 2 × L × N × H_kv × d × b (× batch). The 2 is K plus V. H_kv is the
   * number of KV heads, not query heads — GQA shrinks exactly this factor.
   */
  function kv_bytes(args) {
    const batch = need(args, 'batch', 1);
    const per_token = 2 * need(args, 'layers') * need(args, 'kv_heads') *
      need(args, 'head_dim') * need(args, 'bytes_per_element');
    const bytes = batch * need(args, 'tokens') * per_token;
    return {
      bytes: bytes,
      gib: bytes / Math.pow(2, 30),
      kib_per_token: per_token / 1024,
    };
  }

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
      before[k] = need(args, k, 1);
      after[k] = need(args, k + '_after', before[k]);
    });
    return { ratio: kv_bytes(after).bytes / kv_bytes(before).bytes };
  }

  /**
   * Reserving a request's maximum length versus paging it in fixed blocks:
   * paging allocates ceil(T / S) blocks, so only the last block can waste
   * 0 … S−1 slots (internal fragmentation), instead of max − T reserved slots.
   */
  function paged_slots(args) {
    const max_tokens = need(args, 'max_tokens');
    const actual = need(args, 'actual_tokens');
    const block = need(args, 'block_tokens');
    const blocks = Math.ceil(actual / block);
    return {
      reserved_slots: max_tokens,
      reserved_waste: max_tokens - actual,
      paged_blocks: blocks,
      paged_slots: blocks * block,
      paged_waste: blocks * block - actual,
    };
  }

  /**
   * Teaching criterion for keeping a KV segment:
   * benefit ≈ P(hit again) × avoided prefill − storage − write − fetch − crowding.
   * Every cost term is an expected cost in the same unit as the avoided
   * prefill (here ms of work); keeping pays only when the benefit is positive.
   */
  function cache_value(args) {
    const benefit = need(args, 'hit_probability') * need(args, 'recompute_ms') -
      need(args, 'storage_ms', 0) - need(args, 'write_ms', 0) -
      need(args, 'fetch_ms') - need(args, 'crowding_ms', 0);
    return { expected_benefit_ms: benefit, worth_keeping: benefit > 0 };
  }

  /**
   * Prefix sharing in a radix tree: each request is a path of named segments
   * from the root. Stored independently, every request keeps its whole
   * prefix; in the tree each distinct path prefix is kept once. Segments are
   * shared only when the whole path from the root matches, not when text is
   * merely equal.
   */
  function radix_prefix_sharing(args) {
    const sizes = args.segment_tokens;
    const requests = args.requests;
    if (!sizes || typeof sizes !== 'object' || !Array.isArray(requests)) {
      throw new TypeError('kv: need segment_tokens {name: tokens} and requests [[name, ...], ...]');
    }
    const seen = new Set();
    let independent = 0;
    let tree = 0;
    requests.forEach(function (path) {
      let key = '';
      path.forEach(function (name) {
        const n = finite(sizes[name], 'segment_tokens.' + name);
        key += '\u0000' + name;
        independent += n;
        if (!seen.has(key)) { seen.add(key); tree += n; }
      });
    });
    return {
      independent_tokens: independent,
      tree_tokens: tree,
      saved_tokens: independent - tree,
      saved_pct: 100 * (independent - tree) / independent,
    };
  }

  /**
   * Hybrid-cache hit boundary with decoupled granularity: a prefix hit can
   * only end where a hash block ends and recurrent-state checkpoints exist
   * (every `checkpoint_every_blocks` hash blocks), whatever the physical page
   * size. The longest such boundary inside the matching tokens is the hit;
   * matched tokens beyond it must be prefilled again.
   */
  function hash_hit_boundary(args) {
    const matching = need(args, 'matching_tokens');
    const hash_block = need(args, 'hash_block_tokens');
    const page = need(args, 'physical_page_tokens');
    const step = hash_block * need(args, 'checkpoint_every_blocks', 1);
    const hit = Math.floor(matching / step) * step;
    return {
      hash_blocks_per_page: page / hash_block,
      hit_blocks: hit / hash_block,
      hit_tokens: hit,
      recompute_tokens: matching - hit,
    };
  }

  const api = {
    kv_bytes: kv_bytes,
    kv_bytes_ratio: kv_bytes_ratio,
    paged_slots: paged_slots,
    cache_value: cache_value,
    radix_prefix_sharing: radix_prefix_sharing,
    hash_hit_boundary: hash_hit_boundary,
  };

  root.AtlasLabs = root.AtlasLabs || {};
  root.AtlasLabs.kv = api;
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
})(typeof globalThis !== 'undefined' ? globalThis : this);
