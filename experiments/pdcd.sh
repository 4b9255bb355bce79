#!/usr/bin/env bash
# Fercoq & Bianchi (2015), Figure 2: the post-processed duality gap of the
# L1-SVM with an unregularized intercept against time and against epochs,
# for pdcd (-s pdcd), random pair CD (-s rcd-pair) and, where this build has
# it, SDCA without an intercept (-s dcd -l l1svm --select uniform).
#
#   bash experiments/pdcd.sh [-o OUTDIR] [-m EPOCHS] [DATA ...]
#
# DATA defaults to rcv1_small (data/, or ../shared/data/rcv1_small.xz) and
# build/bench/rcv1like_20k.svm, a file of rcv1.binary's shape (20,242 rows,
# 47,236 features, 74 terms a row) made by
#   build/gen_rcv1like --rows 20242 --features 47236 --avg-terms 74 FILE
# if missing. The authors' setting: lambda = 1/n, C'_+ = 1/n, C'_- = (1/n)
# n+/n-, which is cdtrain's -c 1 -w-1 n+/n- (C = C'/lambda). Every run makes
# EPOCHS (default 100) epochs: --gap-tol 1e-300 keeps the gap from stopping
# it. The gap plotted is the paper's, lambda times ours (P and D scale with
# lambda); seconds are the solver's own, without the once-per-epoch
# post-processing (the same for every solver). SDCA's curve is the trace's
# intercept_gap column: its alpha post-processed for the problem with the
# intercept, as the paper does (its own gap column is that of the problem
# without one).
#
# Writes OUTDIR/<data>.<solver>.tsv (the --trace files), OUTDIR/summary.txt
# and, with /usr/bin/python3 + matplotlib, docs/figures/pdcd_figure2.png
# (OUTDIR defaults to build/experiments/pdcd).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
out=$here/build/experiments/pdcd
epochs=100
while getopts "o:m:" opt; do
  case $opt in
    o) out=$OPTARG ;;
    m) epochs=$OPTARG ;;
    *) echo "usage: $0 [-o OUTDIR] [-m EPOCHS] [DATA ...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
mkdir -p "$out"
cdtrain=$here/cdtrain
[ -x "$cdtrain" ] || make -C "$here" -j2 cdtrain

sets=("$@")
if [ ${#sets[@]} -eq 0 ]; then
  if [ -f "$here/data/rcv1_small" ]; then
    sets+=("$here/data/rcv1_small")
  else
    xzcat "$here/../shared/data/rcv1_small.xz" > "$out/rcv1_small"
    sets+=("$out/rcv1_small")
  fi
  big=$here/build/bench/rcv1like_20k.svm
  if [ ! -f "$big" ]; then
    make -C "$here" -j2 build/gen_rcv1like
    mkdir -p "$(dirname "$big")"
    "$here/build/gen_rcv1like" --rows 20242 --features 47236 --avg-terms 74 "$big"
  fi
  sets+=("$big")
fi

solvers=(pdcd rcd-pair)
if grep -q "^  [0-9]*  dcd " <<< "$("$cdtrain" -h)"; then
  solvers+=(dcd)
else
  echo "note: this build has no -s dcd; the SDCA curve is left out" >&2
fi

: > "$out/summary.txt"
rm -f "$out/sizes.txt.tmp"
for file in "${sets[@]}"; do
  name=$(basename "$file" .svm)
  read -r n pos neg < <(awk '{ if ($1 > 0) p++; else q++ } END { print p + q, p, q }' "$file")
  weight=$(awk -v p="$pos" -v q="$neg" 'BEGIN { printf "%.17g", p / q }')
  echo "$name: n = $n, n+ = $pos, n- = $neg, -c 1 -w-1 $weight" | tee -a "$out/summary.txt"
  for solver in "${solvers[@]}"; do
    flags=(-s "$solver" --max-iter "$epochs" -c 1 -w-1 "$weight")
    case $solver in
      dcd) flags+=(-l l1svm --select uniform --no-shrink -e 1e-12) ;;
      *) flags+=(--gap-tol 1e-300 --select perm) ;;
    esac
    "$cdtrain" "${flags[@]}" --trace "$out/$name.$solver.tsv" "$file" "$out/$name.$solver.model" \
      2> "$out/$name.$solver.log"
    echo "  $solver: $(grep -E 'duality gap|outer iterations' "$out/$name.$solver.log" | tr '\n' ' ')" |
      tee -a "$out/summary.txt"
  done
  echo "$name $n" >> "$out/sizes.txt.tmp"
done
mv "$out/sizes.txt.tmp" "$out/sizes.txt"
mkdir -p "$here/docs/figures"
/usr/bin/python3 "$here/experiments/pdcd_plot.py" "$out" "$here/docs/figures/pdcd_figure2.png"
