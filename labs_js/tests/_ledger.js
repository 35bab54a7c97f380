/*
 * Test helper: the YAML front matter of a ledger file as a JS object.
 * Node has no YAML parser, so this asks python3 + PyYAML (the site build's
 * own dependency); when either is missing, callers skip their checks.
 */
'use strict';

const { spawnSync } = require('child_process');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');

const SCRIPT = [
  'import json, sys, yaml',
  'text = open(sys.argv[1], encoding="utf-8").read()',
  'parts = text.split("\\n---", 1)',
  'head = parts[0][len("---"):] if text.startswith("---") else ""',
  'print(json.dumps(yaml.safe_load(head) or {}))',
].join('\n');

/** {data} on success, {skip: reason} when python3/yaml are unavailable. */
function read_front_matter(relative) {
  const file = path.join(ROOT, relative);
  const run = spawnSync('python3', ['-c', SCRIPT, file], { encoding: 'utf8' });
  if (run.error) return { skip: 'python3 not available: ' + run.error.message };
  if (run.status !== 0) {
    if (/No module named .?yaml/.test(run.stderr)) return { skip: 'PyYAML not installed' };
    throw new Error('cannot read front matter of ' + relative + ':\n' + run.stderr);
  }
  return { data: JSON.parse(run.stdout) };
}

module.exports = { ROOT: ROOT, read_front_matter: read_front_matter };
