#!/usr/bin/env bash
# Runs python/schedsim_test.py and examples/python/what_if.py with Debian's
# python3 (its python3-pandas and python3-matplotlib; dev/setup installs
# them) on the Bazel-built package.
set -euo pipefail
pkg_init="$1"
tests="$2"
example="$3"
PY=/usr/bin/python3
export PYTHONPATH="$(cd "$(dirname "$pkg_init")/.." && pwd)"
export MPLBACKEND=Agg
export PYTHONDONTWRITEBYTECODE=1
# -P: not the test's own directory first (python/ holds the package's
# sources without the extension).
"$PY" -P "$tests" -v
out="$TEST_TMPDIR/what_if"
"$PY" -P "$example" --out "$out" --iterations 2 --duration-ms 40
test -s "$out/what_if.png" || { echo "no plot written" >&2; exit 1; }
echo "python_test: ok"
