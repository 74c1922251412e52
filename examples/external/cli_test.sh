#!/usr/bin/env bash
# Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
#
# The command line of a binary that links the example's policy: it lists
# `nearest_idle` and runs an experiment file that names it.
set -euo pipefail
tool="$(realpath "$1")"
experiment="$(realpath "$2")"
cd "${TEST_TMPDIR:-$(mktemp -d)}"

"$tool" policies >policies.txt
grep -q "nearest_idle" policies.txt || {
  echo "FAIL: 'policies' does not list nearest_idle"
  cat policies.txt
  exit 1
}
"$tool" run "$experiment" >run.txt 2>&1 || {
  echo "FAIL: 'run $experiment'"
  cat run.txt
  exit 1
}
grep -q "nearest" run.txt || {
  echo "FAIL: the comparison does not show the nearest variant"
  cat run.txt
  exit 1
}
echo "PASS: nearest_idle listed and used by an experiment file"
