#!/usr/bin/env bash
# Install what the tests need (Chromium, Node.js, the virtualenv with test extras) and run the
# whole suite: code hygiene, the labs' JavaScript tests, the Atlas's gate, then pytest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh" --test
cd "$ROOT"
export ATLAS_CHROMIUM="${ATLAS_CHROMIUM:-/usr/bin/chromium-headless-shell}"
# Python's bytecode cache on, whatever the machine's environment says: with PYTHONDONTWRITEBYTECODE
# set (as on this project's CI machines), every test worker, forked command and the gate compiled
# the engine and the tests from source again, about 2 CPU-seconds each.
unset PYTHONDONTWRITEBYTECODE

# The Atlas's publication gate starts first and runs beside everything after it (the hygiene, the
# labs' tests, pytest): its page walk waits on Chromium and leaves part of a core idle, which they
# use. Its report is printed after the tests, whole; the run fails if either fails, and a run that
# stops early (a hygiene failure) stops the gate with it.
# It is judged on book.yaml's edition date; what is past due today it lists as warnings only.
GATE_LOG="$(mktemp)"
.venv/bin/atlas-site check --browser --release --warn-due-by "$(date +%F)" > "$GATE_LOG" 2>&1 &
GATE=$!
trap 'kill "$GATE" 2>/dev/null || true; rm -f "$GATE_LOG"' EXIT

echo "== code hygiene: ruff (lint and format), mypy on src/, the engine's layers (pyproject.toml)"
.venv/bin/ruff check src tests scripts
.venv/bin/ruff format --check src tests scripts
.venv/bin/mypy src
.venv/bin/lint-imports

echo "== node --test labs_js/tests"
node --test labs_js/tests/

PYTEST_AT=$SECONDS
echo "== pytest (the Atlas's gate, check --browser --release, runs beside it; its report follows)"
# The 15 slowest tests are listed at the end (where the suite's time goes).
# Two workers (ATLAS_TEST_WORKERS=0 runs in one process): each builds the fixture books it needs
# once and launches one Chromium; tests share no files (every test that writes copies a fixture
# project), so which worker runs a test never changes its result. Work stealing: the cases last
# from under a second to a minute, and an idle worker takes pending cases from the busy one
# instead of waiting at the end. The suite never builds the Atlas: its gate checks it.
WORKERS="${ATLAS_TEST_WORKERS:-2}"
PARALLEL=()
if [ "$WORKERS" != "0" ]; then PARALLEL=(-n "$WORKERS" --dist worksteal); fi
set +e
.venv/bin/python -m pytest "${PARALLEL[@]}" --durations=15 "$@"
status=$?
wait "$GATE"
gate=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests: that is a failure, not a pass" >&2
  status=1
fi

echo "== atlas-site check --browser --release (the Atlas's publication gate, judged on book.yaml's edition date)"
cat "$GATE_LOG"


echo "== the whole run took ${SECONDS} s (pytest started at ${PYTEST_AT} s)"
if [ "$gate" -ne 0 ]; then
  echo "the Atlas's gate failed (its report is above)" >&2
fi
if [ "$status" -ne 0 ]; then exit "$status"; fi
exit "$gate"
