#!/usr/bin/env bash
# Benchmarks cdlinear against Debian's LIBLINEAR (liblinear-tools 2.3.0) on the
# same files in the same run, and prints Markdown tables for the README.
#
#   bash tools/bench.sh              all sections (run by `make bench`)
#   bash tools/bench.sh small        the data/ sets only (about a minute)
#   bash tools/bench.sh large        the 500 MB rcv1-like file only
#   bash tools/bench.sh solvers      TRON and CD for logistic regression against
#                                    LIBLINEAR's -s 2 and -s 0 (a few minutes)
#   bash tools/bench.sh robust       malformed files and extreme C against
#                                    LIBLINEAR (a few seconds)
#   bash tools/bench.sh reading      reading (one core, two threads, a pipe, the
#                                    cache) and peak memory against LIBLINEAR on
#                                    the wide and rcv1-like files (a few minutes;
#                                    CDL_BENCH_HUGE=1 adds a 200M-nonzero file)
#
# Needs liblinear-train/-predict (apt-get install liblinear-tools), GNU time
# (apt-get install time) and the tools built by `make tools`. The large file
# is made by build/gen_rcv1like (seed 1) into build/bench/ on first use; set
# CDL_BENCH_DIR to put it elsewhere. Nothing is downloaded.
set -euo pipefail
cd "$(dirname "$0")/.."

section=${1:-all}
bench_dir=${CDL_BENCH_DIR:-build/bench}
mkdir -p "$bench_dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for tool in liblinear-train liblinear-predict /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (see the header of $0)" >&2; exit 1; }
done
for tool in ./cdtrain ./cdpredict build/bench_cd build/gen_rcv1like; do
  [ -x "$tool" ] || { echo "bench: $tool is missing; run 'make tools'" >&2; exit 1; }
done

# Prints "seconds max_rss_kb" of a command, the run with the least time of $runs.
measure() {
  local runs=$1; shift
  local best=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err"
    read -r t m <"$tmp/time"
    if [ -z "$best" ] || awk -v a="$t" -v b="${best%% *}" 'BEGIN{exit !(a<b)}'; then best="$t $m"; fi
  done
  echo "$best"
}

accuracy() {  # test_file model -> accuracy in percent, as liblinear-predict reports it
  liblinear-predict "$1" "$2" "$tmp/pred" | sed 's/Accuracy = \([0-9.]*\)%.*/\1/'
}

