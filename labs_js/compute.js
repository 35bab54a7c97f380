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
 */
'use strict';

const fs = require('fs');
const path = require('path');

const HERE = __dirname;

/** namespace -> module, from model.js folders and formulas/*.js files. */
function load_modules() {
  const modules = {};
  for (const entry of fs.readdirSync(HERE, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === 'formulas') continue;
    const file = path.join(HERE, entry.name, 'model.js');
    if (fs.existsSync(file)) modules[entry.name] = require(file);
  }
  const formulas = path.join(HERE, 'formulas');
  if (fs.existsSync(formulas)) {
    for (const name of fs.readdirSync(formulas).sort()) {
      if (!name.endsWith('.js')) continue;
      const ns = name.slice(0, -3);
      if (modules[ns]) throw new Error('namespace "' + ns + '" is defined twice (labs_js/' + ns + '/model.js and labs_js/formulas/' + name + ')');
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
      return resolve(modules, item.fn)(args);
    } catch (err) {
      err.message = 'item ' + index + ' (' + JSON.stringify(item && item.fn) + '): ' + err.message;
      throw err;
    }
  });
}

function main() {
  let input = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', function (chunk) { input += chunk; });
  process.stdin.on('end', function () {
    try {
      const results = run(JSON.parse(input || '[]'), load_modules());
      process.stdout.write(JSON.stringify(results) + '\n');
    } catch (err) {
      process.stderr.write('compute.js: ' + err.message + '\n');
      process.exitCode = 1;
    }
  });
}

if (require.main === module) main();

module.exports = { load_modules: load_modules, run: run };
