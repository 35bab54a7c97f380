/*
 * Number formatting shared by the lab UIs and by the static outputs in
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

  /** Decimals of a number as written (0.005 → 3): messages print limits as the ledger gives them. */
  function decimals_of(value) {
    const text = String(value);
    const dot = text.indexOf('.');
    return dot < 0 || /e/i.test(text) ? 0 : text.length - dot - 1;
  }

  /** "4,194,304", "0.005": a limit or setting printed with the decimals it was given. */
  function format_plain(value) {
    return format_number(value, decimals_of(value));
  }

  /**
   * A duration in milliseconds in the unit a reader takes in at a glance:
   * ms below 10 s (with `digits`), then s below 2 min, min below 2 h, else h
   * (one decimal each). Returns {text, unit} with unit one of ms, s, min, h.
   */
  function format_duration(ms, digits) {
    const abs = Math.abs(ms);
    if (!(abs >= 10000)) return { text: format_number(ms, digits === undefined ? 0 : digits), unit: 'ms' };
    if (abs < 120000) return { text: format_number(ms / 1000, 1), unit: 's' };
    if (abs < 7200000) return { text: format_number(ms / 60000, 1), unit: 'min' };
    return { text: format_number(ms / 3600000, 1), unit: 'h' };
  }

  /**
   * Display text of one output. `spec`: {digits} for numbers, {percent: true}
   * to show a 0..1 share as a percentage, {suffix: '%'} for a value already in
   * percent, {signed: true} to mark a rise with "+", {labels: {code: text}} for
   * enums and booleans (keys "true"/"false"), {duration: true} for
   * milliseconds shown in the unit format_duration picks (text only; the unit
   * comes from format_duration(...).unit).
   */
  function format_output(value, spec) {
    const s = spec || {};
    if (s.labels) {
      const key = String(value);
      return Object.prototype.hasOwnProperty.call(s.labels, key) ? s.labels[key] : key;
    }
    if (typeof value === 'boolean') return String(value);
    if (typeof value === 'string') return value;
    if (s.duration) return format_duration(value, s.digits).text;
    let text = s.percent ? format_number(value * 100, s.digits === undefined ? 1 : s.digits) + '%'
      : format_number(value, s.digits) + (s.suffix || '');
    if (s.signed && value > 0 && /[1-9]/.test(text)) text = '+' + text;
    return text;
  }

  return {
    round_half_away: round_half_away, format_number: format_number, format_plain: format_plain,
    format_duration: format_duration, format_output: format_output,
  };
});
