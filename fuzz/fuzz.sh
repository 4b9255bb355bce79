#!/usr/bin/env bash
# Runs each libFuzzer target for FUZZ_SECONDS seconds (make fuzz FUZZ_SECONDS=N).
#
#   bash fuzz/fuzz.sh BUILD_DIR SECONDS [TARGET...]
#
# Seed corpora: the first lines of every data/ file (reader, and train with a
# leading choice byte), the model fixtures of tests/ (model), and the
# hand-written seeds in fuzz/seeds/<target>. Inputs the fuzzer finds are kept
# in BUILD_DIR/corpus/<target> between runs; a crash leaves its input in
# BUILD_DIR/artifacts/ and makes this script exit 1. Copy a reproducer into
# fuzz/regressions/<target>/ (make asan replays those) and give it a test
# where the bug was before fixing it.
set -euo pipefail

build=${1:?usage: fuzz.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: fuzz.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(reader model cli train cache)
root=$(cd "$(dirname "$0")/.." && pwd)

seed() {  # seed TARGET: fills $build/corpus/TARGET
  local target=$1 dir=$build/corpus/$1 f name
  mkdir -p "$dir"
  [ -d "$root/fuzz/seeds/$target" ] && cp "$root/fuzz/seeds/$target"/* "$dir"/
  case $target in
    reader | train)
      for f in "$root"/data/*; do
        name=$(basename "$f")
        [ "$name" = README.md ] && continue
        if [ "$target" = reader ]; then
          head -n 20 "$f" > "$dir/data_$name"
        else
          # The choice byte: from the name, so that the seeds are the same
          # every run and spread over the solvers.
          choice=$(( $(printf '%s' "$name" | cksum | cut -d' ' -f1) % 256 ))
          { printf "\\$(printf '%03o' "$choice")"; head -n 12 "$f"; } > "$dir/data_$name"
        fi
      done
      if [ "$target" = train ]; then
        for f in "$root"/fuzz/seeds/reader/*; do
          { printf '\x00'; cat "$f"; } > "$dir/reader_$(basename "$f")"
        done
      fi
      ;;
    model) cp "$root"/tests/fixtures/*.model "$dir"/ ;;
    cache)
      # The first lines of every data/ file as the text of a patched cache
      # (choice 13: integer labels, a bias) and of a sealed one (choice 2).
      for f in "$root"/data/*; do
        name=$(basename "$f")
        [ "$name" = README.md ] && continue
        head -n 8 "$f" > "$dir/text"
        length=$(stat -c %s "$dir/text")
        for choice in 13 2; do
          { printf "\\$(printf '%03o' "$choice")"
            printf "\\$(printf '%03o' $((length % 256)))\\$(printf '%03o' $((length / 256)))"
            cat "$dir/text"; } > "$dir/data_${choice}_$name"
        done
        rm "$dir/text"
      done
      ;;
  esac
}

mkdir -p "$build/artifacts"
status=0
for target in "${targets[@]}"; do
  seed "$target"
  echo "== fuzz_$target for ${seconds}s"
  if ! "$build/fuzz_$target" "$build/corpus/$target" -max_total_time="$seconds" \
      -max_len=65536 -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/${target}-" 2> "$build/fuzz_$target.log"; then
    echo "fuzz_$target FAILED; see $build/fuzz_$target.log and $build/artifacts/"
    tail -n 40 "$build/fuzz_$target.log"
    status=1
  else
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)|^Done' "$build/fuzz_$target.log" || true
  fi
done
exit $status
