#!/usr/bin/env bash
# The other papers' experiments are in experiments/NAME.sh and run as
#
#   bash experiments/experiments.sh NAME [their options]
#
# (each script's header says what it reproduces). Without a NAME, this script
# reproduces Section 5 (and Figure 4 of Section 6.1) of Chang, Hsieh & Lin
# (2008), "Coordinate Descent Method for Large-scale L2-loss Linear SVM", on
# the data sets given:
#
#   bash experiments/experiments.sh [-c C] [-o OUTDIR] TRAIN[:TEST] [TRAIN[:TEST] ...]
#
# For each data set it
#   1. computes f*, the objective of the first row of a TRON run with -e 1e-10
#      whose ||grad f|| <= 0.01 (the paper's reference solution);
#   2. runs CDPER, CD, CDPERONE, CMLS, CMLSPER and TRON with --trace at C
#      (-c, default 1) and reads each trace's relative difference
#      (f - f*)/|f*|, equation (31);
#   3. prints Table 2 (seconds to reach a relative difference of 0.01, the
#      fastest boldfaced) and the same runs' times to tighter levels;
#   4. draws Figure 1 (relative difference vs time: CDPER, CD, TRON, CMLS),
#      Figure 2 (||grad f|| vs time, the same solvers) and Figure 4 (relative
#      difference vs time: CD, CDPER, CDPERONE, CMLS, CMLSPER);
#   5. with a TEST file, draws Figure 3 (test accuracy vs time) for CDPER, TRON
#      and CMLS (L2-SVM), Pegasos (L1-SVM) and TRON-LR (logistic regression),
#      each at its best C from `cdtrain -C` (5-fold cross validation);
#   6. compares the results with the paper's findings.
#
# Options:
#   -c C        C for Table 2 and Figures 1, 2 and 4 (default 1, as the paper)
#   -o OUTDIR   where the PNGs, traces and report.md go (default build/experiments;
#               created if missing)
#   -m N        --max-iter of the coordinate descent solvers and CMLS (default 300)
#   -e EPS      -e of every traced run (default 1e-8, so that --max-iter or
#               double precision, not -e, ends the runs)
#   -r R        run each solver of Table 2 R times and keep the run that reaches
#               1% first (default 3; timings of a few milliseconds are noisy)
#   -p C0       start Pegasos's C search at C0 (default 0.03125: from the
#               smallest C, as the other solvers, it is slow); -p none skips
#               the search and uses C = 1
#   -T SECONDS  give up on a C search after SECONDS and use C = 1 (default 120;
#               needs `timeout` from coreutils)
#   -x AXIS     time axis of the figures: log (default; every run in full, the
#               early phase readable) or linear (as the paper; cut at 3 times
#               the slowest solver's time to 1%)
#
# Output: the tables on stdout (also OUTDIR/report.md), OUTDIR/figN_NAME.png
# (gnuplot; without gnuplot, tables only), every run's trace as
# OUTDIR/trace_NAME_SOLVER.tsv. NAME is TRAIN's basename without a .train,
# .svm, .libsvm or .txt suffix. Progress goes to stderr.
#
# Multiclass data sets are trained one-vs-rest; only the first binary problem
# (the first label of the file) is measured, as the paper's sets are binary.
#
# Exit status: 0 on success, 1 for missing files or a failed cdtrain run,
# 2 for usage errors. Needs ./cdtrain (make tools), awk, and gnuplot for the
# figures (apt-get install gnuplot).
set -euo pipefail

prog=$(basename "$0")
root=$(cd "$(dirname "$0")/.." && pwd)
cdtrain=$root/cdtrain

