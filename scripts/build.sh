#!/usr/bin/env bash
# Install what the build needs (a virtualenv in .venv, Chromium for the print edition) and build the
# whole site into _site/, its PDF and EPUB editions included (kept in .atlas-cache/ until an input
# changes, so a rebuild of unchanged inputs does not print them again).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh" --browser
cd "$ROOT"
.venv/bin/atlas-site build --export all "$@"
