#!/usr/bin/env bash
# The layering rule of docs/architecture.md, checked through Bazel
# visibility: each probe below is a manual target that depends across a
# layer the table forbids, so its analysis must fail with Bazel's visibility
# error ("target '...' is not visible from target '...'"); the control probe
# depends only downwards and must pass analysis. Analysis only
# (`bazel build --nobuild`): nothing is compiled. Not a Bazel test (a test
# cannot run Bazel); dev/test runs it as its own step. Ends with one line
# `layering: N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0
failed=0
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# A forbidden dependency: analysis fails, and for visibility.
expect_not_visible() {
  local probe="$1" dep="$2"
  if bazel build --nobuild --color=no --curses=no "$probe" >"$log" 2>&1; then
    echo "FAIL $probe: built, but $dep must not be visible from it"
    failed=$((failed + 1))
  elif grep -q "target '$dep' is not visible from target '$probe'" "$log"; then
    echo "ok   $probe: $dep is not visible from it"
    passed=$((passed + 1))
  else
    echo "FAIL $probe: failed, but not with the visibility error:"
    grep -E '^ERROR' "$log" | head -5
    failed=$((failed + 1))
  fi
}

# An allowed dependency: analysis passes.
expect_visible() {
  local probe="$1"
  if bazel build --nobuild --color=no --curses=no "$probe" >"$log" 2>&1; then
    echo "ok   $probe: allowed, analyses"
    passed=$((passed + 1))
  else
    echo "FAIL $probe: an allowed dependency failed analysis:"
    grep -E '^ERROR' "$log" | head -5
    failed=$((failed + 1))
  fi
}

expect_not_visible //governors/testing/layer_probe:governor_uses_sim \
  //sim:simulator
expect_not_visible //sim/testing/layer_probe:sim_uses_governors \
  //governors:policies
expect_not_visible //platform/testing/layer_probe:platform_uses_governors \
  //governors:policies
expect_not_visible //platform/drivers/layer_probe:drivers_uses_governors \
  //governors:policies
expect_not_visible //platform/drivers/layer_probe:drivers_uses_sim \
  //sim:simulator
expect_not_visible //topology/testing/layer_probe:topology_uses_platform \
  //platform:cpufreq
expect_not_visible //api/testing/layer_probe:api_uses_cli //cli:cli
expect_visible //experiments/testing/layer_probe:experiments_uses_sim

echo "layering: $passed passed, $failed failed"
[[ "$failed" == 0 ]]
