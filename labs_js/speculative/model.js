/*
 * Lab C · Speculative — pure model (no DOM).
 * Classic script through shared/define.js: registers globalThis.AtlasLabs.speculative
 * and, under Node, module.exports. One object in, one object out.
 *
 * Toy model of seed 000 §11.2: each of the k draft tokens is accepted
 * independently with probability a (a teaching assumption: real acceptance
 * varies with position, context, temperature, domain, tree shape and batch),
 * and one target pass always yields at least one token. Exact speculative
 * sampling keeps the target distribution (under its numerical assumptions);
 * only the speed depends on acceptance.
 */
(typeof module === 'object' ? module : {}).exports = (typeof require === 'function'
  ? require('../shared/define.js') : globalThis.AtlasLabs.define)('speculative', function (lib) {
  'use strict';
  const num = lib.num;

  const K_SCAN_MAX = 16;

  function draft_len(args) {
    const k = num(args, 'k');
    if (k < 0 || Math.floor(k) !== k) throw new RangeError('speculative: k must be an integer ≥ 0');
    return k;
  }

  function acceptance(args) {
    const a = num(args, 'acceptance');
    if (a < 0 || a > 1) throw new RangeError('speculative: acceptance must lie in [0, 1]');
    return a;
  }

  /**
   * E[tokens per target pass] = 1 + a + … + a^k = (1 − a^(k+1)) / (1 − a), k + 1 at a = 1.
   * expected_accepted counts accepted draft tokens only (E − 1, the bonus or
   * corrected token excluded); wasted_draft = k − expected_accepted.
   */
  function expected_tokens(args) {
    const k = draft_len(args);
    const a = acceptance(args);
    const e = a === 1 ? k + 1 : (1 - Math.pow(a, k + 1)) / (1 - a);
    return { expected_tokens: e, expected_accepted: e - 1, wasted_draft: k - (e - 1) };
  }

  /** toy speedup = E[tokens] × t_t / (k × t_d + t_v(k)): times in units of one target step. */
  function toy_speedup(args) {
    const k = draft_len(args);
    const c_t = num(args, 'target_cost', 1);
    const c_d = num(args, 'draft_cost');
    const c_v = num(args, 'verify_cost');
    const e = expected_tokens(args);
    const cost = k * c_d + c_v;
    if (!(cost > 0)) throw new RangeError('speculative: k × draft_cost + verify_cost must be > 0');
    const speedup = e.expected_tokens * c_t / cost;
    return {
      expected_tokens: e.expected_tokens,
      expected_accepted: e.expected_accepted,
      wasted_draft: e.wasted_draft,
      pass_cost: cost,
      speedup: speedup,
      no_gain: speedup <= 1,
    };
  }

  /**
   * Scan k = 1..16 with the reader's own a, t_d, t_t and t_v: each bar is the toy speedup the lab
   * shows when only k is set to it, so the best k read off the scan is the result at that k (a
   * scan that rescaled t_v with k contradicted the direct result, review 31-f #4). The current k
   * only picks the bar; the scan does not depend on it.
   */
  function best_k(args) {
    draft_len(args);
    let best = { k: 1, speedup: -Infinity };
    const speedups = [];
    for (let j = 1; j <= K_SCAN_MAX; j++) {
      const s = toy_speedup(Object.assign({}, args, { k: j })).speedup;
      speedups.push(s);
      if (s > best.speedup) best = { k: j, speedup: s };
    }
    return { best_k: best.k, best_speedup: best.speedup, speedups: speedups };
  }

  function evaluate(args) {
    const here = toy_speedup(args);
    const scan = best_k(args);
    return Object.assign(
      lib.pick(here, ['expected_tokens', 'expected_accepted', 'speedup', 'wasted_draft', 'no_gain']),
      lib.pick(scan, ['best_k', 'best_speedup', 'speedups']));
  }

  return {
    expected_tokens: expected_tokens,
    toy_speedup: toy_speedup,
    best_k: best_k,
    evaluate: evaluate,
  };
});
