#!/usr/bin/env bash
# `schedsim run` on a terminal draws its progress line with the elapsed
# time and an ETA (cli/progress.h). script(1) (util-linux, in every
# Debian) gives the command a pseudo-terminal; off a terminal no line is
# drawn.
set -euo pipefail
bin="$1"
exp="$TEST_TMPDIR/exp.json"
cat >"$exp" <<'JSON'
{
  "machine": "skylake-e3-1240v5",
  "workload": {"model": "hackbench", "params": {"groups": 1, "pipe": true}},
  "iterations": 2,
  "duration_ms": 10,
  "variants": [{"name": "a"}, {"name": "b", "cpuidle": "teo"}]
}
JSON
tty_out="$TEST_TMPDIR/tty.txt"
script -qfec "$bin run $exp --jobs=1 --format=csv" "$tty_out" >/dev/null
if ! grep -aq '4/4 runs, [0-9]*:[0-9][0-9] elapsed, ETA [0-9]*:[0-9][0-9]' "$tty_out"; then
  echo "no progress line with an ETA on a terminal:" >&2
  cat -v "$tty_out" >&2
  exit 1
fi
"$bin" run "$exp" --jobs=1 --format=csv >/dev/null 2>"$TEST_TMPDIR/err.txt"
if grep -q 'ETA' "$TEST_TMPDIR/err.txt"; then
  echo "a progress line off a terminal:" >&2
  cat -v "$TEST_TMPDIR/err.txt" >&2
  exit 1
fi
echo "progress_tty_test: ok"
