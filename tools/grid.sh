#!/usr/bin/env bash
# A small grid search over the penalty parameter C and the loss, by cross
# validation. It is meant as an example to copy and adapt:
#
#   bash tools/grid.sh [-v FOLDS] [-s SOLVER] TRAIN
#
#   -v FOLDS    folds of the cross validation (default 5)
#   -s SOLVER   cdtrain's solver, by name or number (default cdper)
#
# For every C in 2^-5, 2^-3, ..., 2^5 and every loss the solver supports it
# runs
#
#   ./cdtrain -q -v FOLDS -s SOLVER -l LOSS -c C TRAIN
#
# reads the accuracy from the line "SOLVER...: Cross Validation Accuracy = X%"
# that cdtrain prints (as LIBSVM's grid.py does: the last word of the line), and
# finally prints a Markdown table of the accuracies (a row per C, a column per
# loss) and the best pair. With -v, cdtrain writes no model. Afterwards train
# the final model with the best pair; the command printed last does so from
# any directory (absolute paths), e.g.
#
#   /path/to/cdlinear/cdtrain -s cdper -l lr -c 0.125 /path/to/TRAIN
#
# If the best C is the smallest or the largest of the grid, a better one may
# lie beyond it: a warning says so, and the grid's ends should be widened.
#
# For a finer search over C alone, cdtrain has one built in: `cdtrain -C`
# (doubling C, warm starts); this script shows the general pattern, which also
# works for settings -C does not search (the loss here; -B, -w1 ... likewise).
set -euo pipefail

prog=$(basename "$0")
# cdtrain lives in the repository root, one level above this script (or
# where $CDTRAIN says); the user's working directory is left alone so that
# relative paths work.
cdtrain=${CDTRAIN:-$(cd "$(dirname "$0")/.." && pwd)/cdtrain}

usage() { echo "usage: $prog [-v FOLDS] [-s SOLVER] TRAIN" >&2; exit 2; }

# ---- options ---------------------------------------------------------------
folds=5
solver=cdper
while getopts ":v:s:h" opt; do
  case $opt in
    v) folds=$OPTARG ;;
    s) solver=$OPTARG ;;
    h) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    :) echo "$prog: -$OPTARG needs an argument" >&2; usage ;;
    *) echo "$prog: unknown option -$OPTARG" >&2; usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
train=$1

[[ $folds =~ ^[0-9]+$ ]] && [ "$folds" -ge 2 ] || { echo "$prog: -v: expected an integer >= 2, got '$folds'" >&2; usage; }

# The losses each solver supports (see the solver table in README.md or
# `./cdtrain -h`). Pegasos is the L1-SVM solver; CMLS is for the L2-SVM only.
case $solver in
  0|cdper|1|cd|2|cdperone|3|online|6|tron) losses=(l2svm lr) ;;
  4|cmls|5|cmlsper) losses=(l2svm) ;;
  7|pegasos) losses=(l1svm) ;;
  *) echo "$prog: -s: unknown solver '$solver' (see ./cdtrain -h)" >&2; usage ;;
esac

[ -f "$train" ] && [ -r "$train" ] || { echo "$prog: error: $train: no such readable file" >&2; exit 1; }
[ -x "$cdtrain" ] || { echo "$prog: error: $cdtrain is missing; run 'make tools'" >&2; exit 1; }

# ---- the grid ----------------------------------------------------------------
# log2 of C: -5, -3, -1, 1, 3, 5. To search more finely, change the step to 1;
# to search wider, change the ends.
log2c_min=-5 log2c_max=5
log2cs=$(seq "$log2c_min" 2 "$log2c_max")

# The data are parsed once: every run after the first loads cdtrain's binary
# cache, kept in a temporary directory that goes away with the script.
cache_dir=$(mktemp -d)
trap 'rm -rf "$cache_dir"' EXIT

# Results go in an associative array keyed "log2c,loss".
declare -A acc=()
best_acc="" best_c="" best_loss=""

for k in $log2cs; do
  c=$(awk -v k="$k" 'BEGIN { printf "%g", 2 ^ k }')   # 2^-5 = 0.03125, ...
  for loss in "${losses[@]}"; do
    # -q silences the progress lines; the accuracy line is still printed.
    # Keep the output: if cdtrain fails, show why and stop.
    if ! output=$("$cdtrain" -q -v "$folds" -s "$solver" -l "$loss" -c "$c" \
        --cache-file "$cache_dir/train.cdcache" "$train" 2>&1); then
      echo "$prog: error: cdtrain -s $solver -l $loss -c $c failed:" >&2
      echo "$output" >&2
      exit 1
    fi
    # "solver cdper, loss lr, regularizer l2: Cross Validation Accuracy = 84.8148%"
    #   ->  84.8148, the last word without its '%'
    a=$(printf '%s\n' "$output" | sed -n 's/.*Cross Validation Accuracy = \([0-9.]*\)%$/\1/p')
    [ -n "$a" ] || { echo "$prog: error: no accuracy in cdtrain's output:" >&2; echo "$output" >&2; exit 1; }
    acc[$k,$loss]=$a
    echo "C = $c ($loss): $a%" >&2   # progress, on stderr
    # Keep the first best: on ties the smaller C (the simpler model) wins.
    if [ -z "$best_acc" ] || awk -v a="$a" -v b="$best_acc" 'BEGIN { exit !(a > b) }'; then
      best_acc=$a best_c=$c best_loss=$loss best_log2c=$k
    fi
  done
done

# ---- the table -----------------------------------------------------------------
echo "$folds-fold cross validation accuracy (%) of $train, solver $solver"
echo
header="| C | log2 C |" rule="|---|---|"
for loss in "${losses[@]}"; do header+=" $loss |"; rule+="---|"; done
echo "$header"
echo "$rule"
for k in $log2cs; do
  row="| $(awk -v k="$k" 'BEGIN { printf "%g", 2 ^ k }') | $k |"
  for loss in "${losses[@]}"; do
    a=${acc[$k,$loss]}
    # Bold the best accuracy (every cell that ties with it).
    if [ "$a" = "$best_acc" ]; then row+=" **$a** |"; else row+=" $a |"; fi
  done
  echo "$row"
done
echo
echo "Best: C = $best_c, loss $best_loss, CV accuracy $best_acc%"
# The best C at an end of the grid: the optimum may lie beyond it. On ties
# the smaller C wins, so at the small end the accuracy may just be flat.
if [ "$best_log2c" = "$log2c_min" ] || [ "$best_log2c" = "$log2c_max" ]; then
  if [ "$best_log2c" = "$log2c_min" ]; then edge=smallest side=smaller; else edge=largest side=larger; fi
  echo "$prog: warning: the best C, $best_c = 2^$best_log2c, is the $edge C of the grid;" \
    "a $side C may do better: widen the grid (log2c_min, log2c_max in $0) and search again" >&2
fi
# Absolute paths, so that the command works from any directory.
train_abs=$(cd "$(dirname "$train")" && pwd)/$(basename "$train")
printf 'Train it: %q -s %q -l %s -c %s %q\n' "$cdtrain" "$solver" "$best_loss" "$best_c" "$train_abs"