if [ $# -ge 1 ] && [[ $1 =~ ^[a-z0-9_-]+$ ]] && [ -f "$root/experiments/$1.sh" ]; then
  name=$1
  shift
  exec bash "$root/experiments/$name.sh" "$@"
fi

usage() {
  echo "usage: $prog NAME [options]   (NAME: a script in experiments/)"
  echo "       $prog [-c C] [-o OUTDIR] [-m MAXITER] [-e EPS] [-r REPEATS] [-p PEGASOS_C0|none] [-T SECONDS] [-x log|linear] TRAIN[:TEST] [TRAIN[:TEST] ...]"
}
usage_error() { echo "$prog: $1" >&2; usage >&2; exit 2; }
die() { echo "$prog: error: $1" >&2; exit 1; }
note() { echo "[$prog] $*" >&2; }
is_number() { [[ $1 =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$ ]] && awk -v x="$1" 'BEGIN{exit !(x > 0)}'; }
is_count() { [[ $1 =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ]; }

# ---------------------------------------------------------------- arguments
C=1 outdir=build/experiments maxiter=300 eps=1e-8 repeats=3 peg_c0=0.03125 search_limit=120 timeaxis=log
while getopts ":c:o:m:e:r:p:T:x:h" opt; do
  case $opt in
    c) is_number "$OPTARG" || usage_error "-c: expected a positive number, got '$OPTARG'"; C=$OPTARG ;;
    o) [ -n "$OPTARG" ] || usage_error "-o: expected a directory"; outdir=$OPTARG ;;
    m) is_count "$OPTARG" || usage_error "-m: expected a positive integer, got '$OPTARG'"; maxiter=$OPTARG ;;
    e) is_number "$OPTARG" || usage_error "-e: expected a positive number, got '$OPTARG'"; eps=$OPTARG ;;
    r) is_count "$OPTARG" || usage_error "-r: expected a positive integer, got '$OPTARG'"; repeats=$OPTARG ;;
    p) [ "$OPTARG" = none ] || is_number "$OPTARG" || usage_error "-p: expected a positive number or 'none', got '$OPTARG'"
       peg_c0=$OPTARG ;;
    x) [ "$OPTARG" = log ] || [ "$OPTARG" = linear ] || usage_error "-x: expected log or linear, got '$OPTARG'"
       timeaxis=$OPTARG ;;
    T) is_count "$OPTARG" || usage_error "-T: expected a positive integer, got '$OPTARG'"; search_limit=$OPTARG ;;
    h) usage; sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    :) usage_error "-$OPTARG needs an argument" ;;
    *) usage_error "unknown option -$OPTARG" ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage_error "no data set given"

