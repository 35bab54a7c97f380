'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const F = require('../shared/format.js');

test('round half away from zero, as the registry specifies', () => {
  assert.equal(F.round_half_away(2.5, 0), 3);
  assert.equal(F.round_half_away(-2.5, 0), -3);
  assert.equal(F.round_half_away(1.005, 2), 1.01);
  assert.equal(F.round_half_away(42.674253, 1), 42.7);
  assert.equal(F.round_half_away(53.687, 0), 54);
  assert.equal(F.round_half_away(536.87, 0), 537);
  assert.equal(F.round_half_away(0.049999, 1), 0);
});

test('format_number groups thousands and keeps fixed decimals', () => {
  assert.equal(F.format_number(14060, 0), '14,060');
  assert.equal(F.format_number(1234567.891, 2), '1,234,567.89');
  assert.equal(F.format_number(14.9011, 2), '14.90');
  assert.equal(F.format_number(-1500, 0), '−1,500');
  assert.equal(F.format_number(-0.001, 1), '0.0');
  assert.equal(F.format_number(Infinity, 0), '∞');
  assert.equal(F.format_number(NaN, 0), '—');
});

test('format_output: percent shares, enum labels, booleans', () => {
  assert.equal(F.format_output(0.25, { percent: true, digits: 1 }), '25.0%');
  assert.equal(F.format_output('FIT', { labels: { FIT: 'fits' } }), 'fits');
  assert.equal(F.format_output(true, { labels: { true: 'NO GAIN' } }), 'NO GAIN');
  assert.equal(F.format_output('OOM', { labels: { FIT: 'fits' } }), 'OOM');
  assert.equal(F.format_output(2.7731, { digits: 2 }), '2.77');
});

test('format_output: signed changes and values already in percent', () => {
  assert.equal(F.format_output(-20, { digits: 0, suffix: '%', signed: true }), '−20%');
  assert.equal(F.format_output(50, { digits: 0, suffix: '%', signed: true }), '+50%');
  assert.equal(F.format_output(0.2, { digits: 0, suffix: '%', signed: true }), '0%');
  assert.equal(F.format_output(0, { digits: 1, signed: true }), '0.0');
});

test('format_duration: ms below 10 s, then s, min and h', () => {
  assert.deepEqual(F.format_duration(1438.5, 0), { text: '1,439', unit: 'ms' });
  assert.deepEqual(F.format_duration(9999.4, 0), { text: '9,999', unit: 'ms' });
  assert.deepEqual(F.format_duration(10000, 0), { text: '10.0', unit: 's' });
  assert.deepEqual(F.format_duration(119000, 0), { text: '119.0', unit: 's' });
  assert.deepEqual(F.format_duration(600000, 0), { text: '10.0', unit: 'min' });
  assert.deepEqual(F.format_duration(11537458, 0), { text: '3.2', unit: 'h' });
  assert.equal(F.format_output(11537458, { duration: true, digits: 0 }), '3.2');
});

test('format_plain prints a limit with the decimals it was given', () => {
  assert.equal(F.format_plain(4194304), '4,194,304');
  assert.equal(F.format_plain(0.005), '0.005');
  assert.equal(F.format_plain(1), '1');
});

test('the shared rounding vectors: the same text the build (Python) writes', () => {
  const { vectors } = JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, 'rounding-vectors.json'), 'utf8'));
  const SPECIAL = { inf: Infinity, '-inf': -Infinity, nan: NaN, '-0': -0 };
  assert.ok(vectors.length >= 20);
  for (const [value, digits, text] of vectors) {
    const number = typeof value === 'string' ? SPECIAL[value] : value;
    assert.equal(typeof number, 'number', String(value));
    assert.equal(F.format_number(number, digits), text, `${value} at ${digits} decimals`);
  }
});

test('format_output: a value asked with decimals that is not zero never reads as zero', () => {
  assert.equal(F.format_output(0.0013, { digits: 2 }), '0.0013'); // 11 tokens of 128 KiB, in GiB
  assert.equal(F.format_output(0.00136, { digits: 2 }), '0.0014');
  assert.equal(F.format_output(0.00004, { percent: true }), '0.0040%');
  assert.equal(F.format_output(1e-12, { digits: 2 }), '0.00'); // below six more decimals: zero
  assert.equal(F.format_output(0, { digits: 2 }), '0.00');
  assert.equal(F.format_output(0.4, { digits: 0 }), '0'); // a count keeps its rounding
});

test('format_duration in a unit given: a P50 read beside its P99 in seconds', () => {
  // review 31-k #5: "7,183 ms" beside "14.4 s" read as the smaller P99
  assert.equal(F.duration_unit(14400), 's');
  assert.deepEqual(F.format_duration(7183, 0, F.duration_unit(14400)), { text: '7.2', unit: 's' });
  assert.deepEqual(F.format_duration(7183, 0, 'ms'), { text: '7,183', unit: 'ms' });
  assert.equal(F.format_output(7183, { duration: true, digits: 0, unit: 's' }), '7.2');
});