small() {
  echo "### data/ sets, C = 1, L2-SVM (best of 3 runs)"
  echo
  echo "f* is the objective of \`liblinear-train -s 2 -e 0.0001\`; every f is scored by one formula (\`bench_cd objective\`)."
  echo
  echo "| data | tool | f | (f - f*)/f* | test accuracy % | seconds | max RSS MB | same predictions from liblinear-predict |"
  echo "|---|---|---|---|---|---|---|---|"
  for pair in heart_scale:heart_scale a9a:a9a.t rcv1_small:rcv1_small.t w8a:w8a \
              svmlight_example1.train:svmlight_example1.test; do
    train=data/${pair%%:*}; test=data/${pair##*:}
    liblinear-train -q -s 2 -e 0.0001 "$train" "$tmp/opt.model" >/dev/null
    fstar=$(build/bench_cd objective "$train" "$tmp/opt.model")
    read -r lt lm <<<"$(measure 3 liblinear-train -q -s 2 "$train" "$tmp/ll.model")"
    read -r ct cm <<<"$(measure 3 ./cdtrain -q "$train" "$tmp/cd.model")"
    for who in ll cd; do
      f=$(build/bench_cd objective "$train" "$tmp/$who.model")
      acc=$(accuracy "$test" "$tmp/$who.model")
      ./cdpredict -q "$test" "$tmp/$who.model" "$tmp/ours.pred"
      liblinear-predict -q "$test" "$tmp/$who.model" "$tmp/theirs.pred" >/dev/null
      same=$(cmp -s "$tmp/ours.pred" "$tmp/theirs.pred" && echo yes || echo NO)
      if [ $who = ll ]; then name="liblinear-train -s 2"; t=$lt; m=$lm; else name="cdtrain (CDPER)"; t=$ct; m=$cm; fi
      awk -v d="${pair%%:*}" -v n="$name" -v f="$f" -v fs="$fstar" -v a="$acc" -v t="$t" -v m="$m" -v s="$same" \
        'BEGIN{printf "| %s | %s | %.6g | %.2e | %s | %.2f | %.1f | %s |\n", d, n, f, (f-fs)/fs, a, t, m/1024, s}'
    done
  done
  echo
}

large() {
  local file=$bench_dir/rcv1like_500mb.svm
  if [ ! -f "$file" ]; then
    build/gen_rcv1like --seed 1 --target-mb 500 "$file"
  fi
  local bytes rows
  bytes=$(stat -c %s "$file")
  echo "### rcv1-like file: $(basename "$file"), $((bytes / 1000000)) MB, made by \`build/gen_rcv1like --seed 1 --target-mb 500\`"
  echo
  echo "Reading. LIBLINEAR's reading is a run with \`-e 1000\`, which stops before its first iteration;"
  echo "so does ours. Best of 5 runs. The last row is our reader alone, in-process (\`bench_cd read\`)."
  echo
  echo "| command | seconds | max RSS MB |"
  echo "|---|---|---|"
  read -r lt lm <<<"$(measure 5 liblinear-train -q -s 2 -e 1000 "$file" "$tmp/ll.model")"
  read -r ct cm <<<"$(measure 5 ./cdtrain -q -e 1000 "$file" "$tmp/cd.model")"
  local rt=""
  for _ in 1 2 3 4 5; do
    t=$(build/bench_cd read "$file" | awk '/read CSC/{print $5}')
    if [ -z "$rt" ] || awk -v a="$t" -v b="$rt" 'BEGIN{exit !(a<b)}'; then rt=$t; fi
  done
  awk -v t="$lt" -v m="$lm" 'BEGIN{printf "| liblinear-train -s 2 -e 1000 | %.2f | %.0f |\n", t, m/1024}'
  awk -v t="$ct" -v m="$cm" -v l="$lt" 'BEGIN{printf "| cdtrain -e 1000 | %.2f (%.1fx faster) | %.0f |\n", t, l/t, m/1024}'
  awk -v t="$rt" -v l="$lt" 'BEGIN{printf "| read_libsvm_csc alone | %.2f (%.1fx faster) | |\n", t, l/t}'
  echo
  echo "Training with default settings (one run each): time, peak memory and objective."
  echo
  echo "| command | seconds | max RSS MB | f |"
  echo "|---|---|---|---|"
  read -r lt lm <<<"$(measure 1 liblinear-train -q -s 2 "$file" "$tmp/ll.model")"
  read -r ct cm <<<"$(measure 1 ./cdtrain -q "$file" "$tmp/cd.model")"
  for who in ll cd; do
    f=$(build/bench_cd objective "$file" "$tmp/$who.model")
    if [ $who = ll ]; then name="liblinear-train -s 2"; t=$lt; m=$lm; else name="cdtrain (CDPER)"; t=$ct; m=$cm; fi
    awk -v n="$name" -v t="$t" -v m="$m" -v f="$f" 'BEGIN{printf "| %s | %.2f | %.0f | %.6g |\n", n, t, m/1024, f}'
  done
  echo
  echo "One CDPER outer iteration against the bare sweep (median of 7 iterations):"
  echo
  echo '```'
  build/bench_cd sweep "$file" 7
  echo '```'
}

# Prints the reported training seconds and outer iterations from cdtrain's
# summary in $tmp/err: "name: N outer iterations, f ..., |g| ..., S s, ...".
train_stats() {
  sed -n 's/^[a-z]*: \([0-9]*\) outer iterations, .*, \([0-9.]*\)s, .*/\2 \1/p' "$tmp/err" | tail -1
}

solvers() {
  local big=$bench_dir/rcv1like_100mb.svm
  [ -f "$big" ] || build/gen_rcv1like --seed 1 --target-mb 100 "$big"
  echo "### TRON against \`liblinear-train -s 2\` (L2-SVM, C = 1, default eps, best of 3 runs)"
  echo
  echo "LIBLINEAR reports no timings, so its training time is its whole run minus a run with"
  echo "\`-e 1000\` (reading and setup). Ours is the time cdtrain reports for the solver alone;"
  echo "whole runs are given too. Both stop at ‖∇f‖ ≤ 0.01 · max(min(#pos, #neg), 1)/l · ‖∇f(0)‖."
  echo
  echo "| data | tool | whole run s | training s | iterations | s / iteration | f |"
  echo "|---|---|---|---|---|---|---|"
  for train in data/a9a data/w8a "$big"; do
    local name; name=$(basename "$train")
    read -r lr _ <<<"$(measure 3 liblinear-train -q -s 2 -e 1000 "$train" "$tmp/ll.model")"
    read -r lt _ <<<"$(measure 3 liblinear-train -s 2 "$train" "$tmp/ll.model")"
    local li; li=$(grep -c '^iter' "$tmp/out")
    read -r ct _ <<<"$(measure 3 ./cdtrain -s 6 "$train" "$tmp/cd.model")"
    read -r cs ci <<<"$(train_stats)"
    local lf cf
    lf=$(build/bench_cd objective "$train" "$tmp/ll.model")
    cf=$(build/bench_cd objective "$train" "$tmp/cd.model")
    awk -v d="$name" -v t="$lt" -v r="$lr" -v i="$li" -v f="$lf" \
      'BEGIN{x=t-r; if (x<0) x=0; printf "| %s | liblinear-train -s 2 | %.2f | %.3f | %d | %.4f | %.6g |\n", d, t, x, i, x/i, f}'
    awk -v d="$name" -v t="$ct" -v s="$cs" -v i="$ci" -v f="$cf" \
      'BEGIN{printf "| %s | cdtrain -s tron | %.2f | %.3f | %d | %.4f | %.6g |\n", d, t, s, i, s/i, f}'
  done
  echo
  echo "### CD for logistic regression against \`liblinear-train -s 0\` (TRON-LR): time to within 1% of f*"
  echo
  echo "f* is the objective of \`liblinear-train -s 0 -e 0.0001\`. Each tool runs with -e 0.1, 0.03,"
  echo "0.01, ... until its model's f is within 1% of f*; the table gives that run's training time"
  echo "(LIBLINEAR: whole run minus the \`-e 1000\` run) and eps."
  echo
  echo "| data | tool | eps reached | training s | (f - f*)/f* |"
  echo "|---|---|---|---|---|"
  for train in data/a9a data/w8a data/rcv1_small "$big"; do
    local name; name=$(basename "$train")
    liblinear-train -q -s 0 -e 0.0001 "$train" "$tmp/opt.model" >/dev/null
    local fstar; fstar=$(build/bench_cd objective "$train" "$tmp/opt.model")
    read -r lr _ <<<"$(measure 3 liblinear-train -q -s 0 -e 1000 "$train" "$tmp/ll.model")"
    for tool in ll cd; do
      for e in 0.1 0.03 0.01 0.003 0.001 0.0003 0.0001; do
        local t
        if [ $tool = ll ]; then
          read -r t _ <<<"$(measure 1 liblinear-train -q -s 0 -e $e "$train" "$tmp/m.model")"
          t=$(awk -v t="$t" -v r="$lr" 'BEGIN{x=t-r; if (x<0) x=0; print x}')
        else
          measure 1 ./cdtrain -s 0 -l lr -e $e "$train" "$tmp/m.model" >/dev/null
          read -r t _ <<<"$(train_stats)"
        fi
        local f; f=$(build/bench_cd objective "$train" "$tmp/m.model")
        if awk -v f="$f" -v s="$fstar" 'BEGIN{exit !((f-s)/s <= 0.01)}'; then
          local who="liblinear-train -s 0"; [ $tool = cd ] && who="cdtrain -s cdper -l lr"
          awk -v d="$name" -v w="$who" -v e=$e -v t="$t" -v f="$f" -v s="$fstar" \
            'BEGIN{printf "| %s | %s | %s | %.3f | %.2e |\n", d, w, e, t, (f-s)/s}'
          break
        fi
      done
    done
  done
  echo
}

# hyperfine's mean and standard deviation of each command, "mean stddev",
# one line per command, in order.
hyperfine_means() {
  local runs=$1; shift
  hyperfine -N --style none --warmup 1 --runs "$runs" --export-csv "$tmp/hf.csv" "$@" >/dev/null 2>&1
  awk -F, 'NR > 1 {print $2, $3}' "$tmp/hf.csv"
}

# Reading against `liblinear-train -e 1000` (which stops before its first
# iteration, so it times LIBLINEAR's reading) on the wide and rcv1-like files,
# with hyperfine in one run: one core (taskset), two threads, a pipe, and a
# run loading --cache. Peak memory of a plain training run (defaults) of
# both tools. CDL_BENCH_HUGE=1 adds the 200M-nonzero file (3.2 GB, made on
# demand; LIBLINEAR takes about 40 s to read it).
reading() {
  command -v hyperfine >/dev/null || { echo "bench: hyperfine is missing (apt-get install hyperfine)" >&2; exit 1; }
  local wide=$bench_dir/wide_50k_350k.svm rcv1=$bench_dir/rcv1like_500mb.svm huge=$bench_dir/nnz200m.svm
  [ -f "$wide" ] || build/gen_rcv1like --seed 1 --rows 50000 --features 350000 --avg-terms 93 "$wide"
  [ -f "$rcv1" ] || build/gen_rcv1like --seed 1 --target-mb 500 "$rcv1"
  local files=("$wide" "$rcv1")
  if [ "${CDL_BENCH_HUGE:-0}" = 1 ]; then
    [ -f "$huge" ] || build/gen_rcv1like --seed 1 --rows 2700000 --features 200000 --avg-terms 74 "$huge"
    files+=("$huge")
  fi
  echo "### Reading (\`bash tools/bench.sh reading\`)"
  echo
  echo "Whole runs of \`-e 1000\` (both tools stop before their first iteration), mean ± sd of"
  echo "hyperfine runs in one session; ratios are LIBLINEAR's mean over ours. \`taskset -c 0\` pins a"
  echo 'run to one core. "pipe" is `cat FILE | cdtrain - m` (cat included). "cache" loads'
  echo "\`--cache-file\`, built by an earlier run. Max RSS is of a plain training run (defaults) of each"
  echo "tool, \`liblinear-train\` being \`-s 1\`."
  echo
  echo "| file | nonzeros | liblinear-train -e 1000 | cdtrain, 1 core | cdtrain, 2 threads | pipe, 2 threads | cache | max RSS MB: cdtrain / liblinear-train |"
  echo "|---|---|---|---|---|---|---|---|"
  local f
  for f in "${files[@]}"; do
    local runs=5
    [ "$(stat -c %s "$f")" -gt 1000000000 ] && runs=2
    rm -f "$tmp/c.cdcache"
    ./cdtrain -q -e 1000 --cache-file "$tmp/c.cdcache" "$f" "$tmp/m" >/dev/null 2>&1
    local nnz
    nnz=$(tr -cd ':' <"$f" | wc -c)
    mapfile -t r < <(hyperfine_means "$runs" \
      "liblinear-train -q -s 2 -e 1000 $f $tmp/ll.model" \
      "taskset -c 0 ./cdtrain -q -e 1000 $f $tmp/m" \
      "./cdtrain -q -e 1000 $f $tmp/m" \
      "bash -c 'cat $f | ./cdtrain -q -e 1000 - $tmp/m'" \
      "./cdtrain -q -e 1000 --cache-file $tmp/c.cdcache $f $tmp/m")
    local cm lm
    read -r _ cm <<<"$(measure 1 ./cdtrain -q "$f" "$tmp/m")"
    read -r _ lm <<<"$(measure 1 liblinear-train -q "$f" "$tmp/ll.model")"
    awk -v name="$(basename "$f")" -v nnz="$nnz" -v l="${r[0]}" -v one="${r[1]}" -v two="${r[2]}" \
        -v pipe="${r[3]}" -v cache="${r[4]}" -v cm="$cm" -v lm="$lm" '
      function cell(s, base,   a) { split(s, a, " "); return sprintf("%.3f ± %.3f s (%.1fx)", a[1], a[2], base / a[1]) }
      BEGIN {
        split(l, L, " ")
        printf "| %s | %.1fM | %.2f ± %.2f s | %s | %s | %s | %s | %.0f / %.0f (%.2fx) |\n", name, nnz / 1e6,
          L[1], L[2], cell(one, L[1]), cell(two, L[1]), cell(pipe, L[1]), cell(cache, L[1]), cm / 1024, lm / 1024, cm / lm
      }'
  done
  echo
}

echo "Machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo); LIBLINEAR $(dpkg-query -W -f '${Version}' liblinear-tools 2>/dev/null || echo '?')"
echo
# Malformed training files: does each tool refuse the file (exit status and
# whether a model appears), and the iterations and objective at extreme C.
robust() {
  echo "### Malformed training files (\`bash tools/bench.sh robust\`)"
  echo
  echo "| file | liblinear-train -s 2 | cdtrain |"
  echo "|---|---|---|"
  local cases=(
    '' '# c\n' '1:0.5 2:1\n' 'yes 1:1\n' '1 :0.5\n' '1 1:\n' '1 3\n' '1 3 :0.5\n'
    '1 3: 0.5\n' '1 0:0.5\n' '1 -2:0.5\n' '1 2147483648:0.5\n' '1 1:1 3:1 2:1\n'
    '1 1:1 1:2\n' '1 1:NaN\n' '1 1:Inf\n' '1 1:1e400\n' '1 1:0.5x\n' '1x 1:1\n'
    '1 1:1\n\n-1 2:1\n' '1 1:1\n-1 2:0.5\0 3:1\n' '\xef\xbb\xbf1 1:1\n-1 2:1\n' '1 1:0.5 2:'
    '1 1:0.5 2')
  local ll_models=0 cd_models=0 c
  outcome() {  # status model -> "model written" or "refused (exit N)"
    if [ -f "$2" ]; then echo "**model written** (exit $1)"; else echo "refused (exit $1)"; fi
  }
  for c in "${cases[@]}"; do
    printf "$c" >"$tmp/bad.svm"
    rm -f "$tmp/ll.model" "$tmp/cd.model"
    local ls=0 cs=0
    liblinear-train -q -s 2 "$tmp/bad.svm" "$tmp/ll.model" >/dev/null 2>&1 || ls=$?
    ./cdtrain -q "$tmp/bad.svm" "$tmp/cd.model" >/dev/null 2>&1 || cs=$?
    [ -f "$tmp/ll.model" ] && ll_models=$((ll_models + 1))
    [ -f "$tmp/cd.model" ] && cd_models=$((cd_models + 1))
    echo "| \`${c:-(empty)}\` | $(outcome $ls "$tmp/ll.model") | $(outcome $cs "$tmp/cd.model") |"
  done
  echo
  echo "Models written for the ${#cases[@]} files: liblinear-train $ll_models, cdtrain $cd_models."
  echo
  echo "### Extreme C, L2-SVM, default eps: outer iterations and f of the model (\`bench_cd objective\`)"
  echo
  echo "| data, C | cdtrain (CDPER) | cdtrain -s tron | liblinear-train -s 2 |"
  echo "|---|---|---|---|"
  local f C
  for f in heart_scale a9a; do
    for C in 1e-6 1e6; do
      local row="| $f, $C |"
      for who in cdper tron ll; do
        local its
        if [ $who = ll ]; then
          its=$(liblinear-train -s 2 -c $C "data/$f" "$tmp/$who.model" | grep -c '^iter')
        else
          its=$(./cdtrain -s $who -c $C "data/$f" "$tmp/$who.model" 2>&1 |
            sed -n 's/.*: \([0-9]*\) outer iterations.*/\1/p')
        fi
        row="$row $its, $(build/bench_cd objective "data/$f" "$tmp/$who.model" $C) |"
      done
      echo "$row"
    done
  done
  echo
}

case $section in
  small) small ;;
  large) large ;;
  solvers) solvers ;;
  robust) robust ;;
  reading) reading ;;
  all) small; large; solvers; robust; reading ;;
  *) echo "usage: $0 [all|small|large|solvers|robust|reading]" >&2; exit 2 ;;
esac