trains=() tests=() names=()
for arg in "$@"; do
  train=${arg%%:*} test=""
  [ "$train" != "$arg" ] && test=${arg#*:}
  [ -n "$train" ] || usage_error "'$arg': empty TRAIN"
  [ "$train" = "$arg" ] || [ -n "$test" ] || usage_error "'$arg': empty TEST after ':'"
  for f in "$train" ${test:+"$test"}; do
    [ -f "$f" ] && [ -r "$f" ] || die "$f: no such readable file"
  done
  name=$(basename "$train")
  for ext in .train .svm .libsvm .txt; do name=${name%"$ext"}; done
  name=$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_')
  base=$name k=2
  while [[ " ${names[*]-} " == *" $name "* ]]; do name=${base}_$k; k=$((k + 1)); done
  trains+=("$train") tests+=("$test") names+=("$name")
done

[ -x "$cdtrain" ] || die "$cdtrain is missing; run 'make tools' in $root"
mkdir -p "$outdir" || die "cannot create $outdir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

have_timeout=0; command -v timeout >/dev/null && have_timeout=1
terminal=""
if command -v gnuplot >/dev/null; then
  if gnuplot -e 'set terminal pngcairo' 2>/dev/null; then terminal="pngcairo size 900,600 enhanced font 'Sans,12'"
  elif gnuplot -e 'set terminal png' 2>/dev/null; then terminal="png size 900,600"
  fi
fi

gradlabel="||grad f(w)||"
[[ $terminal == pngcairo* ]] && gradlabel="‖∇f(w)‖"
declare -A legend_extra=()  # text after a solver's name in the legend (Figure 3: its C)
report=$tmp/report.md
out() { printf '%s\n' "$*" >>"$report"; }

# ---------------------------------------------------------------- helpers
# train TAG ARGS...: runs cdtrain with ARGS, stdout and stderr to $tmp/TAG.out
# and $tmp/TAG.err; on failure shows the error and stops the script.
train() {
  local tag=$1; shift
  if ! "$cdtrain" "$@" >"$tmp/$tag.out" 2>"$tmp/$tag.err"; then
    echo "$prog: error: cdtrain $* failed:" >&2
    tail -n 5 "$tmp/$tag.err" >&2
    exit 1
  fi
}

# rows TRACE: "seconds objective gradient_norm test_accuracy" (tab-separated,
# the accuracy empty without -t) of the trace's first binary problem; the
# traces of multiclass data start with a class column.
rows() {
  awk -F'\t' -v OFS='\t' '
    NR == 1 { off = ($1 == "class"); next }
    off { if (cls == "") cls = $1; if ($1 != cls) exit }
    { print $(2 + off), $(3 + off), $(4 + off), (NF >= 5 + off ? $(5 + off) : "") }' "$1"
}

# dat TRACE FSTAR: "seconds reldiff gradient_norm test_accuracy", reldiff by (31).
dat() {
  rows "$1" | awk -F'\t' -v OFS='\t' -v fs="$2" '
    { a = fs < 0 ? -fs : fs; print $1, ($2 - fs) / a, $3, ($4 == "" ? "NaN" : $4) }'
}

# first_below DAT COLUMN LEVEL: seconds of the first row whose COLUMN <= LEVEL.
first_below() { awk -v c="$2" -v l="$3" '$c + 0 <= l + 0 { print $1; exit }' "$1"; }

# Seconds as the tables show them, or "-" when a level was not reached.
fmt() { if [ -z "$1" ]; then echo "-"; else awk -v t="$1" 'BEGIN{printf "%.3g", t}'; fi; }

# newton ERRFILE: the "full Newton steps X%" of cdtrain's summary, or "n/a".
newton() {
  local p
  p=$(sed -n 's/.*full Newton steps \([0-9.]*\)%.*/\1/p' "$1" | head -n 1)
  echo "${p:-n/a}"
}

# best_c TAG ARGS...: the C of "SOLVER...: Best C = X  CV accuracy = Y%" from
# `cdtrain -C -q ARGS`, printed as "X Y"; nothing if the search failed or
# ran out of time.
best_c() {
  local tag=$1; shift
  local cmd=("$cdtrain" -C -q "$@")
  [ $have_timeout = 1 ] && cmd=(timeout "$search_limit" "${cmd[@]}")
  "${cmd[@]}" >"$tmp/$tag.out" 2>"$tmp/$tag.err" || true
  sed -n 's/^.*Best C = \([^ ]*\)  CV accuracy = \([^%]*\)%.*/\1 \2/p' "$tmp/$tag.out" | tail -n 1
}

label_of() {
  case $1 in
    cdper) echo CDPER ;; cd) echo CD ;; cdperone) echo CDPERONE ;; cmls) echo CMLS ;;
    cmlsper) echo CMLSPER ;; tron) echo TRON ;; pegasos) echo Pegasos ;; tronlr) echo TRON-LR ;;
  esac
}
# One look per solver in every figure: colour, dash type, point type.
style_of() {
  case $1 in
    cdper) echo 'lc rgb "#d62728" dt 1 pt 7' ;;
    cd) echo 'lc rgb "#1f77b4" dt 2 pt 5' ;;
    cdperone) echo 'lc rgb "#ff7f0e" dt (10,4,2,4) pt 9' ;;
    cmls) echo 'lc rgb "#9467bd" dt 4 pt 11' ;;
    cmlsper) echo 'lc rgb "#8c564b" dt (8,3) pt 13' ;;
    tron) echo 'lc rgb "#2ca02c" dt 5 pt 3' ;;
    pegasos) echo 'lc rgb "#7f7f7f" dt 1 pt 1' ;;
    tronlr) echo 'lc rgb "#17becf" dt (12,4) pt 2' ;;
  esac
}

