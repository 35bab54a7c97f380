/*
 * Test helper: the YAML front matter of a ledger file as a JS object.
 * Node has no YAML parser, so this asks Python + PyYAML (the site build's
 * own dependency: the project's .venv when there is one, else python3).
 * When either is missing the tests that need a ledger fail: a check that
 * could not read its input has checked nothing.
 */
'use strict';

const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');

const SCRIPT = [
  'import json, sys, yaml',
  'text = open(sys.argv[1], encoding="utf-8").read()',
  'parts = text.split("\\n---", 1)',
  'head = parts[0][len("---"):] if text.startswith("---") else ""',
  'print(json.dumps(yaml.safe_load(head) or {}))',
].join('\n');

const VENV_PYTHON = path.join(ROOT, '.venv', 'bin', 'python');
const PYTHON = fs.existsSync(VENV_PYTHON) ? VENV_PYTHON : 'python3';

/** The parsed front matter of ROOT/relative; throws (the calling test fails) when the file,
 *  Python or PyYAML is missing or the YAML does not parse. */
function read_front_matter(relative) {
  const file = path.join(ROOT, relative);
  if (!fs.existsSync(file)) throw new Error('no ledger file ' + relative);
  const run = spawnSync(PYTHON, ['-c', SCRIPT, file], { encoding: 'utf8' });
  if (run.error) throw new Error(PYTHON + ' not available (needed to read ' + relative + '): ' + run.error.message);
  if (run.status !== 0) throw new Error('cannot read front matter of ' + relative + ' with ' + PYTHON + ':\n' + run.stderr);
  return JSON.parse(run.stdout);
}

module.exports = { ROOT: ROOT, read_front_matter: read_front_matter };
