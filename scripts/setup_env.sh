#!/usr/bin/env bash
# Shared set-up for ./workbench and ./run-tests: check Java and Python, make .venv, install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REQUIREMENTS="${1:-$ROOT/requirements.txt}"

# Each step says what it does (set-up printed nothing for 36 s while pip ran quietly, minutes on an empty
# cache); pip's own lines go through `pip_progress`, which numbers the packages as it collects them.
step() { echo "[setup $1/4] $2" >&2; }
pip_progress() {
  awk '
    /^(Collecting|Processing) / { n++; printf "  [%d] %s\n", n, $0; fflush(); next }
    /^(  Downloading|Installing collected|Successfully|  Building|Building|  Attempting uninstall|Obtaining)/ {
      print "  " $0; fflush() }' >&2
}

step 1 "Checking Java (Spark 4 needs 17 or newer)"

java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
if ! command -v "$java_bin" >/dev/null 2>&1; then
  echo "error: Java was not found. Spark 4 needs Java 17 or newer." >&2
  echo "       Install it (Debian/Ubuntu: sudo apt-get install openjdk-17-jdk-headless)" >&2
  echo "       and make sure 'java' is on PATH or JAVA_HOME points at it." >&2
  exit 2
fi
java_major="$("$java_bin" -version 2>&1 | sed -n 's/.*version "\([0-9]*\)\(\.\([0-9]*\)\)\{0,1\}.*/\1 \3/p' | head -1)"
set -- $java_major
major="${1:-0}"; [ "$major" = "1" ] && major="${2:-0}"
if [ "$major" -lt 17 ]; then
  echo "error: Java $major was found ($java_bin), but Spark 4 needs Java 17 or newer." >&2
  echo "       Install it (Debian/Ubuntu: sudo apt-get install openjdk-17-jdk-headless) and set JAVA_HOME." >&2
  exit 2
fi

step 2 "Checking Python (3.11 or newer)"
PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
  echo "error: Python 3.11 or newer is needed (found: $("$PYTHON" --version 2>&1))." >&2
  exit 2
fi

if [ ! -x "$ROOT/.venv/bin/python" ]; then
  step 3 "Making the Python environment $ROOT/.venv"
  "$PYTHON" -m venv "$ROOT/.venv"
else
  step 3 "Using the Python environment $ROOT/.venv"
fi
stamp="$ROOT/.venv/.installed-$(cat "$ROOT"/requirements*.txt "$ROOT"/pyproject.toml "$ROOT"/tests/plugins/*/pyproject.toml \
  | sha256sum | cut -c1-16)-$(basename "$REQUIREMENTS")"
if [ ! -f "$stamp" ]; then
  wanted="$(grep -Ehv '^[[:space:]]*(#|-|$)' "$REQUIREMENTS" | sed 's/[[:space:]]*#.*//' | grep -c . || true)"
  step 4 "Installing the $wanted packages of $(basename "$REQUIREMENTS") and what they need (a first install downloads several hundred MB)"
  grep -Ehv '^[[:space:]]*(#|$)' "$REQUIREMENTS" | sed 's/[[:space:]]*#.*//; s/^/  wants /' >&2
  # From the project root: requirements-dev.txt installs the test plugin by its relative path.
  (cd "$ROOT" && "$ROOT/.venv/bin/pip" install --disable-pip-version-check --progress-bar off -r "$REQUIREMENTS" \
     | pip_progress)
  # The workbench itself, editable: its entry points register the built-in features (pyproject.toml).
  echo "  the workbench itself (editable, no dependencies)" >&2
  (cd "$ROOT" && "$ROOT/.venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -e .)
  touch "$stamp"
  step 4 "Installed; the next start skips this step until a requirements file changes"
else
  step 4 "Packages already installed ($(basename "$REQUIREMENTS") unchanged since the last install)"
fi

# The browser end-to-end tests drive Debian's Chromium (Playwright's own browser download
# cannot be fetched here); install it with the test requirements.
if [ "$(basename "$REQUIREMENTS")" = "requirements-dev.txt" ] && [ -z "${WORKBENCH_CHROMIUM:-}" ] \
   && [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's chromium for the browser tests (apt-get)…" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "warning: /usr/bin/chromium is missing, so the browser tests (tests/e2e) will fail." >&2
    echo "         Install it: sudo apt-get install -y chromium  (or set WORKBENCH_CHROMIUM=/path/to/chromium)" >&2
  fi
fi
