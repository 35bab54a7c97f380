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
   * `value` (finite) rounded half away from zero to `digits` decimals, as fixed-point text
   * without grouping, e.g. "-12.35". The rule (shared with the build's Python,
   * resolve/examples.py; test vectors in labs_js/tests/rounding-vectors.json): round the
   * number as written, its shortest round-trip decimal (String(value), Python's repr), so
   * 1.005 -> 1.01 and 2.675 -> 2.68 on both sides, exactly, with no binary noise.
   */
  function fixed_half_away(value, digits) {
    const written = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(Math.abs(value)));
    const all = written[1] + (written[2] || '');
    const point = written[1].length + Number(written[3] || 0); // digits before the decimal point
    const keep = point + digits; // digits that stay
    let kept = '0';
    if (keep >= 0) {
      const padded = all.padEnd(keep + 1, '0');
      kept = String(BigInt(padded.slice(0, keep) || '0') + (padded.charAt(keep) >= '5' ? 1n : 0n));
    }
    kept = kept.padStart(digits + 1, '0');
    const whole = kept.slice(0, kept.length - digits);
    const text = digits ? whole + '.' + kept.slice(kept.length - digits) : whole;
    return value < 0 && /[1-9]/.test(text) ? '-' + text : text;
  }

  /** The number `fixed_half_away` writes (never -0). */
  function round_half_away(value, digits) {
    return Number.isFinite(value) ? Number(fixed_half_away(value, digits)) + 0 : value;
  }

  /** "1,234.50", "−12.35": rounded, fixed decimals, comma-grouped integer part, a true minus
   *  sign (U+2212), and never a minus on a number that rounds to zero. */
  function format_number(value, digits) {
    if (typeof value !== 'number' || Number.isNaN(value)) return '—';
    if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
    const fixed = fixed_half_away(value, digits === undefined ? 0 : digits);
    const negative = fixed.charAt(0) === '-';
    const body = negative ? fixed.slice(1) : fixed;
    const dot = body.indexOf('.');
    const whole = dot < 0 ? body : body.slice(0, dot);
    const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return (negative ? '−' : '') + grouped + (dot < 0 ? '' : body.slice(dot));
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
   * `unit`, where given, is used instead: durations read side by side (a P50 beside its P99)
   * share the unit their largest value picks, so a glance compares their numbers (review 31-k #5).
   */
  function format_duration(ms, digits, unit) {
    const picked = unit || duration_unit(ms);
    if (picked === 'ms') return { text: format_number(ms, digits === undefined ? 0 : digits), unit: 'ms' };
    return { text: format_number(ms / MS_IN[picked], 1), unit: picked };
  }
  const MS_IN = { ms: 1, s: 1000, min: 60000, h: 3600000 };
  function duration_unit(ms) {
    const abs = Math.abs(ms);
    if (!(abs >= 10000)) return 'ms';
    if (abs < 120000) return 's';
    return abs < 7200000 ? 'min' : 'h';
  }

  /** As format_number, but a value asked with decimals that is not zero is never written as zero:
   *  "0.00 GiB" for the 1.4 MiB of a few paged tokens read as nothing at all (review 31-i #13).
   *  Decimals are added until two significant digits show ("0.0013"), at most six more than asked. */
  function format_nonzero(value, digits) {
    const asked = digits === undefined ? 0 : digits;
    const text = format_number(value, asked);
    if (!asked || !Number.isFinite(value) || value === 0 || /[1-9]/.test(text)) return text;
    for (let more = asked + 1; more <= asked + 6; more += 1) {
      if (/[1-9]/.test(format_number(value, more))) return format_number(value, Math.min(more + 1, asked + 6));
    }
    return text;
  }

  /**
   * Display text of one output. `spec`: {digits} for numbers, {percent: true}
   * to show a 0..1 share as a percentage, {suffix: '%'} for a value already in
   * percent, {signed: true} to mark a rise with "+", {labels: {code: text}} for
   * enums and booleans (keys "true"/"false"), {duration: true} for
   * milliseconds shown in the unit format_duration picks or in {unit} (text only; the unit
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
    if (s.duration) return format_duration(value, s.digits, s.unit).text;
    /* an output asked with decimals never reads as zero; a count (no decimals) and a signed change
       ("0%": no change worth a sign) keep their rounding */
    const write = s.signed ? format_number : format_nonzero;
    let text = s.percent ? write(value * 100, s.digits === undefined ? 1 : s.digits) + '%'
      : write(value, s.digits) + (s.suffix || '');
    if (s.signed && value > 0 && /[1-9]/.test(text)) text = '+' + text;
    return text;
  }

  return {
    round_half_away: round_half_away, format_number: format_number, format_plain: format_plain,
    format_nonzero: format_nonzero, format_duration: format_duration,
    duration_unit: duration_unit, format_output: format_output,
  };
});
