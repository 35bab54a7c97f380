/*
 * Lab E · Cost & Bottleneck — pure model (no DOM), and the tutorial's teaching
 * formulas for "what does one qualified output token cost".
 * Classic script through shared/define.js: registers globalThis.AtlasLabs.cost
 * and, under Node, module.exports. Every function takes one object of snake_case
 * inputs and returns one object of snake_case outputs.
 *
 * All money here is whatever unit the caller uses (the tutorial uses yuan);
 * the functions never assume a currency or a price. `lab` composes these
 * formulas with the step bound and Amdahl's law of formulas/bottleneck.js.
 */
(typeof module === 'object' ? module : {}).exports = (typeof require === 'function'
  ? require('../shared/define.js') : globalThis.AtlasLabs.define)('cost', function (lib) {
  'use strict';
  const num = lib.num;
  const finite = lib.finite;

  // A window cost may be given as one number or as its parts (pools, network,
  // cache...), so the ledger can show exactly which bills were added up.
  function total(args, key) {
    const v = args[key];
    if (Array.isArray(v)) {
      return v.reduce(function (s, x) { return s + finite(x, key + '[]'); }, 0);
    }
    return num(args, key);
  }

  /**
   * c = 10^6 × C / N: cost per million qualified output tokens over one
   * observation window. N counts only outputs that met the fixed quality and
   * latency bar; C keeps everything the window consumed (idle time, failed
   * requests, drafts), which is why a qualified share < 1 raises the cost.
   */
  function cost_per_million(args) {
    const window_cost = total(args, 'window_cost');
    const output_tokens = num(args, 'output_tokens');
    const qualified_share = num(args, 'qualified_share', 1);
    const qualified_tokens = output_tokens * qualified_share;
    if (qualified_tokens <= 0) throw new RangeError('cost: no qualified tokens in the window');
    return {
      qualified_tokens: qualified_tokens,
      per_million: 1e6 * window_cost / qualified_tokens,
    };
  }

  /**
   * c = 10^6 × H / (3600 × G): the same formula for a system billed per hour
   * (H) that delivers G qualified tokens per second; one hour is the window.
   */
  function cost_per_million_hourly(args) {
    const hourly_cost = num(args, 'hourly_cost');
    const tokens_per_s = num(args, 'qualified_tokens_per_s');
    return {
      per_million: cost_per_million({ window_cost: hourly_cost, output_tokens: 3600 * tokens_per_s }).per_million,
    };
  }

  // Relative change in percent, positive when the value went down.
  function reduction_pct(before, after) {
    return (1 - after / before) * 100;
  }

  /**
   * Unit-cost ratio when spend and qualified throughput both change:
   * new cost / old cost = (spend_after / spend_before) / (tp_after / tp_before).
   * Cost falls exactly when throughput grows faster than spend.
   */
  function cost_ratio(args) {
    const spend_before = num(args, 'spend_before', 1);
    const spend_after = num(args, 'spend_after', spend_before);
    const throughput_before = num(args, 'throughput_before');
    const throughput_after = num(args, 'throughput_after');
    const ratio = (spend_after / spend_before) / (throughput_after / throughput_before);
    return { cost_ratio: ratio, cost_reduction_pct: (1 - ratio) * 100 };
  }

  /**
   * Before/after comparison of two hourly-billed systems: cost per million for
   * each, the cost reduction, and the throughput and spend changes that
   * explain why the reduction is not simply the throughput gain.
   */
  function compare_hourly(args) {
    const h0 = num(args, 'before_hourly_cost');
    const g0 = num(args, 'before_tokens_per_s');
    const h1 = num(args, 'after_hourly_cost');
    const g1 = num(args, 'after_tokens_per_s');
    const before = cost_per_million_hourly({ hourly_cost: h0, qualified_tokens_per_s: g0 }).per_million;
    const after = cost_per_million_hourly({ hourly_cost: h1, qualified_tokens_per_s: g1 }).per_million;
    return {
      before_per_million: before,
      after_per_million: after,
      cost_reduction_pct: reduction_pct(before, after),
      throughput_gain_pct: (g1 / g0 - 1) * 100,
      spend_increase_pct: (h1 / h0 - 1) * 100,
    };
  }

  /**
   * Two systems A and B observed over the same window: cost per million
   * qualified tokens for each (cost may be a list of parts, qualified share
   * defaults to 1) and how much cheaper B is than A (negative = dearer).
   */
  function compare_window(args) {
    const a = cost_per_million({
      window_cost: args.a_window_cost,
      output_tokens: num(args, 'a_output_tokens'),
      qualified_share: num(args, 'a_qualified_share', 1),
    });
    const b = cost_per_million({
      window_cost: args.b_window_cost,
      output_tokens: num(args, 'b_output_tokens'),
      qualified_share: num(args, 'b_qualified_share', 1),
    });
    return {
      a_window_cost: total(args, 'a_window_cost'),
      b_window_cost: total(args, 'b_window_cost'),
      a_per_million: a.per_million,
      b_per_million: b.per_million,
      b_saving_pct: reduction_pct(a.per_million, b.per_million),
    };
  }

  /**
   * Cost of a finished task = cost per attempt × average attempts needed.
   * A cheap attempt can still make an expensive task.
   */
  function task_cost(args) {
    return { task_cost: num(args, 'cost_per_attempt') * num(args, 'attempts_per_task') };
  }

  /**
   * Mean relative cost of a traffic mix: Σ share_i × relative_cost_i, where
   * relative cost 1 is the reference path (e.g. always calling the strong
   * model). Shares must sum to 1; overheads (router, retries) are extra
   * entries the caller adds, not something this hides.
   */
  function mixture_cost(args) {
    const shares = args.shares;
    const costs = args.relative_costs;
    if (!Array.isArray(shares) || !Array.isArray(costs) || shares.length !== costs.length || shares.length === 0) {
      throw new TypeError('cost: shares and relative_costs must be arrays of equal length');
    }
    const share_sum = shares.reduce(function (s, x) { return s + finite(x, 'shares[]'); }, 0);
    if (Math.abs(share_sum - 1) > 1e-9) throw new RangeError('cost: shares must sum to 1');
    let mean = 0;
    for (let i = 0; i < shares.length; i += 1) mean += shares[i] * finite(costs[i], 'relative_costs[]');
    return { mean_relative_cost: mean, saving_pct: (1 - mean) * 100 };
  }

  /**
   * Cutting one cost component by local_cut lowers the total by only
   * share × local_cut (everything else unchanged): a mix of the untouched
   * part (relative cost 1) and the touched part (relative cost 1 − cut).
   */
  function component_cut(args) {
    const share = num(args, 'share');
    const local_cut = num(args, 'local_cut');
    const mix = mixture_cost({ shares: [1 - share, share], relative_costs: [1, 1 - local_cut] });
    return { total_cut_pct: mix.saving_pct };
  }

  const STEP_TERMS = [['compute', 'compute_s'], ['memory', 'memory_s'], ['network', 'comm_s']];

  /**
   * The step lower bound of Lab E in the units a reader types (GFLOP at TFLOP/s,
   * GB at TB/s, MB at GB/s, ms): max of the three terms plus the exposed time.
   * The bottleneck is the largest of the four parts; 'overhead' when the exposed
   * time is at least the slowest term, 'none' when the step holds no work.
   */
  function step(args) {
    const bound = lib.model('bottleneck').step_time_lower_bound({
      flops: num(args, 'step_gflop') * 1e9, flops_per_s: num(args, 'compute_tflops') * 1e12,
      bytes: num(args, 'step_gb') * 1e9, bytes_per_s: num(args, 'hbm_tbps') * 1e12,
      comm_bytes: num(args, 'step_comm_mb') * 1e6, comm_bytes_per_s: num(args, 'net_gbps') * 1e9,
      exposed_s: num(args, 'overhead_ms') / 1e3,
    });
    const terms_ms = {};
    let bottleneck = 'none';
    let slowest = 0;
    for (const [name, key] of STEP_TERMS) {
      terms_ms[name] = bound[key] * 1e3;
      if (terms_ms[name] > slowest) { slowest = terms_ms[name]; bottleneck = name; }
    }
    terms_ms.overhead = num(args, 'overhead_ms');
    if (terms_ms.overhead > 0 && terms_ms.overhead >= slowest) bottleneck = 'overhead';
    return { step_lower_bound_ms: bound.lower_bound_s * 1e3, bottleneck: bottleneck, step_terms_ms: terms_ms };
  }

  /**
   * Everything Lab E shows, one section per formula of the tutorial page:
   * cost per million qualified tokens before and after a change (and the
   * throughput and spend changes that explain it), the task ledger of two
   * options, the step lower bound, Amdahl's law applied to that step, and the
   * mean cost of routing a share of traffic to a cheaper model.
   */
  function lab(args) {
    const unit = compare_hourly({
      before_hourly_cost: num(args, 'hourly_cost'), before_tokens_per_s: num(args, 'good_tokens_per_s'),
      after_hourly_cost: num(args, 'opt_hourly_cost'), after_tokens_per_s: num(args, 'opt_good_tokens_per_s'),
    });
    const a = task_cost({ cost_per_attempt: num(args, 'attempt_cost_a'), attempts_per_task: num(args, 'attempts_a') });
    const b = task_cost({ cost_per_attempt: num(args, 'attempt_cost_b'), attempts_per_task: num(args, 'attempts_b') });
    const bound = step(args);
    const amdahl = lib.model('bottleneck').amdahl({ fraction: num(args, 'optimizable_share'), local_speedup: num(args, 'local_speedup') });
    const cheap = num(args, 'cheap_share');
    const routing = mixture_cost({ shares: [cheap, 1 - cheap], relative_costs: [num(args, 'cheap_cost_ratio'), 1] });
    return {
      cost_per_million: unit.before_per_million,
      opt_cost_per_million: unit.after_per_million,
      cost_change_pct: unit.cost_reduction_pct === 0 ? 0 : -unit.cost_reduction_pct,  // never −0
      throughput_change_pct: unit.throughput_gain_pct,
      spend_change_pct: unit.spend_increase_pct,
      task_cost_a: a.task_cost,
      task_cost_b: b.task_cost,
      step_lower_bound_ms: bound.step_lower_bound_ms,
      bottleneck: bound.bottleneck,
      step_terms_ms: bound.step_terms_ms,
      amdahl_speedup: amdahl.speedup,
      amdahl_step_ms: bound.step_lower_bound_ms * amdahl.remaining_fraction,
      amdahl_limit: amdahl.speedup_limit === null ? Infinity : amdahl.speedup_limit,
      routing_mean_cost: routing.mean_relative_cost,
      routing_saving_pct: routing.saving_pct,
    };
  }

  return {
    step: step,
    lab: lab,
    cost_per_million: cost_per_million,
    cost_per_million_hourly: cost_per_million_hourly,
    cost_ratio: cost_ratio,
    compare_hourly: compare_hourly,
    compare_window: compare_window,
    task_cost: task_cost,
    mixture_cost: mixture_cost,
    component_cut: component_cut,
  };
});

