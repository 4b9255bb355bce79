#!/usr/bin/env bash
# Checks -s pdcd (and, with -r, rcd-pair) against LIBSVM's stored results for
# the SVM with an unregularized intercept (tests/fixtures/libsvm_linear.txt,
# made by `svm-train -t 0 -c 1 -e 0.00001`; see tests/fixtures/README.md) on
# seven data sets, the large ones too slow for the unit tests:
#
#   bash checks/check_pdcd.sh [-r] [-e EPS] [-m MAX_ITER] [-d SETS] [DATA_DIR]
#
# SETS is a space-separated subset of the names (default all seven but a9a,
# which takes minutes: `-d a9a` checks it alone).
#
# DATA_DIR (default ../shared/data, then data/) holds heart_scale,
# breast-cancer_scale, diabetes_scale, german.numer_scale,
# australian_scale, rcv1_small(.xz) and a9a(.xz); .xz files are read
# through xzcat. For each set it trains at C = 1 at cdtrain's defaults
# (the gap and intercept test of src/solvers/intercept_epoch.h, and its own
# epoch limit), or with -e EPS and --max-iter MAX_ITER when given,
# predicts the training set, and prints the epochs, the wall seconds of
# cdtrain (reading included), the primal objective of the model,
# LIBSVM's, their relative difference, w0 against LIBSVM's -rho and the
# accuracies, with PASS/FAIL for the bounds (1% objective, 1e-2 on
# w0, 0.3 points of accuracy). Exit status 1 if any check fails, if a
# value it compares could not be read, or if a data set is missing (unless
# CDL_ALLOW_SKIP=1, which skips it).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/checks/lib.sh"
solvers="pdcd"
limits=()
sets="heart_scale breast-cancer_scale diabetes_scale german.numer_scale australian_scale rcv1_small"
while getopts "re:m:d:" opt; do
  case $opt in
    r) solvers="pdcd rcd-pair" ;;
    e) limits+=(-e "$OPTARG") ;;
    m) limits+=(--max-iter "$OPTARG") ;;
    d) sets=$OPTARG ;;
    *) echo "usage: $0 [-r] [-e EPS] [-m MAX_ITER] [-d SETS] [DATA_DIR]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
data_dir=${1:-$here/../shared/data}
[ -d "$data_dir" ] || data_dir=$here/data
cdtrain=$here/cdtrain
cdpredict=$here/cdpredict
[ -x "$cdtrain" ] || { echo "build first: make" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

status=0
printf '%-10s %-20s %9s %8s %14s %14s %9s %10s %10s %8s %8s %s\n' solver data epochs seconds primal libsvm rel_diff w0 libsvm_w0 acc libsvm_acc result
for name in $sets; do
  if [ -f "$data_dir/$name" ]; then
    cp "$data_dir/$name" "$work/$name"
  elif [ -f "$data_dir/$name.xz" ]; then
    xzcat "$data_dir/$name.xz" > "$work/$name"
  else
    missing "$data_dir/$name(.xz)"
    continue
  fi
  read -r obj rho acc < <(awk -v n="$name" '$1 == n && $3 == 1 {print $4, $5, $6}' \
    "$here/tests/fixtures/libsvm_linear.txt")
  for solver in $solvers; do
    log=$work/$name.$solver.log
    rm -f "$work/m"
    start=$(date +%s.%N)
    "$cdtrain" -s "$solver" ${limits[@]+"${limits[@]}"} "$work/$name" "$work/m" 2> "$log"
    seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}')
    epochs=$(grep -o "^$solver: [0-9]* outer" "$log" | awk '{print $2}' || true)
    primal=$(grep -o "primal [0-9.e+-]*" "$log" | tail -1 | awk '{print $2}' || true)
    w0=$(tail -1 "$work/m" | awk '{print $1}')
    ours_acc=$("$cdpredict" "$work/$name" "$work/m" "$work/p" | sed -n 's/^Accuracy = \([0-9.]*\)%.*/\1/p')
    numbers "$solver $name: LIBSVM's obj" "$obj" "$solver $name: LIBSVM's rho" "$rho" \
      "$solver $name: LIBSVM's accuracy" "$acc" "$solver $name: the primal" "$primal" \
      "$solver $name: w0" "$w0" "$solver $name: the accuracy" "$ours_acc" \
      "$solver $name: the epochs" "$epochs"
    verdict=$(awk -v p="$primal" -v o="$obj" -v w="$w0" -v r="$rho" -v a="$ours_acc" -v b="$acc" 'BEGIN {
      ref = -o; d = (p - ref) / ref; dw = w + r; if (dw < 0) dw = -dw; da = a - b; if (da < 0) da = -da
      ok = (d < 0.01 && d > -0.01 && dw <= 0.01 && da <= 0.3)
      printf "%.3e %.6f %.6f %s", d, w, -r, ok ? "PASS" : "FAIL" }')
    read -r rel w0_out libsvm_w0 result <<< "$verdict"
    printf '%-10s %-20s %9s %8s %14.6f %14.6f %9s %10s %10s %8s %8s %s\n' "$solver" "$name" "$epochs" "$seconds" \
      "$primal" "$(awk -v o="$obj" 'BEGIN {print -o}')" "$rel" "$w0_out" "$libsvm_w0" "$ours_acc" "$acc" "$result"
    [ "$result" = PASS ] || status=$((status + 1))
  done
done
summary "$status"
