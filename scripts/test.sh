#!/usr/bin/env bash
# Install what the tests need (Chromium, Node.js, the virtualenv with test extras) and run the
# whole suite: the labs' JavaScript tests, then pytest (unit, golden, gates, browser).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh" --test
cd "$ROOT"
export ATLAS_CHROMIUM="${ATLAS_CHROMIUM:-/usr/bin/chromium}"

echo "== node --test labs_js/tests"
node --test labs_js/tests/

echo "== pytest"
set +e
.venv/bin/python -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure, not a pass" >&2
  exit 1
fi
exit "$status"
