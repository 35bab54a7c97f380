#!/usr/bin/env bash
# Shared by build.sh and test.sh: system packages when missing, then the project virtualenv.
# Usage: source scripts/setup.sh [--browser | --test]
#   --browser: also Chromium and the CJK fonts, and Playwright (the print edition, check --browser)
#   --test:    that, and what the tests need (epubcheck, poppler, the test extras)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WANT_TEST="${1:-}"

apt_install() {
  # root on Debian: install only what is missing; update the package lists once
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; else SUDO=""; fi
  if [ -z "${ATLAS_APT_UPDATED:-}" ]; then
    $SUDO apt-get update -qq
    export ATLAS_APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# Node.js computes the teaching numbers with the labs' own formulas (and runs the lab tests); npm
# installs Pagefind 1.6 (package.json), which indexes Chinese by words.
command -v node >/dev/null 2>&1 || apt_install nodejs
command -v npm >/dev/null 2>&1 || apt_install npm
if ! (cd "$ROOT" && node -e 'const want = require("./package.json").dependencies.pagefind;
    process.exit(require("./node_modules/pagefind/package.json").version === want ? 0 : 1)' 2>/dev/null); then
  (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
if [ "$WANT_TEST" = "--test" ] || [ "$WANT_TEST" = "--browser" ]; then
  # Debian's Chromium headless shell drives the browser gates and prints the PDF edition
  # (Playwright cannot download browsers here); the PDF sets Chinese in the Noto CJK fonts.
  [ -x /usr/bin/chromium-headless-shell ] || apt_install chromium-headless-shell fonts-noto-cjk
  [ -f /usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc ] || apt_install fonts-noto-cjk
fi
if [ "$WANT_TEST" = "--test" ]; then
  # the export tests: epubcheck (Java) validates the EPUBs, poppler's pdftotext/pdffonts read the PDFs
  [ -f /usr/share/java/epubcheck.jar ] || apt_install epubcheck
  command -v pdffonts >/dev/null 2>&1 || apt_install poppler-utils
fi

PY="${PYTHON:-python3}"
if [ ! -x "$ROOT/.venv/bin/python" ]; then
  "$PY" -m venv "$ROOT/.venv"
fi
"$ROOT/.venv/bin/python" -m pip install -q --upgrade pip >/dev/null
if [ "$WANT_TEST" = "--test" ]; then
  "$ROOT/.venv/bin/python" -m pip install -q -e "$ROOT[test]"
elif [ "$WANT_TEST" = "--browser" ]; then
  "$ROOT/.venv/bin/python" -m pip install -q -e "$ROOT[browser]"
else
  "$ROOT/.venv/bin/python" -m pip install -q -e "$ROOT"
fi
