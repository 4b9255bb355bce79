#!/usr/bin/env bash
# Compares cdscale with LIBSVM's svm-scale (Debian's libsvm-tools) live, on
# the data/ sets, both ways:
#
#   bash checks/check_svm_scale.sh [DATA_DIR]
#
# For each training set and -l 0 / -l -1 it checks that the two range files
# are the same bytes and the two scaled files hold the same values to
# svm-scale's printed precision ("%g", 6 digits); then that each tool scales
# the test set with the other's range file as the other does. The tests
# (tests/tools/test_cdscale_end_to_end.cpp) check the same against stored
# svm-scale output, without needing svm-scale. Takes about 6 minutes on a
# busy 2-core machine (-l -1 makes rcv1_small dense: 4.9M values).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-$root/data}
cdscale=$root/cdscale
command -v svm-scale > /dev/null || { echo "check_svm_scale.sh: needs svm-scale (apt-get install libsvm-tools)" >&2; exit 1; }
[ -x "$cdscale" ] || { echo "check_svm_scale.sh: $cdscale is missing; run make" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# same_values OURS THEIRS: the same lines, nonzero pairs and values to 6 digits.
same_values() {
  /usr/bin/python3 - "$1" "$2" << 'EOF'
import sys
def rows(path):
    out = []
    for line in open(path):
        t = line.split()
        out.append((float(t[0]), {int(a): float(b) for a, b in (x.split(':') for x in t[1:])}))
    return out
def close(a, b):
    return abs(a - b) <= 5e-6 * abs(a) + 1e-300
a, b = rows(sys.argv[1]), rows(sys.argv[2])
bad = len(a) != len(b)
for i, (x, y) in enumerate(zip(a, b)):
    if not close(x[0], y[0]) or x[1].keys() != y[1].keys() or \
       not all(close(x[1][k], y[1][k]) for k in x[1]):
        bad = True
        print(f"  line {i + 1} differs", file=sys.stderr)
        break
sys.exit(1 if bad else 0)
EOF
}

failures=0
check() {  # check DESCRIPTION COMMAND...
  local what=$1; shift
  if "$@"; then echo "ok    $what"; else echo "FAIL  $what"; failures=$((failures + 1)); fi
}

for pair in "heart_scale heart_scale" "dna.scale dna.scale.t" "a9a a9a.t" "w8a w8a" \
            "rcv1_small rcv1_small.t" "svmguide1 svmguide1.t" \
            "svmlight_example1.train svmlight_example1.test"; do
  read -r train test <<< "$pair"
  [ -f "$data/$train" ] && [ -f "$data/$test" ] || { echo "skip  $train (not in $data)"; continue; }
  for lower in 0 -1; do
    svm-scale -l "$lower" -s "$work/svm.range" "$data/$train" > "$work/svm.out" 2> /dev/null
    "$cdscale" -l "$lower" -s "$work/our.range" "$data/$train" > "$work/our.out" 2> /dev/null
    check "$train -l $lower: range files identical" cmp -s "$work/svm.range" "$work/our.range"
    check "$train -l $lower: scaled values" same_values "$work/our.out" "$work/svm.out"
    svm-scale -r "$work/our.range" "$data/$test" > "$work/svm.t" 2> /dev/null
    "$cdscale" -r "$work/svm.range" "$data/$test" > "$work/our.t" 2> /dev/null
    check "$test -l $lower: each tool restores the other's range file" \
      same_values "$work/our.t" "$work/svm.t"
  done
done
svm-scale -y 0 1 -s "$work/svm.range" "$data/heart_scale" > "$work/svm.out" 2> /dev/null
"$cdscale" -y 0 1 -s "$work/our.range" "$data/heart_scale" > "$work/our.out" 2> /dev/null
check "heart_scale -y 0 1: range files identical" cmp -s "$work/svm.range" "$work/our.range"
check "heart_scale -y 0 1: scaled values" same_values "$work/our.out" "$work/svm.out"
svm-scale -r "$work/our.range" "$data/heart_scale" > "$work/svm.t" 2> /dev/null
"$cdscale" -r "$work/svm.range" "$data/heart_scale" > "$work/our.t" 2> /dev/null
check "heart_scale -y 0 1: each tool restores the other's range file" \
  same_values "$work/our.t" "$work/svm.t"

[ "$failures" -eq 0 ] && echo "all agree" || { echo "$failures checks failed"; exit 1; }
