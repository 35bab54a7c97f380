/*
 * Number formatting shared by the four lab UIs and by the static outputs in
 * ledger/labs.md (the no-JS page must show the same text the UI writes).
 * Classic script through shared/define.js (loaded before it): registers
 * globalThis.AtlasLabs.format and, under Node, module.exports.
 */
(typeof module === 'object' ? module : {}).exports = (typeof require === 'function'
  ? require('../shared/define.js') : globalThis.AtlasLabs.define)('format', function () {
  'use strict';

  /**
   * Round half away from zero to `digits` decimals (the registry's rule).
   * The tiny relative nudge absorbs binary noise such as 1.005 → 1.00499….
   */
  function round_half_away(value, digits) {
    const scale = Math.pow(10, digits);
    const scaled = Math.abs(value) * scale;
    const rounded = Math.floor(scaled + 0.5 + scaled * 1e-12) / scale;
    return value < 0 ? -rounded : rounded;
  }

  /** "1,234.50": rounded, fixed decimals, comma-grouped integer part. */
  function format_number(value, digits) {
    if (typeof value !== 'number' || Number.isNaN(value)) return '—';
    if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
    const d = digits === undefined ? 0 : digits;
    const fixed = round_half_away(value, d).toFixed(d);
    const negative = fixed.charAt(0) === '-';
    const body = negative ? fixed.slice(1) : fixed;
    const dot = body.indexOf('.');
    const whole = dot < 0 ? body : body.slice(0, dot);
    const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    const text = grouped + (dot < 0 ? '' : body.slice(dot));
    return negative && Number(fixed) !== 0 ? '−' + text : text;
  }

  /**
   * Display text of one output. `spec`: {digits} for numbers, {percent: true}
   * to show a 0..1 share as a percentage, {labels: {code: text}} for enums and
   * booleans (keys "true"/"false").
   */
  function format_output(value, spec) {
    const s = spec || {};
    if (s.labels) {
      const key = String(value);
      return Object.prototype.hasOwnProperty.call(s.labels, key) ? s.labels[key] : key;
    }
    if (typeof value === 'boolean') return String(value);
    if (typeof value === 'string') return value;
    if (s.percent) return format_number(value * 100, s.digits === undefined ? 1 : s.digits) + '%';
    return format_number(value, s.digits);
  }

  return { round_half_away: round_half_away, format_number: format_number, format_output: format_output };
});
