/*
 * quant — teaching formulas for what a number format costs in storage.
 * Classic script through shared/define.js: registers globalThis.AtlasLabs.quant
 * and, under Node, module.exports. One object in, one object out.
 *
 * Storage only: these say nothing about whether a kernel runs faster or
 * whether quality survives; both need separate measurement. The bare weight
 * size (parameters × bits / 8) is the lab model's memory.weight_bytes.
 */
(typeof module === 'object' ? module : {}).exports = (typeof require === 'function'
  ? require('../shared/define.js') : globalThis.AtlasLabs.define)('quant', function (lib) {
  'use strict';
  const num = lib.num;

  /**
   * Effective bits per stored value for a block-scaled format:
   * element bits + scale bits / block size (+ any per-tensor scale spread over
   * the tensor, negligible for large tensors and 0 by default). Compression is
   * quoted against a reference width such as FP16.
   */
  function effective_bits(args) {
    const block = num(args, 'block_size', 1);
    const bits = num(args, 'element_bits') + num(args, 'scale_bits', 0) / block +
      num(args, 'tensor_scale_bits', 0) / num(args, 'tensor_values', 1);
    return {
      bits_per_value: bits,
      compression_vs_reference: num(args, 'reference_bits', 16) / bits,
    };
  }

  /**
   * Resident memory after shrinking weights and KV by separate factors:
   * weight_gb × weight_scale + kv_gb × kv_scale. Shrinking one object leaves
   * the other untouched, which is why W and KV quantization are kept apart.
   */
  function resident_gb(args) {
    return {
      total_gb: num(args, 'weight_gb') * num(args, 'weight_scale', 1) +
        num(args, 'kv_gb') * num(args, 'kv_scale', 1),
    };
  }

  /**
   * SmoothQuant's migration, in quantization levels: with one scale per
   * tensor, an outlier channel of magnitude outlier_max sets the step
   * (outlier_max / qmax, qmax = 2^(bits−1) − 1), so a typical channel of
   * magnitude typical_max spans only typical_max / step levels. Dividing the
   * outlier channel by `smoothing` (and multiplying the matching weight row by
   * it, so XW is unchanged) shrinks the step and widens what the typical
   * channel gets.
   */
  function smooth_levels(args) {
    const qmax = Math.pow(2, num(args, 'bits') - 1) - 1;
    const outlier = num(args, 'outlier_max');
    const typical = num(args, 'typical_max');
    const smoothing = num(args, 'smoothing');
    const after_max = Math.max(outlier / smoothing, typical);
    return {
      levels_before: typical / (outlier / qmax),
      levels_after: typical / (after_max / qmax),
      weight_row_scale: smoothing,
    };
  }

  return {
    smooth_levels: smooth_levels,
    effective_bits: effective_bits,
    resident_gb: resident_gb,
  };
});
