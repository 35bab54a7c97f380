/*
 * Lab D · Cache & Fleet — pure model (no DOM).
 * Classic script through shared/define.js: registers globalThis.AtlasLabs.fleet
 * and, under Node, module.exports. One object in, one object out.
 *
 * A steady-state teaching model of two fleet policies described in seed 000
 * §14.2, §14.4 and §16.9 (cache-aware affinity with consistent-hash
 * secondaries; per-class admission budgets). It is not Kimi's capacity and
 * not a queueing simulation. Teaching assumptions, all visible in the lab:
 *  - each shared prefix is cached by one owner cluster only (a long prefix is
 *    too large to replicate everywhere), so a request hits only on its owner;
 *  - one hot prefix carries `hot_share` of the traffic, the rest spreads evenly;
 *  - a failed primary's traffic moves to consistent-hash secondaries spread
 *    over the other clusters, which hold no copy and re-prefill the prefix;
 *  - budgets and request sizes are in context tokens; a short request that
 *    is admitted inside its class budget is counted as meeting its SLO.
 */
(typeof module === 'object' ? module : {}).exports = (typeof require === 'function'
  ? require('../shared/define.js') : globalThis.AtlasLabs.define)('fleet', function (lib) {
  'use strict';
  const num = lib.num;

  const ROUTING = ['round_robin', 'cache_affinity'];

  function flag(v) {
    return v === true || v === 'on' || v === 1;
  }

  /**
   * K3-style legal hit boundary (seed 000 §16.4): the longest prefix that is a
   * whole number of hash blocks, lies inside the cached span (the physical
   * page by default), is covered by the shared tokens and ends on a KDA
   * checkpoint. Checkpoints: every `checkpoint_every` hash blocks (default 1),
   * or an explicit list of token positions in `checkpoints`.
   */
  function hit_boundary(args) {
    const page = num(args, 'physical_page');
    const block = num(args, 'hash_block');
    if (block < 1) throw new RangeError('fleet: hash_block must be ≥ 1');
    /* a hash block longer than the page: no block fits in a page, and the boundary means nothing
       (review 31-k #6: "hash blocks per page 0" was shown without a word) */
    if (block > page) {
      throw lib.refuse('hash_block ' + block + ' exceeds physical_page ' + page,
        { kind: 'not_above', param: 'hash_block', min: 1, max: page, other: 'physical_page' });
    }
    const cached = num(args, 'cached_tokens', page);
    const limit = Math.min(num(args, 'shared_tokens'), cached);
    let boundary = 0;
    if (Array.isArray(args.checkpoints)) {
      for (const c of args.checkpoints) {
        if (c <= limit && c % block === 0 && c > boundary) boundary = c;
      }
    } else {
      const every = num(args, 'checkpoint_every', 1);
      const step = block * Math.max(1, Math.floor(every));
      boundary = Math.floor(limit / step) * step;
    }
    return {
      hit_boundary: boundary,
      hit_blocks: boundary / block,
      hash_blocks_per_page: Math.floor(page / block),
      recompute_tokens: Math.max(0, num(args, 'shared_tokens') - boundary),
    };
  }

  /**
   * Prefix state for a request tree (seed 004, RadixAttention): each node
   * {len, children}; every leaf is one request whose prefix is its path.
   * Without sharing every request stores its whole path; a radix tree stores
   * each node once.
   */
  function radix_prefix_state(args) {
    // either an explicit {tree} or the seed's example shape given by its four lengths
    const tree = args.tree || (args.system_len !== undefined ? radix_example_tree(args) : null);
    if (!tree || typeof tree !== 'object') throw new TypeError('fleet: radix_prefix_state needs {tree} or {system_len, doc_a_len, doc_b_len, question_len}');
    let unshared = 0;
    let stored = 0;
    let requests = 0;
    (function walk(node, depth_tokens) {
      const len = num(node, 'len');
      const path = depth_tokens + len;
      stored += len;
      const children = node.children || [];
      if (children.length === 0) { unshared += path; requests += 1; }
      for (const child of children) walk(child, path);
    })(tree, 0);
    return {
      requests: requests,
      unshared_tokens: unshared,
      tree_tokens: stored,
      saved_tokens: unshared - stored,
      saved_pct: unshared > 0 ? 100 * (unshared - stored) / unshared : 0,
    };
  }

  /** Seed 004's three-request tree: system → doc A (two questions), doc B (one). */
  function radix_example_tree(args) {
    const q = num(args, 'question_len');
    return {
      len: num(args, 'system_len'),
      children: [
        { len: num(args, 'doc_a_len'), children: [{ len: q }, { len: q }] },
        { len: num(args, 'doc_b_len'), children: [{ len: q }] },
      ],
    };
  }

  /** Expected prefill of one request given the probability its prefix is a hit. */
  function prefix_reuse(args) {
    const prefix = num(args, 'prefix_len');
    const increment = num(args, 'increment_len');
    const hit = num(args, 'hit_rate');
    const avoided = prefix * hit;
    return {
      avoided_prefill_tokens: avoided,
      prefill_tokens: increment + prefix - avoided,
      avoided_share: prefix + increment > 0 ? avoided / (prefix + increment) : 0,
    };
  }

  /**
   * Routing: round robin lands on the owner 1/clusters of the time; affinity
   * always does but sends the hot prefix's traffic to one cluster.
   * Skew = busiest cluster's request share / mean share; other_share is each other cluster's.
   */
  function routing(args) {
    const clusters = Math.max(1, Math.floor(num(args, 'clusters')));
    const route = args.routing === undefined ? 'cache_affinity' : args.routing;
    if (ROUTING.indexOf(route) < 0) throw new RangeError('fleet: routing must be one of ' + ROUTING.join(', '));
    const hot = num(args, 'hot_share', 0);
    const owner_hit = route === 'cache_affinity' ? 1 : 1 / clusters;
    const other_share = route === 'cache_affinity' ? (1 - hot) / clusters : 1 / clusters;
    const hottest_share = route === 'cache_affinity' ? hot + other_share : other_share;
    return {
      clusters: clusters,
      effective_hit_rate: num(args, 'hit_rate') * owner_hit,
      hottest_share: hottest_share,
      other_share: other_share,
      hot_cluster_skew: hottest_share * clusters,
    };
  }

  /**
   * The busiest primary fails; consistent hashing spreads its traffic over the
   * other clusters' secondaries, which hold no copy and re-prefill what had
   * been a hit. failover_spread_share is the extra traffic share each
   * survivor takes (a single secondary would take all of failover_share).
   */
  function failover(args, route, reuse) {
    if (!flag(args.secondary_failure) || route.clusters < 2) {
      return { failover_share: 0, failover_recompute_tokens: 0, failover_spread_share: 0 };
    }
    const moved = route.hottest_share;
    return {
      failover_share: moved,
      failover_recompute_tokens: reuse.avoided_prefill_tokens,
      failover_spread_share: moved / (route.clusters - 1),
    };
  }

  /**
   * Load of every cluster in units of the mean (1 = an even share), for Lab D's
   * chart: cluster 1 owns the hot prefix under affinity; under failover the
   * busiest one is down (failed, load 0) and each survivor carries `extra`.
   */
  function cluster_loads(route, fail) {
    const n = route.clusters;
    const loads = [];
    for (let i = 0; i < n; i++) {
      const share = i === 0 ? route.hottest_share : route.other_share;
      loads.push({ load: share * n, extra: 0, failed: false });
    }
    if (fail.failover_share > 0) {
      loads[0] = { load: 0, extra: 0, failed: true };
      for (let i = 1; i < n; i++) loads[i].extra = fail.failover_spread_share * n;
    }
    return loads;
  }

  /**
   * Per-class budgets: a long burst can only spend long_budget; short
   * requests keep short_budget. Also reports the shared-pool alternative
   * (one pool of both budgets, burst admitted first) for contrast.
   */
  function admission(args) {
    const long_cost = num(args, 'prefix_len') + num(args, 'increment_len');
    const short_len = num(args, 'short_len');
    const shorts = Math.max(0, Math.floor(num(args, 'short_requests')));
    const burst = Math.max(0, Math.floor(num(args, 'long_burst')));
    const short_budget = num(args, 'short_budget');
    const long_budget = num(args, 'long_budget');
    const fit = function (budget, cost, count) {
      return cost > 0 ? Math.min(count, Math.max(0, Math.floor(budget / cost))) : count;
    };
    const long_admitted = fit(long_budget, long_cost, burst);
    const short_admitted = fit(short_budget, short_len, shorts);
    const pool = short_budget + long_budget;
    const pool_long = fit(pool, long_cost, burst);
    const pool_short = fit(pool - pool_long * long_cost, short_len, shorts);
    return {
      admitted: long_admitted + short_admitted,
      rejected: (burst - long_admitted) + (shorts - short_admitted),
      long_admitted: long_admitted,
      long_rejected: burst - long_admitted,
      short_admitted: short_admitted,
      short_slo_met: shorts > 0 ? short_admitted / shorts : 1,
      shared_pool_short_slo_met: shorts > 0 ? pool_short / shorts : 1,
    };
  }

  /** First matching advice wins; codes are translated by the page. */
  function recommend(args, route, admit) {
    const rr_gain = num(args, 'prefix_len') * num(args, 'hit_rate') * (1 - 1 / route.clusters);
    if (args.routing === 'round_robin' && rr_gain > num(args, 'increment_len')) return 'use_affinity';
    if (route.hot_cluster_skew >= 1.5) return 'replicate_hot_prefix';
    if (admit.short_slo_met < 1) return 'raise_short_budget';
    if (admit.long_rejected > 0) return 'long_burst_rejected_early';
    return 'balanced';
  }

  function evaluate(args) {
    const route = routing(args);
    const reuse = prefix_reuse({
      prefix_len: args.prefix_len, increment_len: args.increment_len, hit_rate: route.effective_hit_rate,
    });
    const fail = failover(args, route, reuse);
    const admit = admission(args);
    return Object.assign(
      lib.pick(route, ['effective_hit_rate', 'hot_cluster_skew']),
      lib.pick(reuse, ['avoided_prefill_tokens', 'prefill_tokens', 'avoided_share']),
      fail,
      lib.pick(admit, ['short_slo_met', 'shared_pool_short_slo_met', 'admitted', 'rejected', 'long_rejected']),
      { recommendation: recommend(args, route, admit), cluster_loads: cluster_loads(route, fail) });
  }

  /** Everything Lab D's panel shows: the policy model plus the two state tools. */
  function lab(args) {
    const hit = hit_boundary(args);
    const radix = radix_prefix_state({ tree: radix_example_tree(args) });
    return Object.assign(evaluate(args), {
      hit_boundary: hit.hit_boundary,
      hit_blocks: hit.hit_blocks,
      hash_blocks_per_page: hit.hash_blocks_per_page,
      radix_unshared_tokens: radix.unshared_tokens,
      radix_tree_tokens: radix.tree_tokens,
      radix_saved_tokens: radix.saved_tokens,
    });
  }

  return {
    hit_boundary: hit_boundary,
    radix_prefix_state: radix_prefix_state,
    radix_example_tree: radix_example_tree,
    prefix_reuse: prefix_reuse,
    routing: routing,
    admission: admission,
    evaluate: evaluate,
    lab: lab,
  };
});
