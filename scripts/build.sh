#!/usr/bin/env bash
# Install what the build needs (a virtualenv in .venv) and build the whole site into _site/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"
cd "$ROOT"
.venv/bin/atlas-site build "$@"
