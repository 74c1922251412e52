#!/usr/bin/env bash
# Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
#
# Checks the include rule of the public headers (docs/library.md): following
# every `#include "..."` from each public header (the arguments), each one
# must resolve to a public header (schedsim/...) or to one of the
# re-exported internal headers this test is given as data; Abseil
# ("absl/...") and <system> headers are allowed. Anything else (sim/,
# workloads/, experiments/, ...) fails.
set -uo pipefail

root="${TEST_SRCDIR:?}/${TEST_WORKSPACE:?}"
failed=0
declare -A seen=()

resolve() {  # include path -> file under $root, or ""
  local inc="$1"
  if [[ "$inc" == schedsim/* ]]; then
    inc="include/$inc"
  fi
  if [[ -f "$root/$inc" ]]; then
    echo "$root/$inc"
  fi
}

visit() {  # file, shown name
  local file="$1" name="$2"
  [[ -n "${seen[$file]:-}" ]] && return
  seen[$file]=1
  local inc
  while IFS= read -r inc; do
    if [[ "$inc" == absl/* ]]; then
      continue
    fi
    local target
    target="$(resolve "$inc")"
    if [[ -z "$target" ]]; then
      echo "FAIL: $name includes \"$inc\", which is not a public or" \
        "re-exported header"
      failed=1
      continue
    fi
    visit "$target" "$inc"
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
}

count=0
for h in "$@"; do
  visit "$root/$h" "$h"
  count=$((count + 1))
done
if ((failed)); then
  exit 1
fi
echo "PASS: $count public headers reach ${#seen[@]} headers, all allowed"
