#!/usr/bin/env bash
# Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
#
# //:main runs and reports both placements.
set -euo pipefail
main="$(realpath "$1")"
cd "${TEST_TMPDIR:-$(mktemp -d)}"
"$main" >main.txt 2>&1 || {
  echo "FAIL: main exited non-zero"
  cat main.txt
  exit 1
}
cat main.txt
for want in "sis_util" "nearest_idle" "headroom"; do
  grep -q "$want" main.txt || {
    echo "FAIL: main's output lacks $want"
    exit 1
  }
done
echo "PASS"