# plot PNG TITLE YLABEL COLUMN LOG XMAX DIR SOLVER...: one line per solver
# from DIR/SOLVER.dat, y = COLUMN against time; LOG=1 for a log y axis (and a
# dotted line at 0.01 when COLUMN is the relative difference).
plot() {
  local png=$1 title=$2 ylabel=$3 col=$4 log=$5 xmax=$6 dir=$7; shift 7
  local gp=$tmp/plot.gp s n pi sep="" xmin
  {
    echo "set terminal $terminal"
    echo "set output '$png'"
    echo "set title \"$title\" noenhanced"
    echo "set xlabel 'training time (seconds)'"
    echo "set ylabel \"$ylabel\""
    echo "set grid"
    if [ "$col" = 4 ]; then
      echo "set key inside right bottom box opaque"  # accuracy curves end high
    else
      echo "set key outside right top box opaque width 1"
    fi
    if [ "$timeaxis" = log ]; then
      # The whole of every run; a log axis keeps the fast early phase readable.
      read -r xmin xmax < <(for s in "$@"; do head -n 1 "$dir/$s.dat" | cut -f1; tail -n 1 "$dir/$s.dat" | cut -f1; done |
        awk 'NR == 1 || $1 < lo { lo = $1 } $1 > hi { hi = $1 } END { if (lo <= 0) lo = 1e-6; printf "%.6g %.6g\n", lo / 1.3, hi * 1.3 }')
      echo "set logscale x 10"
      echo "set format x '%g'"
      echo "set xlabel 'training time (seconds, log scale)'"
      echo "set xrange [$xmin:$xmax]"
    else
      echo "set xrange [0:$xmax]"
    fi
    echo "set bmargin 4"
    if [ "$log" = 1 ]; then
      echo "set logscale y 10"
      if [[ $terminal == pngcairo* ]]; then echo "set format y '10^{%L}'"; else echo "set format y '1e%L'"; fi
    fi
    printf 'plot '
    for s in "$@"; do
      n=$(awk -v x="$xmax" '$1 <= x' "$dir/$s.dat" | wc -l)
      pi=$(( n / 12 > 1 ? n / 12 : 1 ))
      printf '%s"%s" using 1:((showable($%s)) ? $%s : NaN) with linespoints lw 2 ps 1.2 pi %d %s title "%s%s"' \
        "$sep" "$dir/$s.dat" "$col" "$col" "$pi" "$(style_of "$s")" "$(label_of "$s")" "${legend_extra[$s]-}"
      sep=", \\"$'\n     '
    done
    if [ "$log" = 1 ] && [ "$col" = 2 ]; then
      printf '%s0.01 with lines lw 2 dt (2,5) lc rgb "black" title "0.01"' "$sep"
    fi
    echo
  } >"$gp"
  # showable(): a value a log axis can show (or any number on a linear axis).
  if ! gnuplot -e "showable(y) = ($log == 1) ? (y > 0) : (y == y)" "$gp" 2>"$tmp/gnuplot.err"; then
    cat "$tmp/gnuplot.err" >&2
    die "gnuplot failed on $gp"
  fi
}

# xwindow DIR SOLVER...: the time axis to show: up to 3 times the latest
# time to 1% (where the curves have separated and flattened), but no
# longer than the longest run.
xwindow() {
  local dir=$1; shift
  local s t1 tmax=0 tend=0
  for s in "$@"; do
    t1=$(first_below "$dir/$s.dat" 2 0.01)
    [ -n "$t1" ] && tmax=$(awk -v a="$tmax" -v b="$t1" 'BEGIN{print (b > a ? b : a)}')
    tend=$(awk -v a="$tend" -v b="$(tail -n 1 "$dir/$s.dat" | cut -f1)" 'BEGIN{print (b > a ? b : a)}')
  done
  awk -v a="$tmax" -v e="$tend" 'BEGIN{x = (a > 0 ? 3 * a : e); if (x > e) x = e; printf "%.6g", x}'
}

