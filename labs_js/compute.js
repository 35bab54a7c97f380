#!/usr/bin/env node
/*
 * compute.js — run lab functions from the command line (the build uses it).
 *
 *   echo '[{"fn": "memory.kv_bytes_per_token",
 *           "args": {"layers": 32, "kv_heads": 8, "head_dim": 128, "kv_bits": 16}}]' \
 *     | node labs_js/compute.js
 *
 * Reads a JSON array of {fn: "<namespace>.<function>", args: {...}} on stdin
 * and prints the JSON array of results, in order. Loads every
 * labs_js/<namespace>/model.js and labs_js/formulas/<namespace>.js that
 * exists. An unknown function, a bad request or a function that throws ends
 * the run with exit code 1 and a message on stderr naming the item.
 *
 * A number that is NaN or ±Infinity (which JSON cannot hold) is printed as
 * {"$nonfinite": "NaN"}, never as null. A request with "strict": true fails when the
 * function never reads one of its arguments (a misspelt input of a worked example). With --trace, a line on stderr names
 * each lab file before it loads and each function before it runs, so a
 * caller that stops a run that takes too long can say where it hung.
 */
'use strict';

const fs = require('fs');
const path = require('path');

const HERE = __dirname;
const TRACE = process.argv.includes('--trace');

function trace(what) {
  if (TRACE) process.stderr.write('compute.js: ' + what + '\n');
}

/** The lab file that defines each namespace (for messages). */
const FILES = {};

/** namespace -> module, from model.js folders and formulas/*.js files. */
function load_modules() {
  const modules = {};
  for (const entry of fs.readdirSync(HERE, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === 'formulas') continue;
    const file = path.join(HERE, entry.name, 'model.js');
    if (fs.existsSync(file)) {
      FILES[entry.name] = 'labs_js/' + entry.name + '/model.js';
      trace('load ' + FILES[entry.name]);
      modules[entry.name] = require(file);
    }
  }
  const formulas = path.join(HERE, 'formulas');
  if (fs.existsSync(formulas)) {
    for (const name of fs.readdirSync(formulas).sort()) {
      if (!name.endsWith('.js')) continue;
      const ns = name.slice(0, -3);
      if (modules[ns]) throw new Error('namespace "' + ns + '" is defined twice (labs_js/' + ns + '/model.js and labs_js/formulas/' + name + ')');
      FILES[ns] = 'labs_js/formulas/' + name;
      trace('load ' + FILES[ns]);
      modules[ns] = require(path.join(formulas, name));
    }
  }
  return modules;
}

function resolve(modules, fn) {
  const match = /^([a-z_]+)\.([a-z0-9_]+)$/.exec(typeof fn === 'string' ? fn : '');
  const mod = match && modules[match[1]];
  if (!mod || typeof mod[match[2]] !== 'function') {
    const known = Object.keys(modules).sort().map(function (ns) {
      return ns + ': ' + Object.keys(modules[ns]).filter(function (k) { return typeof modules[ns][k] === 'function'; }).sort().join(', ');
    });
    throw new Error('unknown function ' + JSON.stringify(fn) + '\nknown functions:\n  ' + known.join('\n  '));
  }
  return mod[match[2]];
}

function run(requests, modules) {
  if (!Array.isArray(requests)) throw new Error('stdin must be a JSON array of {"fn", "args"} objects');
  return requests.map(function (item, index) {
    try {
      if (!item || typeof item !== 'object') throw new Error('item is not an object');
      const args = item.args === undefined ? {} : item.args;
      if (!args || typeof args !== 'object' || Array.isArray(args)) throw new Error('"args" must be an object');
      const fn = resolve(modules, item.fn);
      trace('run ' + index + ' ' + item.fn + ' ' + FILES[item.fn.split('.')[0]]);
      if (!item.strict) return fn(args);
      const watched = reading(args);
      const result = fn(watched.args);
      const unread = Object.keys(args).filter(function (key) { return !watched.read.has(key); });
      if (unread.length) {
        throw new Error('unknown argument' + (unread.length > 1 ? 's ' : ' ') + unread.map(function (k) { return JSON.stringify(k); }).join(', ') +
                        ': ' + item.fn + ' never reads ' + (unread.length > 1 ? 'them' : 'it'));
      }
      return result;
    } catch (err) {
      err.message = 'item ' + index + ' (' + JSON.stringify(item && item.fn) + '): ' + err.message;
      throw err;
    }
  });
}

/**
 * args behind a Proxy that notes each key the function looks at (read, tested with `in`, copied
 * or listed), so a request marked "strict" (a worked example of the ledgers) can refuse an
 * argument the function never reads: a misspelt input would otherwise fall back to a default.
 */
function reading(args) {
  const read = new Set();
  const handler = {
    get: function (target, key, receiver) { if (typeof key === 'string') read.add(key); return Reflect.get(target, key, receiver); },
    has: function (target, key) { if (typeof key === 'string') read.add(key); return Reflect.has(target, key); },
    getOwnPropertyDescriptor: function (target, key) {
      if (typeof key === 'string') read.add(key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys: function (target) { Object.keys(target).forEach(function (key) { read.add(key); }); return Reflect.ownKeys(target); },
  };
  return { args: new Proxy(args, handler), read: read };
}

/** JSON.stringify would print NaN and ±Infinity as null: keep them visible. */
function keep_nonfinite(_key, value) {
  return typeof value === 'number' && !Number.isFinite(value) ? { $nonfinite: String(value) } : value;
}

function main() {
  let input = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', function (chunk) { input += chunk; });
  process.stdin.on('end', function () {
    try {
      const results = run(JSON.parse(input || '[]'), load_modules());
      process.stdout.write(JSON.stringify(results, keep_nonfinite) + '\n');
    } catch (err) {
      process.stderr.write('compute.js: ' + err.message + '\n');
      process.exitCode = 1;
    }
  });
}

if (require.main === module) main();

module.exports = { load_modules: load_modules, run: run, keep_nonfinite: keep_nonfinite };
