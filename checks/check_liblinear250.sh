#!/usr/bin/env bash
# cdtrain -s N against LIBLINEAR 2.50's train -s N, both at their defaults,
# for the numbers LIBLINEAR 2.50 added to what cdtrain solved (12, 13, 7):
# on heart_scale, a9a and rcv1_small (the wide text file) it prints
#   - f of each model, scored by one formula (`bench_cd objective`, C = 1,
#     p = 0.1): ours must be at most 1% above LIBLINEAR's, and not below
#     f* (LIBLINEAR 2.50 at -e 1e-5, 10^4 times its default tolerance) by
#     more than 0.1% of |f*|: no model goes below the optimum, and f* is
#     that close above it (a lower f is a wrong objective or model file),
#   - the test accuracy (classification) or mean squared error (regression)
#     of each, by cdpredict,
#   - whether LIBLINEAR 2.50's predict, run on our model file, writes
#     exactly what cdpredict writes.
# heart_scale has no test file here, so its figures are on the training file.
# For -s 4, on heart_scale and dna.scale, f is Crammer and Singer's primal
# (`bench_cd objective`, C = 1). For -s 21 (`dual` below: bench_cd does not
# score it), f is the dual each solver prints at its end (cdtrain's summary,
# LIBLINEAR's "Objective value"), with the same two bounds, on heart_scale
# and breast-cancer_scale (its accuracy is that of +1/-1 against the labels).
# Every f, accuracy and error must have been read (a number), or the script
# fails. Last, LIBLINEAR 2.50's predict must refuse a dcd-maxent model.
#
#   bash checks/check_liblinear250.sh [liblinear_dir] [numbers...]
#
# liblinear_dir holds LIBLINEAR 2.50's train and predict (default
# /tmp/cdl-peers/liblinear-2.50, built there by /work/shared/peers/build.sh
# when absent). Needs `make tools`. Prints a Markdown table and exits 1 if a
# row fails a bound on f or a prediction differs.
set -euo pipefail
cd "$(dirname "$0")/.."
. checks/lib.sh

ll=${1:-/tmp/cdl-peers/liblinear-2.50}
shift || true
numbers=${*:-12 13 7}
if [ ! -x "$ll/train" ] && [ "$ll" = /tmp/cdl-peers/liblinear-2.50 ] && [ -f /work/shared/peers/build.sh ]; then
  bash /work/shared/peers/build.sh /tmp/cdl-peers >/dev/null
fi
for tool in ./cdtrain ./cdpredict build/bench_cd "$ll/train" "$ll/predict"; do
  [ -x "$tool" ] || { echo "check_liblinear250: $tool is missing" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

score() {  # test_file model -> accuracy in percent or mean squared error
  ./cdpredict "$1" "$2" "$tmp/p" | head -1 | sed -n -e 's/^Accuracy = \([0-9.]*\)%.*/\1/p' \
    -e 's/^Mean squared error = \([0-9.e+-]*\) .*/\1/p'
}

pairs="data/heart_scale:data/heart_scale data/a9a:data/a9a.t data/rcv1_small:data/rcv1_small.t"
dual_pairs_21="data/heart_scale:data/heart_scale data/breast-cancer_scale:data/breast-cancer_scale"
pairs_4="data/heart_scale:data/heart_scale data/dna.scale:data/dna.scale.t"
failed=0
echo "| -s | data | f ours | f LIBLINEAR 2.50 | ratio | f* | accuracy or MSE ours / LIBLINEAR | predict on our model | f bounds |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in $numbers; do
  dual=0 list=$pairs
  case $n in 21) dual=1 list=$dual_pairs_21 ;; 4) list=$pairs_4 ;; esac
  for pair in $list; do
    train=${pair%%:*} test=${pair##*:}
    if [ "$dual" = 1 ]; then
      f_ours=$(./cdtrain -s "$n" "$train" "$tmp/ours" 2>&1 | sed -n 's/.* outer iterations, f \([^,]*\),.*/\1/p')
      f_theirs=$("$ll/train" -s "$n" "$train" "$tmp/theirs" | sed -n 's/^Objective value = //p')
      f_star=$("$ll/train" -s "$n" -e 1e-5 "$train" "$tmp/star" | sed -n 's/^Objective value = //p')
    else
      ./cdtrain -q -s "$n" "$train" "$tmp/ours"
      "$ll/train" -q -s "$n" "$train" "$tmp/theirs" >/dev/null
      f_ours=$(build/bench_cd objective "$train" "$tmp/ours" 1 0.1)
      f_theirs=$(build/bench_cd objective "$train" "$tmp/theirs" 1 0.1)
      "$ll/train" -q -s "$n" -e 1e-5 "$train" "$tmp/star" >/dev/null
      f_star=$(build/bench_cd objective "$train" "$tmp/star" 1 0.1)
    fi
    s_ours=$(score "$test" "$tmp/ours")
    s_theirs=$(score "$test" "$tmp/theirs")
    what="-s $n on $(basename "$train"):"
    numbers "$what f of ours" "$f_ours" "$what f of LIBLINEAR 2.50's" "$f_theirs" "$what f*" "$f_star" \
      "$what the score of ours" "$s_ours" "$what the score of LIBLINEAR 2.50's" "$s_theirs"
    ratio=$(awk -v a="$f_ours" -v b="$f_theirs" 'BEGIN { printf "%.4f", a / b }')
    ./cdpredict "$test" "$tmp/ours" "$tmp/cd.out" >/dev/null
    "$ll/predict" "$test" "$tmp/ours" "$tmp/ll.out" >/dev/null
    same=same
    cmp -s "$tmp/cd.out" "$tmp/ll.out" || { same=DIFFERENT; failed=1; }
    # The duals are minimized too, and may be negative: bounds in |f|.
    pass=$(awk -v a="$f_ours" -v b="$f_theirs" -v s="$f_star" 'BEGIN {
      if (b < 0) b = -b; m = s; if (m < 0) m = -m
      print (a - b <= 0.01 * b && a >= s - 0.001 * m) ? "yes" : "NO" }')
    [ "$pass" = yes ] || failed=1
    echo "| $n | $(basename "$train") | $f_ours | $f_theirs | $ratio | $f_star | $s_ours / $s_theirs | $same | $pass |"
  done
done
# A dcd-maxent model's type (L2R_MAXENT_DUAL) is unknown to LIBLINEAR: its
# predict must refuse the file (a failing exit status, "unknown solver
# type", no output) rather than compute one-vs-rest probabilities from it.
./cdtrain -q -s dcd-maxent data/dna.scale "$tmp/maxent"
refused=yes
if "$ll/predict" -b 1 data/dna.scale.t "$tmp/maxent" "$tmp/maxent.out" >"$tmp/maxent.err" 2>&1; then
  refused=NO
fi
grep -q "unknown solver type" "$tmp/maxent.err" || refused=NO
[ ! -s "$tmp/maxent.out" ] || refused=NO
echo
echo "LIBLINEAR 2.50's predict refuses a dcd-maxent model: $refused"
[ "$refused" = yes ] || failed=1
exit $failed