# ---------------------------------------------------------------- the runs
out "# cdlinear: Section 5 of Chang, Hsieh & Lin (2008)"
out ""
out "C = $C; coordinate descent and CMLS: -e $eps --max-iter $maxiter; TRON: -e $eps;"
out "f* from \`cdtrain -s tron -e 1e-10\` at the first ||grad f|| <= 0.01. For the tables of Figures 1, 2 and 4, each solver ran $repeats time(s) and the run first to reach 1% is shown."
[ -n "$terminal" ] || out "gnuplot is not installed (apt-get install gnuplot): tables only, no figures."
out ""

table2=$tmp/table2.md grad=$tmp/grad.md fig4=$tmp/fig4.md fig3=$tmp/fig3.md summary=$tmp/summary.md
: >"$table2" ; : >"$grad" ; : >"$fig4" ; : >"$fig3" ; : >"$summary"
fstar_notes=()
solvers=(cdper cd cdperone cmls cmlsper tron)

for idx in "${!trains[@]}"; do
  train=${trains[$idx]} test=${tests[$idx]} name=${names[$idx]}
  dir=$tmp/$name
  mkdir -p "$dir/f3"
  testopt=()
  [ -n "$test" ] && testopt=(-t "$test")

  # f*: TRON to -e 1e-10; the first row with ||grad f|| <= 0.01, as the paper.
  note "$name: f* (TRON, -e 1e-10)"
  train "$name.ref" -q -s tron -c "$C" -e 1e-10 --trace "$dir/ref.tsv" "$train" "$tmp/model"
  cp "$dir/ref.tsv" "$outdir/trace_${name}_reference.tsv"
  read -r fstar fstar_ok < <(rows "$dir/ref.tsv" | awk -F'\t' '
    $3 <= 0.01 { print $2, 1; found = 1; exit } { last = $2 } END { if (!found) print last, 0 }')
  if head -n 1 "$dir/ref.tsv" | grep -q '^class'; then
    note "$name: multiclass; measuring the first one-vs-rest problem only"
    fstar_notes+=("$name is multiclass: every number is for its first one-vs-rest problem.")
  fi
  if [ "$fstar_ok" != 1 ]; then
    fstar_notes+=("$name: TRON never reached ||grad f|| <= 0.01; f* is its last objective, $fstar.")
  fi
  awk -v f="$fstar" 'BEGIN{exit !(f == 0)}' && die "$name: f* is 0; the relative difference (31) is undefined"

  # The traced runs, each solver $repeats times; the run that reaches 1% first is kept.
  for s in "${solvers[@]}"; do
    note "$name: $(label_of "$s") x $repeats"
    best="" bestt=""
    for r in $(seq "$repeats"); do
      if [ "$s" = tron ]; then
        train "$name.$s.$r" -s tron -c "$C" -e "$eps" --trace "$dir/$s.$r.tsv" ${testopt[@]+"${testopt[@]}"} "$train" "$tmp/model"
      else
        train "$name.$s.$r" -s "$s" -c "$C" -e "$eps" --max-iter "$maxiter" --trace "$dir/$s.$r.tsv" \
          ${testopt[@]+"${testopt[@]}"} "$train" "$tmp/model"
      fi
      dat "$dir/$s.$r.tsv" "$fstar" >"$dir/$s.$r.dat"
      t=$(first_below "$dir/$s.$r.dat" 2 0.01)
      if [ -z "$best" ] || { [ -n "$t" ] && { [ -z "$bestt" ] || awk -v a="$t" -v b="$bestt" 'BEGIN{exit !(a < b)}'; }; }; then
        best=$r bestt=$t
      fi
    done
    cp "$dir/$s.$best.dat" "$dir/$s.dat"
    cp "$dir/$s.$best.tsv" "$outdir/trace_${name}_$s.tsv"
    cp "$tmp/$name.$s.$best.err" "$dir/$s.err"
  done

  # Table 2: seconds to a relative difference of 0.01; the fastest in bold.
  t2=()
  for s in cdper cd tron cmls; do t2+=("$(first_below "$dir/$s.dat" 2 0.01)"); done
  min=$(printf '%s\n' "${t2[@]}" | awk 'NF && (m == "" || $1 + 0 < m + 0) { m = $1 } END { print m }')
  line="| $name"
  for t in "${t2[@]}"; do
    if [ -n "$t" ] && [ "$(fmt "$t")" = "$(fmt "$min")" ]; then line+=" | **$(fmt "$t")**"; else line+=" | $(fmt "$t")"; fi
  done
  echo "$line | $(printf '%.10g' "$fstar") |" >>"$table2"

  # Figure 2 in numbers: seconds to ||grad f|| <= 1e-1 ... 1e-5, smallest ||grad f||.
  for s in cdper cd tron cmls; do
    line="| $name | $(label_of "$s")"
    for g in 1e-1 1e-2 1e-3 1e-4 1e-5; do line+=" | $(fmt "$(first_below "$dir/$s.dat" 3 "$g")")"; done
    line+=$(awk -F'\t' 'NR == 1 || $3 + 0 < m + 0 { m = $3; t = $1 } END { printf " | %.3g at %.3g s |", m, t }' "$dir/$s.dat")
    echo "$line $(newton "$dir/$s.err") |" >>"$grad"
  done

  # Figure 4 in numbers: seconds to relative differences 1e-2, 1e-4, 1e-6.
  for s in cd cdper cdperone cmls cmlsper; do
    line="| $name | $(label_of "$s")"
    for l in 1e-2 1e-4 1e-6; do line+=" | $(fmt "$(first_below "$dir/$s.dat" 2 "$l")")"; done
    line+=$(awk -F'\t' 'END { printf " | %d | %.3g |", NR, $1 }' "$dir/$s.dat")
    echo "$line" >>"$fig4"
  done

  # Figures 1, 2 and 4.
  if [ -n "$terminal" ]; then
    x=$(xwindow "$dir" cdper cd tron cmls)
    plot "$outdir/fig1_$name.png" "Figure 1: $name, C = $C - relative difference to f* vs time" \
      "(f - f*) / |f*|   (log scale)" 2 1 "$x" "$dir" cdper cd tron cmls
    plot "$outdir/fig2_$name.png" "Figure 2: $name, C = $C - gradient norm vs time" \
      "$gradlabel   (log scale)" 3 1 "$x" "$dir" cdper cd tron cmls
    x=$(xwindow "$dir" cd cdper cdperone cmls cmlsper)
    plot "$outdir/fig4_$name.png" "Figure 4: $name, C = $C - order of the sub-problems" \
      "(f - f*) / |f*|   (log scale)" 2 1 "$x" "$dir" cd cdper cdperone cmls cmlsper
  fi

  # Figure 3: test accuracy against time, each solver at its best C.
  if [ -n "$test" ]; then
    for spec in "cdper:-s cdper" "tron:-s tron" "cmls:-s cmls" "tronlr:-s tron -l lr" "pegasos:-s pegasos"; do
      s=${spec%%:*}
      read -r -a args <<<"${spec#*:}"
      cnote=""
      if [ "$s" = pegasos ] && [ "$peg_c0" = none ]; then
        bc=1 cv="" cnote="C = 1 (search skipped with -p none)"
      else
        note "$name: best C of $(label_of "$s") (cdtrain -C)"
        start=()
        [ "$s" = pegasos ] && start=(-c "$peg_c0")
        read -r bc cv < <(best_c "$name.C.$s" "${args[@]}" ${start[@]+"${start[@]}"} "$train"; echo) || true
        if [ -z "${bc:-}" ]; then
          bc=1 cv="" cnote="C = 1: the search failed or took over ${search_limit}s"
        fi
      fi
      legend_extra[$s]=" (C = $bc)"
      note "$name: $(label_of "$s") at C = $bc with -t"
      if [ "$s" = pegasos ]; then
        train "$name.f3.$s" "${args[@]}" -c "$bc" --trace "$dir/f3.$s.tsv" -t "$test" "$train" "$tmp/model"
      elif [ "$s" = tron ] || [ "$s" = tronlr ]; then
        train "$name.f3.$s" "${args[@]}" -c "$bc" -e "$eps" --trace "$dir/f3.$s.tsv" -t "$test" "$train" "$tmp/model"
      else
        train "$name.f3.$s" "${args[@]}" -c "$bc" -e "$eps" --max-iter "$maxiter" --trace "$dir/f3.$s.tsv" \
          -t "$test" "$train" "$tmp/model"
      fi
      cp "$dir/f3.$s.tsv" "$outdir/trace_${name}_fig3_$s.tsv"
      dat "$dir/f3.$s.tsv" "$fstar" >"$dir/f3/$s.dat"
      awk -F'\t' -v n="$name" -v l="$(label_of "$s")" -v c="$bc" -v cv="${cv:-}" -v note="$cnote" '
        { a[NR] = $4; t[NR] = $1 }
        END { fin = a[NR]; hit = "-"
              for (i = 1; i <= NR; i++) if (a[i] >= fin - 0.5) { hit = sprintf("%.3g", t[i]); break }
              printf "| %s | %s | %s | %s | %.2f | %s | %.3g |%s\n", n, l, c, (cv == "" ? "-" : cv "%"), fin, hit, t[NR],
                     (note == "" ? "" : " " note) }' "$dir/f3/$s.dat" >>"$fig3"
    done
    if [ -n "$terminal" ]; then
      # Up to where every curve is within 0.5 points of its final accuracy, times 3.
      x=$(for s in cdper tron cmls tronlr pegasos; do
            awk -F'\t' '{ a[NR] = $4; t[NR] = $1 } END { for (i = 1; i <= NR; i++) if (a[i] >= a[NR] - 0.5) { print t[i], t[NR]; exit } }' "$dir/f3/$s.dat"
          done | awk '{ if ($1 > m) m = $1; if ($2 > e) e = $2 } END { x = 3 * m; if (x > e || x <= 0) x = e; printf "%.6g", x }')
      plot "$outdir/fig3_$name.png" "Figure 3: $name - test accuracy vs time, each solver at its best C" \
        "test accuracy (%)" 4 0 "$x" "$dir/f3" cdper tron cmls pegasos tronlr
      legend_extra=()
    fi
  fi

  # The paper's findings, checked on this data set.
  {
    read -r tcdper tcd ttron tcmls <<<"$(for s in cdper cd tron cmls; do v=$(first_below "$dir/$s.dat" 2 0.01); echo -n "${v:-inf} "; done)"
    verdict=$(awk -v p="$tcdper" -v d="$tcd" -v t="$ttron" -v m="$tcmls" 'BEGIN {
      if (p == "inf") { print "CDPER never reached 1%"; exit }
      w = "CDPER"; b = p + 0
      if (d != "inf" && d + 0 < b) { w = "CD"; b = d + 0 }
      if (t != "inf" && t + 0 < b) { w = "TRON"; b = t + 0 }
      if (m != "inf" && m + 0 < b) { w = "CMLS"; b = m + 0 }
      lost = (t != "inf" && t + 0 < p + 0 ? "TRON" : "")
      if (m != "inf" && m + 0 < p + 0) lost = lost (lost == "" ? "" : " and ") "CMLS"
      printf "%s fastest to 1%% (seconds: CDPER %s, CD %s, TRON %s, CMLS %s); CDPER %s",
             w, f(p), f(d), f(t), f(m), lost == "" ? "reached 1% before TRON and CMLS" : "reached 1% AFTER " lost }
      function f(x) { return x == "inf" ? "not reached" : sprintf("%.3g", x) }')
    echo "- **$name** (paper: CDPER fastest on 5 of 6 sets): $verdict."
    echo "  Full Newton steps (paper: CDPER 99.997% on rcv1): CD $(newton "$dir/cd.err")%, CDPER $(newton "$dir/cdper.err")%, CDPERONE $(newton "$dir/cdperone.err")% of inner iterations."
    final=$(for s in tron cdper cd cmls; do
              awk -F'\t' -v l="$(label_of "$s")" 'NR == 1 || $3 + 0 < m + 0 { m = $3; t = $1 } END { printf "%s %.3g at %.3g s; ", l, m, t }' "$dir/$s.dat"
            done)
    tl=$(first_below "$dir/tron.dat" 3 1e-4) pl=$(first_below "$dir/cdper.dat" 3 1e-4)
    echo "  Final convergence of ||grad f|| (paper: TRON best at the end): smallest ||grad f|| ${final%; }. To ||grad f|| <= 1e-4: TRON $(fmt "$tl") s, CDPER $(fmt "$pl") s."
    read -r t4cd t4per t4one < <(for s in cd cdper cdperone; do v=$(first_below "$dir/$s.dat" 2 1e-4); echo -n "$(fmt "$v") "; done; echo)
    read -r t4m t4mp < <(for s in cmls cmlsper; do v=$(first_below "$dir/$s.dat" 2 1e-4); echo -n "$(fmt "$v") "; done; echo)
    echo "  Figure 4 (paper: CDPER beats CDPERONE and CD; CMLSPER about CMLS): to relative difference 1e-4, CD $t4cd s, CDPER $t4per s, CDPERONE $t4one s, CMLS $t4m s, CMLSPER $t4mp s."
  } >>"$summary"
done

# ---------------------------------------------------------------- the report
out "## Table 2: seconds to (f - f*)/|f*| <= 0.01, C = $C"
out ""
out "| data set | CDPER | CD | TRON | CMLS | f* |"
out "|---|---|---|---|---|---|"
cat "$table2" >>"$report"
out ""
out "\"-\": not reached within the run. Seconds are cdtrain's training time (trace column 2)."
for n in "${fstar_notes[@]+"${fstar_notes[@]}"}"; do out "Note: $n"; done
out ""
out "## Figure 2 in numbers: seconds to ||grad f|| <= level"
out ""
out "| data set | solver | 1e-1 | 1e-2 | 1e-3 | 1e-4 | 1e-5 | smallest ||grad f|| | full Newton steps % |"
out "|---|---|---|---|---|---|---|---|---|"
cat "$grad" >>"$report"
out ""
out "## Figure 4 in numbers: seconds to (f - f*)/|f*| <= level"
out ""
out "| data set | solver | 1e-2 | 1e-4 | 1e-6 | outer iterations | last s |"
out "|---|---|---|---|---|---|---|"
cat "$fig4" >>"$report"
if [ -s "$fig3" ]; then
  out ""
  out "## Figure 3 in numbers: test accuracy, each solver at its best C (5-fold CV by \`cdtrain -C\`)"
  out ""
  out "| data set | solver | C | CV accuracy | final test accuracy % | s to within 0.5 points of it | last s |"
  out "|---|---|---|---|---|---|---|"
  cat "$fig3" >>"$report"
fi
out ""
out "## Compared with the paper"
out ""
cat "$summary" >>"$report"
out ""
if [ -n "$terminal" ]; then
  out "Figures: $(cd "$outdir" && ls fig*_*.png | tr '\n' ' ')in $outdir"
else
  out "Figures: none (gnuplot is not installed)."
fi

cp "$report" "$outdir/report.md"
cat "$report"
