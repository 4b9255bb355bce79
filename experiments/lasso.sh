#!/usr/bin/env bash
# Selection rules on the Lasso (cdtrain -s cd -r l1 -l sq
# --select RULE), which minimizes
#   f(w) = ||w||_1 + C sum_j (y_j - w'x_j)^2      (no 1/2).
#
#  (a) Perekrestenko, Cevher & Jaggi (2017), Figure 1, Lasso rows: duality gap
#      (21) and suboptimality f - f* against epochs (n coordinate steps), the
#      mean over 5 seeds, for uniform, importance, gap-per-epoch, ada-gap and
#      the other adaptive rules (support-uniform, adaptive, ada-uniform), with
#      cyclic and the greedy rules as references.
#      The paper's Lasso (20) is ||A a - y||^2 + lambda ||a||_1; divided by
#      lambda it is ours with C = 1/lambda, so f = F_paper / lambda and the gap
#      and suboptimality are the paper's divided by lambda:
#        - agaricus (the mushroom data, /work/shared/data/agaricus.txt.train:
#          6,513 x 126, targets 0/1 as in the file) at lambda = 0.05: C = 20;
#        - rcv1*: 1,000 features drawn at random from rcv1_small (983 x 1,000
#          once empty documents are dropped; lasso_data.py), targets +1/-1.
#          The paper's lambda = 7e-4 (C = 1/7e-4 = 1428.57) leaves 743 of the
#          1,000 weights nonzero here, so lambda is chosen as the paper chose
#          it, for 10-15% nonzeros: C = 1.2 (lambda = 1/1.2 = 0.83) gives 131.
#  (b) Shi, Tu, Xu & Yin, "A Primer on Coordinate Descent", Figure 3: Gaussian
#      A 50 x 100, a sparse truth, noise 1e-4 (lasso_data.py), and the primer's
#      ||x||_1 + (lambda/2) ||Ax - b||^2 at lambda = 1e3, which is ours with
#      C = lambda/2 = 500. Cyclic, perm (shuffled cyclic), uniform (randomized,
#      20 seeds) and gs-s, gs-r, gs-q, against epochs.
#
# Runs through build/lasso_run (experiments/lasso_run.cpp, the library's
# primal L1 CD loop with each rule, from w = 0, without the loop's shrinking for
# every rule, as in the papers: see that file). f* is the lowest objective of
# any run, including the reference runs (cdtrain -e 1e-14 with cyclic CD and a
# long gs-q run); the summary gives each reference's last duality gap, which
# bounds how far f* can be from the optimum. CSVs and data go to
# build/experiments/lasso/, figures to docs/figures/lasso_*.png, the summary to
# build/experiments/lasso/summary.md. About 5-10 minutes on one busy core.
# Usage: bash experiments/experiments.sh lasso   (or bash experiments/lasso.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
make -j2 cdtrain build/libcdlinear.a >/dev/null
g++ -std=c++17 -O2 -Wall -Wextra -Isrc experiments/lasso_run.cpp build/libcdlinear.a \
  -o build/lasso_run -pthread
out=build/experiments/lasso
mkdir -p "$out" docs/figures
data=${CDL_SHARED_DATA:-/work/shared/data}
py=/usr/bin/python3
run=build/lasso_run

$py experiments/lasso_data.py synthetic "$out/synthetic.svm" 3
$py experiments/lasso_data.py rcv1 "$data/rcv1_small.xz" "$out/rcv1_1000.svm" 1000 1000
cp "$data/agaricus.txt.train" "$out/agaricus.svm"

# reference NAME C GSQ_EPOCHS: the reference runs' last rows (NAME.ref.csv).
reference() {
  ./cdtrain -q -s cd -r l1 -l sq -c "$2" -e 1e-14 --max-iter 20000 --trace "$out/$1.ref.tsv" \
    "$out/$1.svm" "$out/$1.ref.model" 2>/dev/null || true
  $run "$out/$1.svm" "$2" "$3" 1 gs-q | tail -n 1 >"$out/$1.ref.csv"
  tail -n 1 "$out/$1.ref.tsv" | awk -F'\t' -v d="$out/$1.svm" \
    '{ printf "%s,cdtrain-cyclic-shrinking,1,%s,%s,%s,%s\n", d, $1, $3, $4, $5 }' >>"$out/$1.ref.csv"
}

adaptive=uniform,importance,gap-per-epoch,ada-gap,support-uniform,adaptive,ada-uniform,cyclic,gs-s,gs-r,gs-q

reference synthetic 500 5000
$run "$out/synthetic.svm" 500 500 20 cyclic,perm,uniform,gs-s,gs-r,gs-q >"$out/synthetic.csv"
reference rcv1_1000 1.2 1000
$run "$out/rcv1_1000.svm" 1.2 100 5 "$adaptive" >"$out/rcv1_1000.csv"
reference agaricus 20 1000
$run "$out/agaricus.svm" 20 200 5 "$adaptive" >"$out/agaricus.csv"

$py experiments/lasso_plot.py "$out" docs/figures | tee "$out/summary.md"
