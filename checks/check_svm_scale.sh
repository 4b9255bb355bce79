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
# busy 2-core machine (-l -1 makes rcv1_small dense: 4.9M values). A missing
# data set fails unless CDL_ALLOW_SKIP=1, and then the last line says that
# not all checks ran.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/checks/lib.sh"
data=${1:-$root/data}
cdscale=$root/cdscale
command -v svm-scale > /dev/null || { echo "check_svm_scale.sh: needs svm-scale (apt-get install libsvm-tools)" >&2; exit 1; }
[ -x "$cdscale" ] || { echo "check_svm_scale.sh: $cdscale is missing; run make" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# same_values OURS THEIRS: the same lines (at least one), nonzero pairs and
# values to 6 digits.
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
bad = len(a) != len(b) or not a  # an empty output compares nothing
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

# both_ways NAME TRAIN TEST OPTION...: svm-scale and cdscale scale TRAIN
# with OPTION... to the same range file and values, and TEST with each
# other's range file to the same values.
both_ways() {
  local name=$1 train=$2 test=$3
  shift 3
  svm-scale "$@" -s "$work/svm.range" "$train" > "$work/svm.out" 2> /dev/null
  "$cdscale" "$@" -s "$work/our.range" "$train" > "$work/our.out" 2> /dev/null
  check "$name: range files identical" cmp -s "$work/svm.range" "$work/our.range"
  check "$name: scaled values" same_values "$work/our.out" "$work/svm.out"
  svm-scale -r "$work/our.range" "$test" > "$work/svm.t" 2> /dev/null
  "$cdscale" -r "$work/svm.range" "$test" > "$work/our.t" 2> /dev/null
  check "$name, $(basename "$test"): each tool restores the other's range file" \
    same_values "$work/our.t" "$work/svm.t"
}

for pair in "heart_scale heart_scale" "dna.scale dna.scale.t" "a9a a9a.t" "w8a w8a" \
            "rcv1_small rcv1_small.t" "svmguide1 svmguide1.t" \
            "svmlight_example1.train svmlight_example1.test"; do
  read -r train test <<< "$pair"
  [ -f "$data/$train" ] && [ -f "$data/$test" ] || { missing "$train or $test in $data"; continue; }
  for lower in 0 -1; do
    both_ways "$train -l $lower" "$data/$train" "$data/$test" -l "$lower"
  done
done
if [ -f "$data/heart_scale" ]; then
  both_ways "heart_scale -y 0 1" "$data/heart_scale" "$data/heart_scale" -y 0 1
else
  missing "heart_scale in $data (-y 0 1)"
fi

summary "$failures"
