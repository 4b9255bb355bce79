#!/usr/bin/env bash
# Runs a GoogleTest binary as SHARDS processes at once (one per core unless
# SHARDS says), each with its share of the tests (GTEST_TOTAL_SHARDS,
# GTEST_SHARD_INDEX; GTEST_FILTER and the test environment pass through),
# then prints each shard's output in turn. Exits 1 if any shard failed.
# The sanitizer targets use it: their tests run one at a time otherwise, and
# the tests share nothing (each has its own scratch directory).
#   bash checks/run_shards.sh BINARY
set -uo pipefail

if [ $# -ne 1 ]; then
  echo "usage: bash checks/run_shards.sh BINARY" >&2
  exit 2
fi
binary=$1
shards=${SHARDS:-$(nproc 2>/dev/null || echo 1)}
if ! [[ $shards =~ ^[0-9]+$ ]] || ((10#$shards < 1)); then
  echo "run_shards.sh: SHARDS must be a positive integer, not '${SHARDS-}'" >&2
  exit 2
fi
shards=$((10#$shards))

logs=$(mktemp -d) || exit 1
trap 'rm -rf "$logs"' EXIT
pids=()
for ((i = 0; i < shards; ++i)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$binary" >"$logs/$i" 2>&1 &
  pids+=($!)
done
status=0
failed=()
for ((i = 0; i < shards; ++i)); do
  if ! wait "${pids[i]}"; then
    status=1
    failed+=("$((i + 1))")
  fi
done
for ((i = 0; i < shards; ++i)); do
  echo "=== $binary: shard $((i + 1)) of $shards"
  cat "$logs/$i"
done
if [ $status -ne 0 ]; then
  echo "run_shards.sh: $binary: shard(s) ${failed[*]} of $shards failed (output above)" >&2
fi
exit $status
