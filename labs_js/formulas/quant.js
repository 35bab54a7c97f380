/*
 * quant — teaching formulas for what a number format costs in storage.
 * Classic script, no dependencies. Registers globalThis.AtlasLabs.quant and,
 * under Node, module.exports. One object in, one object out.
 *
 * Storage only: these say nothing about whether a kernel runs faster or
 * whether quality survives; both need separate measurement.
 */
(function (root) {
  'use strict';

  function finite(v, name) {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new TypeError('quant: input "' + name + '" must be a finite number');
    }
    return v;
  }
  function need(args, key, fallback) {
    return finite(args && args[key] !== undefined ? args[key] : fallback, key);
  }

  /**
   * Bare weight bytes ≈ parameters × bits / 8, in decimal GB. A lower bound:
   * scales, high-precision layers, KV, workspace and buffers are extra.
   */
  function weight_gb(args) {
    // billions of parameters × bits / 8 = decimal GB directly.
    return { gb: need(args, 'params_billion') * need(args, 'bits') / 8 };
  }

  /**
   * Effective bits per stored value for a block-scaled format:
   * element bits + scale bits / block size (+ any per-tensor scale spread over
   * the tensor, negligible for large tensors and 0 by default). Compression is
   * quoted against a reference width such as FP16.
   */
  function effective_bits(args) {
    const block = need(args, 'block_size', 1);
    const bits = need(args, 'element_bits') + need(args, 'scale_bits', 0) / block +
      need(args, 'tensor_scale_bits', 0) / need(args, 'tensor_values', 1);
    return {
      bits_per_value: bits,
      compression_vs_reference: need(args, 'reference_bits', 16) / bits,
    };
  }

  /**
   * Resident memory after shrinking weights and KV by separate factors:
   * weight_gb × weight_scale + kv_gb × kv_scale. Shrinking one object leaves
   * the other untouched, which is why W and KV quantization are kept apart.
   */
  function resident_gb(args) {
    return {
      total_gb: need(args, 'weight_gb') * need(args, 'weight_scale', 1) +
        need(args, 'kv_gb') * need(args, 'kv_scale', 1),
    };
  }

  const api = {
    weight_gb: weight_gb,
    effective_bits: effective_bits,
    resident_gb: resident_gb,
  };

  root.AtlasLabs = root.AtlasLabs || {};
  root.AtlasLabs.quant = api;
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
})(typeof globalThis !== 'undefined' ? globalThis : this);
