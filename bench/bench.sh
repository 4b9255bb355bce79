#!/usr/bin/env bash
# Benchmarks cdlinear against LIBLINEAR 2.50, multi-core LIBLINEAR 2.21 (-n 2),
# both built from ../shared/peers by its build.sh, and Debian's LIBLINEAR 2.3
# (liblinear-tools), on the same files in the same run, as Markdown tables.
#
#   make bench                       (= bash bench/bench.sh) writes
#                                    docs/benchmarks.md: a header (machine, date,
#                                    commit, the peers and how they were built),
#                                    a summary table for the README, and the
#                                    cores section's tables on the wide and tall
#                                    synthetic files and WordNet's glosses (45
#                                    classes, ../shared/data): every LIBLINEAR
#                                    number and the default, CDL_CORES_ROUNDS
#                                    (default 5) rounds; then the python
#                                    section's tables (below) on the same
#                                    files and rounds. The tables are made
#                                    first and the file is renamed into place at
#                                    the end: a failed run (a tool that fails, a
#                                    value that does not parse) leaves the old
#                                    file. On a quiet 2-core machine the wide
#                                    and tall tables take about 40 minutes (the
#                                    "Every core" runs in docs/checks.md); the
#                                    glosses' table is not yet timed (200 runs
#                                    of 45 one-vs-rest models on 2.1M nonzeros;
#                                    expect most of another hour). The python
#                                    section adds two to three hours (an
#                                    estimate, not yet timed; see python).
#                                    Each finished row of the peer tables
#                                    (and each file of the python section) is
#                                    kept in $CDL_BENCH_DIR/rows, and a later
#                                    run of the same binaries reuses it, so
#                                    that a run stopped part way goes on where
#                                    it stopped (run it in a worktree of the
#                                    commit to measure); CDL_BENCH_FRESH=1
#                                    measures every row again.
#   CDL_BENCH_HUGE=1 make bench      adds the 200M-nonzero file's table (made on
#                                    first use, 3.2 GB; ~4 more hours: its
#                                    default row took ~25 minutes in 5 rounds).
#   CDL_BENCH_SMOKE=1 CDL_BENCH_OUT=/tmp/b.md bash bench/bench.sh
#                                    the same tables on tiny files (a small wide
#                                    and tall file, every 40th line of the
#                                    glosses and their first 5000 features; the
#                                    huge file's stand-in with
#                                    CDL_BENCH_HUGE=1) and one round (or
#                                    CDL_CORES_ROUNDS), written to
#                                    CDL_BENCH_OUT, never to docs/benchmarks.md
#                                    (three to four minutes on a loaded
#                                    machine, one or two of them the python
#                                    section's).
#   bash bench/bench.sh SECTION      one section, printed to standard output:
#   bash bench/bench.sh small        the data/ sets only (about a minute)
#   bash bench/bench.sh large        the 500 MB rcv1-like file only
#   bash bench/bench.sh solvers      TRON and CD for logistic regression against
#                                    LIBLINEAR's -s 2 and -s 0 (a few minutes)
#   bash bench/bench.sh robust       malformed files and extreme C against
#                                    LIBLINEAR (a few seconds)
#   bash bench/bench.sh sweep        the floor of a CD epoch (bench_cd sweep) and
#                                    the CDPER epoch on the wide and rcv1-like
#                                    files, and on the 200M-nonzero one if it
#                                    has been made (a few minutes)
#   bash bench/bench.sh wide         whole runs on the wide text shape (50k x
#                                    350k, ~13 nonzeros a column) against
#                                    liblinear-train -s 1 and -s 2: binary,
#                                    20-class one-vs-rest and -v 5 (~10 minutes)
#   bash bench/bench.sh l1           -r l1 (L1-L2SVM, L1-LR) whole runs against
#                                    liblinear-train -s 5 / -s 6 on the wide and
#                                    rcv1-like files (CDL_L1_FILES=wide for the
#                                    wide one only; CDL_BENCH_HUGE=1 adds the
#                                    200M-nonzero one, one run each, with f*
#                                    LIBLINEAR's default f there)
#   bash bench/bench.sh huge         makes the 200M-nonzero file (3.2 GB, a few
#                                    minutes; never run by `make bench`) and
#                                    times the sweep floors and CDPER epoch on it
#   bash bench/bench.sh dual         dual CD (-s dcd) whole runs against
#                                    liblinear-train -s 1 and -s 3 on the wide
#                                    and rcv1-like files (CDL_BENCH_HUGE=1 adds
#                                    the 200M-nonzero one; ~10 minutes)
#   bash bench/bench.sh reading      reading (one core, two threads, a pipe, the
#                                    cache) and peak memory against LIBLINEAR on
#                                    the wide and rcv1-like files (a few minutes;
#                                    CDL_BENCH_HUGE=1 adds a 200M-nonzero file)
#   bash bench/bench.sh pipe         a pipe (`cat FILE | cdtrain - m`) and a
#                                    process substitution (`cdtrain <(cat FILE)
#                                    m`) against the file, -e 1000 and whole
#                                    runs, on the wide and rcv1-like files,
#                                    rounds interleaved (CDL_PIPE_ROUNDS, default
#                                    9; ~10 minutes on a loaded machine)
#   bash bench/bench.sh cores        the tables of `make bench` without the
#                                    header and summary: cdtrain -m 2 and -m 1
#                                    against multi-core LIBLINEAR -n 2, 2.50 and
#                                    2.3, medians [ranges] of rounds that
#                                    alternate the tools, peak memory, f or test
#                                    accuracy, same model bytes at -m 1 and -m 2;
#                                    CDL_CORES_NUMBERS="default 1" runs only
#                                    those, CDL_CORES_FILES="tall gloss" those
#                                    files (wide, tall, gloss, huge). The peers
#                                    are built into $CDL_BENCH_DIR/peers.
#   bash bench/bench.sh python       the Python package (make python) against
#                                    scikit-learn 1.2 on the cores section's
#                                    wide, tall and glosses files (a fixed
#                                    split of the synthetic ones), every
#                                    measurement a fresh process of
#                                    bench/python_bench.py, CDL_CORES_ROUNDS
#                                    rounds: fit time, the memory a fit adds,
#                                    f and test accuracy of LinearSVC and
#                                    LogisticRegression against scikit-learn's
#                                    liblinear estimators and lbfgs (all at
#                                    their defaults; CDL_PY_LBFGS_MAX_ITER=N
#                                    gives lbfgs another max_iter than 100);
#                                    load_svmlight_file against scikit-learn's
#                                    (same matrix, or the run fails); the fit
#                                    against cdtrain's training time; the
#                                    multinomial LogisticRegression against
#                                    lbfgs, cdtrain's dcd-maxent against
#                                    -s 0, and the multinomial objective on
#                                    dna.scale, letter and satimage.
#                                    CDL_PY_FILES="wide tall gloss" picks the
#                                    files. Expected: two to three hours on a
#                                    quiet 2-core machine, not yet timed. The
#                                    smoke run (about 1% of the nonzeros)
#                                    takes a minute, mostly Python's start.
#                                    lbfgs on the whole glosses takes most of
#                                    it: their 45 classes make a multinomial
#                                    problem of 21.5M weights, and a probe of
#                                    3 iterations on the shared machine took
#                                    55 CPU seconds and added 5.3 GB, so its
#                                    100 iterations may take 10 to 30 minutes
#                                    a fit.
#   bash bench/bench.sh mpi          cdtrain-mpi (make mpi) -s 0 on the 200M-
#                                    nonzero file, made if missing: 1 rank of
#                                    -m 2 threads, 2 and 4 ranks of one, against
#                                    cdtrain -m 2, multi-core LIBLINEAR -n 2 and
#                                    LIBLINEAR 2.50, CDL_MPI_ROUNDS (default 5)
#                                    alternating rounds: whole run, solve, peak
#                                    memory per rank, the bytes rank 0 sent and
#                                    whether the model is cdtrain's (~25 minutes).
#                                    CDL_MPI_OPTIONS="-s 1 --partitions 4" runs
#                                    ours with those options, the peers with
#                                    CDL_MPI_PEER_OPTIONS ("-s 1"; default -s 0);
#                                    CDL_MPI_FILE=wide or tall runs the wide
#                                    text-shaped file or the 500 MB tall one.
#
# Needs liblinear-train/-predict (apt-get install liblinear-tools), GNU time
# (apt-get install time), the tools built by `make tools` and, for the python
# section, the package installed into build/venv by `make python`. The large file
# is made by build/gen_rcv1like (seed 1) into build/bench/ on first use; set
# CDL_BENCH_DIR to put it elsewhere. Nothing is downloaded.
set -euo pipefail
cd "$(dirname "$0")/.."

section=${1:-all}
bench_dir=${CDL_BENCH_DIR:-build/bench}
peers_dir=$bench_dir/peers
mkdir -p "$bench_dir"
smoke=${CDL_BENCH_SMOKE:-0}
out=docs/benchmarks.md
if [ "$smoke" = 1 ]; then
  # Tiny files and one round, written where CDL_BENCH_OUT says and never over
  # docs/benchmarks.md.
  out=${CDL_BENCH_OUT:-}
  [ -n "$out" ] || { echo "bench: CDL_BENCH_SMOKE=1 needs CDL_BENCH_OUT=FILE" >&2; exit 2; }
  [ "$(realpath -m "$out")" != "$(realpath -m docs/benchmarks.md)" ] ||
    { echo "bench: a smoke run never writes docs/benchmarks.md" >&2; exit 2; }
elif [ -n "${CDL_BENCH_OUT:-}" ]; then
  echo "bench: CDL_BENCH_OUT is for smoke runs (CDL_BENCH_SMOKE=1)" >&2; exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for tool in liblinear-train liblinear-predict /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (see the header of $0)" >&2; exit 1; }
done
for tool in ./cdtrain ./cdpredict build/bench_cd build/gen_rcv1like; do
  [ -x "$tool" ] || { echo "bench: $tool is missing; run 'make tools'" >&2; exit 1; }
done


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
  make_rcv1like
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

# The generated files of the sweep, wide and huge sections, made on first
# use. The wide shape is that of a package-description text collection:
# many more features than documents, about 13 nonzeros per column.
wide_file=$bench_dir/wide_50k.svm
wide_test=$bench_dir/wide_50k_test.svm
wide20_file=$bench_dir/wide_50k_20class.svm
wide20_test=$bench_dir/wide_50k_20class_test.svm
huge_file=$bench_dir/huge_200m.svm
make_wide() {
  local shape=(--seed 1 --features 350000 --avg-terms 93)
  [ -f "$wide_file" ] || build/gen_rcv1like "${shape[@]}" --rows 50000 "$wide_file"
  [ -f "$wide_test" ] || build/gen_rcv1like "${shape[@]}" --rows 10000 --doc-seed 2 "$wide_test"
  [ -f "$wide20_file" ] || build/gen_rcv1like "${shape[@]}" --classes 20 --rows 50000 "$wide20_file"
  [ -f "$wide20_test" ] ||
    build/gen_rcv1like "${shape[@]}" --classes 20 --rows 10000 --doc-seed 2 "$wide20_test"
}
make_rcv1like() {
  local file=$bench_dir/rcv1like_500mb.svm
  [ -f "$file" ] || build/gen_rcv1like --seed 1 --target-mb 500 "$file"
}

# Prints the reported training seconds and outer iterations from cdtrain's
# summary in $tmp/err: "name: N outer iterations, f ..., |D'| ..., Ss, ...".
train_stats() {
  # (Times under a second print as milliseconds, "S ms".)
  sed -n 's/^[a-z]*: \([0-9]*\) outer iterations, .*, \([0-9.]*\)\(m\{0,1\}\)s, .*/\2 \3 \1/p' "$tmp/err" |
    tail -1 | awk '{ if ($2 == "m") print $1 / 1000, $3; else print $1, $2 }'
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
    read -r ct _ <<<"$(measure 3 ./cdtrain -s tron "$train" "$tmp/cd.model")"
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
          measure 1 ./cdtrain -s cdper -l lr -e $e "$train" "$tmp/m.model" >/dev/null
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

# The machine is shared: the load average says how busy it was around a section.
load() { echo "Load average $1: $(cut -d' ' -f1-3 /proc/loadavg)."; echo; }
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
  local wide=$bench_dir/wide_50k_350k.svm rcv1=$bench_dir/rcv1like_500mb.svm
  [ -f "$wide" ] || build/gen_rcv1like --seed 1 --rows 50000 --features 350000 --avg-terms 93 "$wide"
  [ -f "$rcv1" ] || build/gen_rcv1like --seed 1 --target-mb 500 "$rcv1"
  local files=("$wide" "$rcv1")
  if [ "${CDL_BENCH_HUGE:-0}" = 1 ]; then
    make_huge
    files+=("$huge_file")
  fi
  echo "### Reading (\`bash bench/bench.sh reading\`)"
  echo
  echo "Whole runs of \`-e 1000\` (both tools stop before their first iteration), mean ± sd of"
  echo "hyperfine runs in one session; ratios are LIBLINEAR's mean over ours. \`taskset -c 0\` pins a"
  echo 'run to one core. "pipe" is `cat FILE | cdtrain - m` (cat included). "cache" loads'
  echo "\`--cache-file\`, built by an earlier run; \"text / cache\" is the 2-thread text run's time over"
  echo "the cache run's. Max RSS is of a plain training run (defaults) of each"
  echo "tool, \`liblinear-train\` being \`-s 1\`."
  echo
  echo "| file | nonzeros | liblinear-train -e 1000 | cdtrain, 1 core | cdtrain, 2 threads | pipe, 2 threads | cache | text / cache | max RSS MB: cdtrain / liblinear-train |"
  echo "|---|---|---|---|---|---|---|---|---|"
  local f
  for f in "${files[@]}"; do
    local runs=5
    [ "$(stat -L -c %s "$f")" -gt 1000000000 ] && runs=2
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
        split(l, L, " "); split(two, T, " "); split(cache, C, " ")
        printf "| %s | %.1fM | %.2f ± %.2f s | %s | %s | %s | %s | %.1f | %.0f / %.0f (%.2fx) |\n", name, nnz / 1e6,
          L[1], L[2], cell(one, L[1]), cell(two, L[1]), cell(pipe, L[1]), cell(cache, L[1]), T[1] / C[1],
          cm / 1024, lm / 1024, cm / lm
      }'
  done
  echo
}

# Reading from a pipe against reading the file (the same model, and the
# same speed within 10%, are expected). Each round runs, in turn, the file, `cat FILE |
# cdtrain - m` and `cdtrain <(cat FILE) m` (cat counted in both), and
# liblinear-train -e 1000 as the peer; every command goes through `bash -c`,
# so that each pays the same shell start. The order rotates from round to
# round, so that a burst of load elsewhere does not always hit the same
# command. Reported: the best and the median wall time of the rounds, their
# ratios to the file's, and the median CPU time (user + sys of every process,
# cat's included). Every model must equal the file's
# byte for byte (checked after each run).
pipe_rows() {  # file, rounds, label, cdtrain options...
  local f=$1 rounds=$2 label=$3; shift 3
  local opts="$*"
  local -a modes=(file pipe sub)
  [ "$label" = "-e 1000" ] && modes+=(peer)
  local -A cmd=(
    [file]="./cdtrain -q $opts $f $tmp/m_file"
    [pipe]="cat $f | ./cdtrain -q $opts - $tmp/m_pipe"
    [sub]="./cdtrain -q $opts <(cat $f) $tmp/m_sub"
    [peer]="liblinear-train -q -s 2 -e 1000 $f $tmp/ll.model"
  )
  local -A walls=() cpus=()
  local round k
  for ((round = 0; round < rounds; round++)); do
    for ((k = 0; k < ${#modes[@]}; k++)); do
      local mode=${modes[$(((k + round) % ${#modes[@]}))]}
      /usr/bin/time -f "%e %U %S" -o "$tmp/time" bash -c "${cmd[$mode]}" >/dev/null 2>&1
      read -r t u sy <"$tmp/time"
      walls[$mode]+="$t "
      cpus[$mode]+="$(awk -v u="$u" -v s="$sy" 'BEGIN{print u + s}') "
      if [ "$mode" = pipe ] || [ "$mode" = sub ]; then
        [ -f "$tmp/m_file" ] || { ./cdtrain -q $opts "$f" "$tmp/m_file" >/dev/null 2>&1; }
        cmp -s "$tmp/m_file" "$tmp/m_$mode" || { echo "bench: pipe: $mode model differs from the file's ($f $opts)" >&2; exit 1; }
      fi
    done
  done
  local name; name=$(basename "$f")
  local mode
  for mode in "${modes[@]}"; do
    # best and median wall, median CPU
    local med=$(((rounds + 1) / 2))
    echo "$(tr ' ' '\n' <<<"${walls[$mode]}" | sed '/^$/d' | sort -n | sed -n "1p;${med}p" | tr '\n' ' ')" \
      "$(tr ' ' '\n' <<<"${cpus[$mode]}" | sed '/^$/d' | sort -n | sed -n "${med}p")" >"$tmp/stat_$mode"
  done
  read -r fb fm fc <"$tmp/stat_file"
  local o=${label:+$label }
  local -A text=([file]="\`cdtrain ${o}FILE m\`" [pipe]="\`cat FILE \\| cdtrain ${o}- m\`"
    [sub]="\`cdtrain ${o}<(cat FILE) m\`" [peer]="\`liblinear-train -s 2 -e 1000 FILE m\`")
  for mode in "${modes[@]}"; do
    read -r b m c <"$tmp/stat_$mode"
    T=${text[$mode]} awk -v n="$name" -v b="$b" -v m="$m" -v c="$c" -v fb="$fb" -v fm="$fm" -v fc="$fc" \
      -v same="$([ "$mode" = peer ] && echo '' || echo yes)" \
      'BEGIN{printf "| %s | %s | %.2f | %.2f | %.3f | %.3f | %.2f (%.3f) | %s |\n", n, ENVIRON["T"], b, m, b / fb, m / fm, c, c / fc, same}'
  done
}

pipe() {
  make_wide
  make_rcv1like
  local rounds=${CDL_PIPE_ROUNDS:-9}
  echo "### Pipes (\`bash bench/bench.sh pipe\`)"
  echo
  echo "Each of $rounds rounds runs every command once, in an order that rotates; wall seconds"
  echo "(best and median of the rounds), their ratios to the file's, and the median CPU seconds (user +"
  echo "sys of all processes, \`cat\` included). \"same model\": byte for byte the file's."
  echo
  echo "| file | command | best s | median s | best / file | median / file | CPU s (/ file) | same model |"
  echo "|---|---|---|---|---|---|---|---|"
  pipe_rows "$wide_file" "$rounds" "-e 1000" -e 1000
  pipe_rows "$bench_dir/rcv1like_500mb.svm" "$(( (rounds + 1) / 2 ))" "-e 1000" -e 1000
  pipe_rows "$wide_file" "$(( (rounds + 1) / 2 ))" ""
  echo
}

machine() {
  echo "$(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo), $(nproc) cores," \
    "$(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), kernel $(uname -r)"
}
peers() {
  echo "liblinear-tools $(dpkg-query -W -f='${Version}' liblinear-tools 2>/dev/null || echo '(version unknown)')"
}
# Malformed training files: does each tool refuse the file (exit status and
# whether a model appears), and the iterations and objective at extreme C.
robust() {
  echo "### Malformed training files (\`bash bench/bench.sh robust\`)"
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

# One row of the sweep table: the floors of a CD epoch and the CDPER epoch on
# $1 (bench_cd sweep; medians of $2 epochs), in milliseconds.
sweep_row() {
  local file=$1 epochs=$2
  build/bench_cd sweep "$file" --epochs "$epochs" >"$tmp/sweep"
  awk -v name="$(basename "$file")" '
    /^rows/ {r=$2; n=$4; z=$6}
    $3!="ms/epoch" {next}
    $1=="cyclic" {c=$2} $1=="perm" {p=$2} $1=="perm-prefetch" {q=$2}
    $1=="perm-prefetch-signed" {s=$2} $1=="cdper" {e=$2}
    END {printf "| %s | %d | %d | %.1fM | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f |\n",
                name, r, n, z/1e6, c, p, q, s, e, e/q}' "$tmp/sweep"
}

sweep_header() {
  echo "| file | rows | features | nonzeros | cyclic | perm | perm + prefetch | perm + prefetch, signed values | CDPER epoch | CDPER / perm + prefetch |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
}

sweep() {
  make_wide
  make_rcv1like
  echo "### The floor of a CD epoch (\`bash bench/bench.sh sweep\`)"
  echo
  echo "Milliseconds per epoch, medians of 7 epochs (5 on the 200M-nonzero file), L2-SVM, C = 1."
  echo "The floors (\`bench_cd sweep\`) do only what every CD epoch must: per coordinate, read"
  echo "the column, gather b_j and the label of its rows, D' and D'', the Newton step, update b."
  echo "\"perm\" draws a fresh random permutation every epoch (its shuffle included), \"prefetch\""
  echo "fetches the pointers, data and margins of the next columns ahead, \"signed values\" reads"
  echo "y_j x_ji from one array instead of x_ji and a label array. The CDPER epoch is one outer"
  echo "iteration of the library's solve_cd (cdtrain -s cdper) on the same problem."
  echo
  sweep_header
  sweep_row "$wide_file" 7
  sweep_row "$bench_dir/rcv1like_500mb.svm" 7
  if [ -f "$huge_file" ]; then sweep_row "$huge_file" 5; fi
  echo
}

# Makes the 200M-nonzero file on first use, if the disk has room.
make_huge() {
  if [ ! -f "$huge_file" ]; then
    local free_kb
    free_kb=$(df -Pk "$bench_dir" | awk 'NR==2{print $4}')
    if [ "$free_kb" -lt $((5 * 1024 * 1024)) ]; then
      echo "bench: the 200M-nonzero file needs about 3.2 GB and the run ~3 GB of memory; only $((free_kb / 1024)) MB free in $bench_dir" >&2
      exit 1
    fi
    build/gen_rcv1like "${huge_gen[@]}" "$huge_file"
  fi
}

huge() {
  make_huge
  local bytes; bytes=$(stat -c %s "$huge_file")
  echo "### 200M-nonzero file (\`bash bench/bench.sh huge\`): $((bytes / 1000000)) MB, made by \`build/gen_rcv1like --seed 1 --rows 2700000 --features 200000 --avg-terms 74\`"
  echo
  sweep_header
  sweep_row "$huge_file" 5
  echo
}

# Prints "seconds max_rss_kb" of the fastest of $1 runs, and leaves that run's
# stdout in $tmp/best_out.
measure() {
  local runs=$1; shift
  local best=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err"
    read -r t m <"$tmp/time"
    if [ -z "$best" ] || awk -v a="$t" -v b="${best%% *}" 'BEGIN{exit !(a<b)}'; then
      best="$t $m"; cp "$tmp/out" "$tmp/best_out"
    fi
  done
  echo "$best"
}

# A table row: name, seconds, max RSS KB, and the time relative to -s 1 and -s 2.
wide_row() {
  awk -v n="$1" -v t="$2" -v m="$3" -v s1="$4" -v s2="$5" -v rest="$6" \
    'BEGIN{printf "| %s | %.2f | %.0f | %.2f | %.2f |%s\n", n, t, m/1024, t/s1, t/s2, rest}'
}

wide() {
  make_wide
  local runs=3
  echo "### Wide text shape (\`bash bench/bench.sh wide\`): 50,000 x 350,000, $(awk '{n+=NF-1} END{printf "%.1fM", n/1e6}' "$wide_file") nonzeros"
  echo
  echo "Made by \`build/gen_rcv1like --seed 1 --rows 50000 --features 350000 --avg-terms 93\`;"
  echo "the test set by the same command with \`--doc-seed 2 --rows 10000\` (same vocabulary and"
  echo "planted model, other documents), the 20-class files with \`--classes 20\`. Whole-process"
  echo "time and peak RSS, best of $runs runs, default settings (eps, C = 1) of each command."
  echo "f* is the objective of \`liblinear-train -s 2 -e 0.0001\`; f of every model by \`bench_cd objective\`."
  echo
  echo "Binary:"
  echo
  echo "| command | seconds | max RSS MB | time / -s 1 | time / -s 2 | (f - f*)/f* | test accuracy % |"
  echo "|---|---|---|---|---|---|---|"
  liblinear-train -q -s 2 -e 0.0001 "$wide_file" "$tmp/opt.model" >/dev/null
  local fstar; fstar=$(build/bench_cd objective "$wide_file" "$tmp/opt.model")
  local s1t s1m s2t s2m ct cm
  read -r s1t s1m <<<"$(measure $runs liblinear-train -q -s 1 "$wide_file" "$tmp/s1.model")"
  read -r s2t s2m <<<"$(measure $runs liblinear-train -q -s 2 "$wide_file" "$tmp/s2.model")"
  read -r ct cm <<<"$(measure $runs ./cdtrain -q "$wide_file" "$tmp/cd.model")"
  local who name t m f acc
  for who in cd s1 s2; do
    case $who in
      cd) name="cdtrain (CDPER)"; t=$ct; m=$cm ;;
      s1) name="liblinear-train -s 1"; t=$s1t; m=$s1m ;;
      s2) name="liblinear-train -s 2"; t=$s2t; m=$s2m ;;
    esac
    f=$(build/bench_cd objective "$wide_file" "$tmp/$who.model")
    acc=$(accuracy "$wide_test" "$tmp/$who.model")
    wide_row "$name" "$t" "$m" "$s1t" "$s2t" \
      "$(awk -v f="$f" -v s="$fstar" -v a="$acc" 'BEGIN{printf " %.2e | %s |", (f-s)/s, a}')"
  done
  echo
  echo "20 classes, one-vs-rest (cdtrain with \`-m 2\`, two threads where it uses them):"
  echo
  echo "| command | seconds | max RSS MB | time / -s 1 | time / -s 2 | test accuracy % |"
  echo "|---|---|---|---|---|---|"
  read -r s1t s1m <<<"$(measure $runs liblinear-train -q -s 1 "$wide20_file" "$tmp/s1.model")"
  read -r s2t s2m <<<"$(measure $runs liblinear-train -q -s 2 "$wide20_file" "$tmp/s2.model")"
  read -r ct cm <<<"$(measure $runs ./cdtrain -q -m 2 "$wide20_file" "$tmp/cd.model")"
  for who in cd s1 s2; do
    case $who in
      cd) name="cdtrain -m 2 (CDPER)"; t=$ct; m=$cm ;;
      s1) name="liblinear-train -s 1"; t=$s1t; m=$s1m ;;
      s2) name="liblinear-train -s 2"; t=$s2t; m=$s2m ;;
    esac
    wide_row "$name" "$t" "$m" "$s1t" "$s2t" " $(accuracy "$wide20_test" "$tmp/$who.model") |"
  done
  echo
  echo "Five-fold cross-validation on the binary file (cdtrain with \`-m 2\`, folds on two threads):"
  echo
  echo "| command | seconds | max RSS MB | time / -s 1 | time / -s 2 | CV accuracy % |"
  echo "|---|---|---|---|---|---|"
  local cva
  read -r s1t s1m <<<"$(measure $runs liblinear-train -q -s 1 -v 5 "$wide_file")"
  local s1a; s1a=$(sed -n 's/.*Cross Validation Accuracy = \([0-9.]*\)%.*/\1/p' "$tmp/best_out")
  read -r s2t s2m <<<"$(measure $runs liblinear-train -q -s 2 -v 5 "$wide_file")"
  local s2a; s2a=$(sed -n 's/.*Cross Validation Accuracy = \([0-9.]*\)%.*/\1/p' "$tmp/best_out")
  read -r ct cm <<<"$(measure $runs ./cdtrain -q -m 2 -v 5 "$wide_file")"
  cva=$(sed -n 's/.*Cross Validation Accuracy = \([0-9.]*\)%.*/\1/p' "$tmp/best_out")
  wide_row "cdtrain -m 2 -v 5 (CDPER)" "$ct" "$cm" "$s1t" "$s2t" " $cva |"
  wide_row "liblinear-train -s 1 -v 5" "$s1t" "$s1m" "$s1t" "$s2t" " $s1a |"
  wide_row "liblinear-train -s 2 -v 5" "$s2t" "$s2m" "$s1t" "$s2t" " $s2a |"
  echo
}

# Dual CD (-s dcd) against LIBLINEAR's dual solvers, -s 1 (L2-SVM) and -s 3
# (L1-SVM): whole runs, default settings, the peer in the same run, best of
# $runs, both with -q. CDL_BENCH_HUGE=1 adds the 200M-nonzero file (one run
# each).
dual_rows() {  # file runs
  local file=$1 runs=$2 s loss lt lm ct cm f fl
  for s in 1 3; do
    if [ $s = 1 ]; then loss=l2svm; else loss=l1svm; fi
    read -r lt lm <<<"$(measure "$runs" liblinear-train -q -s $s "$file" "$tmp/ll.model")"
    read -r ct cm <<<"$(measure "$runs" ./cdtrain -q -s dcd -l $loss "$file" "$tmp/cd.model")"
    fl=$(build/bench_cd objective "$file" "$tmp/ll.model")
    f=$(build/bench_cd objective "$file" "$tmp/cd.model")
    awk -v d="$(basename "$file")" -v l=$loss -v s=$s -v lt="$lt" -v lm="$lm" -v ct="$ct" -v cm="$cm" \
        -v fl="$fl" -v f="$f" \
      'BEGIN{printf "| %s | %s | %.2f | %.2f | **%.2f** | %.0f / %.0f | %.2e |\n",
             d, l, lt, ct, ct/lt, lm/1024, cm/1024, (f-fl)/fl}'
  done
}

dual() {
  make_wide
  make_rcv1like
  local runs=3
  echo "### Dual CD against liblinear-train -s 1 / -s 3 (\`bash bench/bench.sh dual\`)"
  echo
  echo "Whole-process seconds (reading included), best of $runs runs each, LIBLINEAR's runs and then"
  echo "cdtrain's in the same run of this script, both with -q and default settings (C = 1, eps 0.1"
  echo "for both). (f - f_LL)/f_LL compares the primal objectives of the two models (\`bench_cd objective\`)."
  echo
  echo "| data | loss | liblinear-train s | cdtrain -s dcd s | ratio | max RSS MB (LL / dcd) | (f - f_LL)/f_LL |"
  echo "|---|---|---|---|---|---|---|"
  dual_rows "$wide_file" $runs
  dual_rows "$bench_dir/rcv1like_500mb.svm" $runs
  if [ "${CDL_BENCH_HUGE:-0}" = 1 ] && [ -f "$huge_file" ]; then dual_rows "$huge_file" 1; fi
}

# Runs command A (up to "--") and command B in turn, $1 times each (A, B, A,
# B, ...: on a shared machine the load drifts, and alternating gives both the
# same drift), and prints "best_seconds_A user_seconds_A best_seconds_B
# user_seconds_B", the user CPU seconds of each one's fastest run.
measure_pair() {
  local runs=$1; shift
  local a=() b=() ta="" ua="" tb="" ub="" t u
  while [ "$1" != "--" ]; do a+=("$1"); shift; done
  shift
  b=("$@")
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %U" -o "$tmp/time" "${a[@]}" >/dev/null 2>&1
    read -r t u <"$tmp/time"
    if [ -z "$ta" ] || awk -v x="$t" -v y="$ta" 'BEGIN{exit !(x<y)}'; then ta=$t; ua=$u; fi
    /usr/bin/time -f "%e %U" -o "$tmp/time" "${b[@]}" >/dev/null 2>&1
    read -r t u <"$tmp/time"
    if [ -z "$tb" ] || awk -v x="$t" -v y="$tb" 'BEGIN{exit !(x<y)}'; then tb=$t; ub=$u; fi
  done
  echo "$ta $ua $tb $ub"
}

# -r l1 against LIBLINEAR's -s 5 (L1-L2SVM, CDN) and -s 6 (L1-LR, newGLMNET):
# whole-process time, best of 3 with the two tools' runs alternating, default
# eps of both (0.01 on the same measure), C = 1; f of both models by bench_cd
# objective, relative to liblinear-train -s 5/6 -e 0.0001.
l1() {
  local runs=3 files=()
  make_wide
  files+=("$wide_file")
  if [ "${CDL_L1_FILES:-all}" != wide ]; then make_rcv1like; files+=("$bench_dir/rcv1like_500mb.svm"); fi
  if [ "${CDL_BENCH_HUGE:-0}" = 1 ] && [ -f "$huge_file" ]; then files+=("$huge_file"); fi
  echo "### -r l1 against liblinear-train -s 5 / -s 6 (\`bash bench/bench.sh l1\`)"
  echo
  echo "Whole-process seconds, best of $runs with the tools' runs alternating (user CPU"
  echo "seconds of that run in brackets), default eps (0.01) and C = 1 for both; f* is"
  echo "liblinear-train at -e 0.0001; every f by \`bench_cd objective\`."
  echo
  echo "| file | loss | cdtrain -r l1 s | liblinear s | ratio | (f_ours - f*)/f* | (f_ll - f*)/f* | nnz ours / ll |"
  echo "|---|---|---|---|---|---|---|---|"
  local file pair loss number ct cu lt lu fstar fo fl
  for file in "${files[@]}"; do
    for pair in "l2svm 5" "lr 6"; do
      read -r loss number <<<"$pair"
      local file_runs=$runs
      if [ "$file" = "$huge_file" ]; then
        file_runs=1  # one run each, and f* is LIBLINEAR's default f (-e 0.0001 takes too long)
      else
        liblinear-train -q -s "$number" -e 0.0001 "$file" "$tmp/opt.model" >/dev/null
        fstar=$(build/bench_cd objective "$file" "$tmp/opt.model")
      fi
      read -r ct cu lt lu <<<"$(measure_pair $file_runs ./cdtrain -q -r l1 -l "$loss" "$file" \
        "$tmp/cd.model" -- liblinear-train -q -s "$number" "$file" "$tmp/ll.model")"
      fo=$(build/bench_cd objective "$file" "$tmp/cd.model")
      fl=$(build/bench_cd objective "$file" "$tmp/ll.model")
      [ "$file" != "$huge_file" ] || fstar=$fl
      awk -v n="$(basename "$file")" -v l="$loss" -v ct="$ct" -v lt="$lt" -v cu="$cu" -v lu="$lu" \
        -v fo="$fo" -v fl="$fl" \
        -v fs="$fstar" -v no="$(awk 'p && $1 != 0 {c++} /^w$/ {p = 1} END {print c + 0}' "$tmp/cd.model")" \
        -v nl="$(awk 'p && $1 != 0 {c++} /^w$/ {p = 1} END {print c + 0}' "$tmp/ll.model")" \
        'BEGIN{printf "| %s | %s | %.2f (%.2f) | %.2f (%.2f) | %.2f | %.2e | %.2e | %d / %d |\n", n, l, ct, cu, lt, lu, ct/lt, (fo-fs)/fs, (fl-fs)/fs, no, nl}'
    done
  done
  echo
}

# The files of the peer tables: a wide short-column text shape (ten times
# more features than documents, about 11 nonzeros per column) and a tall
# long-column one (twice as many documents as features, 120 per column),
# both over 10M nonzeros; WordNet's glosses (45 classes, a real text set with
# its own test part); the 200M-nonzero file. A smoke run (CDL_BENCH_SMOKE=1)
# puts small files of the same kinds in $bench_dir/smoke instead.
if [ "$smoke" = 1 ]; then
  cores_dir=$bench_dir/smoke
  wide_gen=(--seed 1 --rows 2000 --features 20000 --avg-terms 40)
  tall_gen=(--seed 1 --rows 4000 --features 2000 --avg-terms 30)
  huge_gen=(--seed 1 --rows 6000 --features 3000 --avg-terms 30)
  gloss_every=40 gloss_features=5000  # every 40th line, the first 5000 features
else
  cores_dir=$bench_dir
  wide_gen=(--seed 1 --rows 100000 --features 1000000 --avg-terms 110)
  tall_gen=(--seed 1 --rows 200000 --features 100000 --avg-terms 60)
  huge_gen=(--seed 1 --rows 2700000 --features 200000 --avg-terms 74)
  gloss_every=1 gloss_features=0
fi
mkdir -p "$cores_dir"
huge_file=$cores_dir/huge_200m.svm
cores_wide=$cores_dir/cores_wide.svm
cores_tall=$cores_dir/cores_tall.svm
gloss_data=../shared/data
gloss_train=$cores_dir/wordnet-gloss.svm
gloss_test=$cores_dir/wordnet-gloss.t.svm
make_cores() {
  [ -f "$cores_wide" ] || build/gen_rcv1like "${wide_gen[@]}" "$cores_wide"
  [ -f "$cores_tall" ] || build/gen_rcv1like "${tall_gen[@]}" "$cores_tall"
}
# WordNet's glosses, decompressed once (the smoke run keeps a slice).
make_gloss() {
  local part
  for part in wordnet-gloss wordnet-gloss.t; do
    [ -f "$gloss_data/$part.xz" ] || { echo "bench: $gloss_data/$part.xz is missing" >&2; exit 1; }
    [ -f "$cores_dir/$part.svm" ] && continue
    xz -dc "$gloss_data/$part.xz" | awk -v k="$gloss_every" -v n="$gloss_features" '
      k == 1 { print; next }
      NR % k == 1 { line = $1; for (i = 2; i <= NF; i++) if ($i + 0 <= n) line = line " " $i; print line }' \
      >"$cores_dir/$part.svm.part"
    mv "$cores_dir/$part.svm.part" "$cores_dir/$part.svm"
  done
}

# The peers' train programs, built by ../shared/peers/build.sh on first use:
# sets multicore_train and liblinear250_train.
build_peers() {
  local script=../shared/peers/build.sh paths
  [ -f "$script" ] || { echo "bench: $script is missing (the peers' sources)" >&2; exit 1; }
  mapfile -t paths < <(bash "$script" "$(realpath "$peers_dir")" | grep '/train$')
  liblinear250_train=$(printf '%s\n' "${paths[@]}" | grep 'liblinear-2.50/')
  multicore_train=$(printf '%s\n' "${paths[@]}" | grep 'multicore')
  [ -x "$liblinear250_train" ] && [ -x "$multicore_train" ] ||
    { echo "bench: $script did not build both peers" >&2; exit 1; }
}

# median and range of the numbers on standard input: "median min max".
median_range() {
  sort -g | awk '{v[NR] = $1} END {m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
    print m, v[1], v[NR]}'
}

# Fails the run unless each value is a number: a tool that printed nothing,
# or printed something else, must never become an empty cell or a 0.
need_number() {  # what value...
  local what=$1 v; shift
  for v in "$@"; do
    [[ $v =~ ^[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$ ]] ||
      { echo "bench: $what: '$v' is not a number" >&2; exit 1; }
  done
}

# Test accuracy (or mean squared error, for -s 11) of a model on a test
# file, by cdpredict for every tool's model: "84.44" or "MSE 0.4646".
test_score() {  # test_file model
  local out v
  out=$(./cdpredict "$1" "$2" "$tmp/pred") || { echo "bench: cdpredict $1 $2 failed" >&2; exit 1; }
  if [[ $out =~ Accuracy\ =\ ([0-9.]+)% ]]; then
    v=${BASH_REMATCH[1]}; need_number "accuracy of $2" "$v"; echo "$v"
  elif [[ $out =~ Mean\ squared\ error\ =\ ([0-9.eE+-]+) ]]; then
    v=${BASH_REMATCH[1]}; need_number "MSE of $2" "$v"; echo "MSE $v"
  else
    echo "bench: no accuracy in cdpredict's output for $2: $out" >&2; exit 1
  fi
}

# The peer tables' rows (and the Python section's files) are kept, so that
# a run stopped part way (the whole of `CDL_BENCH_HUGE=1 make bench` takes
# longer than a quiet machine is likely to stay quiet) goes on where it
# stopped: each finished row is
# saved in $bench_dir/rows under a key of everything it measured (the
# sha256 of ./cdtrain, ./cdpredict, build/bench_cd and the three peers'
# programs, the file's path, size and time, the number, the rounds and the
# test file), and a later run of the same binaries takes it from there
# instead of measuring it again. Run the bench in a worktree of the commit
# to measure, so that the binaries stay the same while main moves on. The
# header gives the dates of the oldest and newest rows. CDL_BENCH_FRESH=1
# measures every row again; a smoke run never keeps rows.
rows_dir=$bench_dir/rows
# The measured programs' sha256, set by cores() once the peers are built.
binaries_id=""
row_key() {  # file number rounds test
  local test_id=""
  [ -z "$4" ] || test_id=$(stat -L -c '%n %s %Y' "$4")
  printf '%s %s %s %s %s' "$binaries_id" "$(stat -L -c '%n %s %Y' "$1")" "$2" "$3" "$test_id" |
    sha256sum | cut -c1-24
}

# Prints a kept row and appends its record; false if there is none.
kept_row() {  # key
  [ "$smoke" != 1 ] && [ "${CDL_BENCH_FRESH:-0}" != 1 ] && [ -f "$rows_dir/$1.row" ] || return 1
  cat "$rows_dir/$1.row"
  cat "$rows_dir/$1.record" >>"$tmp/records"
  cat "$rows_dir/$1.when" >>"$tmp/row_dates"
  echo kept >>"$tmp/row_kinds"
}

# Keeps a row just measured: its table line, its record and its date.
keep_row() {  # key line record
  local when; when=$(date -u '+%Y-%m-%d %H:%M')
  echo "$when" >>"$tmp/row_dates"
  echo measured >>"$tmp/row_kinds"
  [ "$smoke" != 1 ] || return 0
  mkdir -p "$rows_dir"
  printf '%s\n' "$3" >"$rows_dir/$1.record"
  echo "$when" >"$rows_dir/$1.when"
  printf '%s\n' "$2" >"$rows_dir/$1.row.part"
  mv "$rows_dir/$1.row.part" "$rows_dir/$1.row"
}

# The header's dates: the run's, and those of the rows it kept.
row_dates() {
  local now kept; now=$(date -u '+%Y-%m-%d %H:%M UTC')
  kept=$(grep -cx kept "$tmp/row_kinds" 2>/dev/null || true)
  if [ "${kept:-0}" = 0 ]; then echo "$now"; return; fi
  echo "$now; $kept of $(wc -l <"$tmp/row_kinds") rows kept from earlier runs of the same binaries (rows measured $(sort "$tmp/row_dates" | head -1) to $(sort "$tmp/row_dates" | tail -1) UTC)"
}

# One file, one LIBLINEAR number ("default" for cdtrain's default solver,
# against the peers' default -s 1): each round runs the five commands in
# turn; then a table row of medians [ranges]. With a test file the last
# column is each model's test accuracy, else the objectives against 2.50's.
# Appends the medians to $tmp/records for the summary table. A row kept
# from an earlier run of the same binaries is printed as it was.
cores_row() {
  local file=$1 number=$2 rounds=$3 test=${4:-} k name t m same=yes key
  key=$(row_key "$file" "$number" "$rounds" "$test")
  ! kept_row "$key" || return 0
  local -a names=(cd2 cd1 mc l50 l23) ours=() peer=()
  [ "$number" = default ] || ours=(-s "$number")
  if [ "$number" = default ]; then peer=(-s 1); else peer=(-s "$number"); fi
  local -A cmd
  cmd[cd2]="./cdtrain -q -m 2 ${ours[*]}"
  cmd[cd1]="./cdtrain -q -m 1 ${ours[*]}"
  cmd[mc]="$multicore_train -q -n 2 ${peer[*]}"
  cmd[l50]="$liblinear250_train -q ${peer[*]}"
  cmd[l23]="liblinear-train -q ${peer[*]}"
  for name in "${names[@]}"; do : >"$tmp/t_$name"; : >"$tmp/m_$name"; done
  for k in $(seq "$rounds"); do
    for name in "${names[@]}"; do
      rm -f "$tmp/$name.model"
      # shellcheck disable=SC2086  # the commands are words
      /usr/bin/time -f "%e %M" -o "$tmp/time" ${cmd[$name]} "$file" "$tmp/$name.model" >/dev/null 2>&1 ||
        { echo "bench: ${cmd[$name]} $file failed" >&2; exit 1; }
      [ -s "$tmp/$name.model" ] || { echo "bench: ${cmd[$name]} $file wrote no model" >&2; exit 1; }
      read -r t m <"$tmp/time"
      need_number "time of ${cmd[$name]} $file" "$t" "$m"
      echo "$t" >>"$tmp/t_$name"
      echo "$m" >>"$tmp/m_$name"
    done
    cmp -s "$tmp/cd1.model" "$tmp/cd2.model" || same="**NO**"
  done
  local -A med lo hi mem score
  local objective_args=() last
  [ "$number" != 11 ] || objective_args=(1 0.1)
  for name in "${names[@]}"; do
    read -r med[$name] lo[$name] hi[$name] <<<"$(median_range <"$tmp/t_$name")"
    read -r mem[$name] _ _ <<<"$(median_range <"$tmp/m_$name")"
    need_number "median of ${cmd[$name]} $file" "${med[$name]}" "${lo[$name]}" "${hi[$name]}" "${mem[$name]}"
    if [ -n "$test" ]; then
      score[$name]=$(test_score "$test" "$tmp/$name.model")
    else
      score[$name]=$(build/bench_cd objective "$file" "$tmp/$name.model" "${objective_args[@]}")
    fi
    need_number "score of ${cmd[$name]} $file" "${score[$name]#MSE }"
  done
  if [ -n "$test" ]; then
    last="${score[cd2]} / ${score[mc]} / ${score[l50]} / ${score[l23]}"
  else
    last=$(awk -v fc="${score[cd2]}" -v fm="${score[mc]}" -v f50="${score[l50]}" \
      'BEGIN{printf "%+.2e / %+.2e", (fc-f50)/f50, (fm-f50)/f50}')
  fi
  local label; label=$(basename "$file" .svm)
  local record="$label $number ${med[cd2]} ${med[mc]} ${med[l50]} ${med[l23]} ${mem[cd2]} ${mem[mc]} ${mem[l50]} $same"
  echo "$record" >>"$tmp/records"
  local line
  line=$(awk -v d="$label" -v s="$number" -v same="$same" -v last="$last" \
    -v c2="${med[cd2]}" -v c2l="${lo[cd2]}" -v c2h="${hi[cd2]}" \
    -v c1="${med[cd1]}" -v mc="${med[mc]}" -v mcl="${lo[mc]}" -v mch="${hi[mc]}" \
    -v l50="${med[l50]}" -v l50l="${lo[l50]}" -v l50h="${hi[l50]}" -v l23="${med[l23]}" \
    -v mcd="${mem[cd2]}" -v mmc="${mem[mc]}" -v m50="${mem[l50]}" -v m23="${mem[l23]}" \
    'BEGIN{printf "| %s | %s | %.2f [%.2f-%.2f] | %.2f | %.2f [%.2f-%.2f] | %.2f [%.2f-%.2f] | %.2f | **%.2f** | **%.2f** | %.2f | %s | %.0f / %.0f / %.0f / %.0f | %s |\n",
      d, s, c2, c2l, c2h, c1, mc, mcl, mch, l50, l50l, l50h, l23, c2/mc, c2/l50, c1/c2, same,
      mcd/1024, mmc/1024, m50/1024, m23/1024, last}')
  echo "$line"
  keep_row "$key" "$line" "$record"
}

# Rows, nonzeros and bytes of a LIBSVM file, for the tables' captions.
shape() {
  local rows nnz
  rows=$(wc -l <"$1")
  nnz=$(tr -cd ':' <"$1" | wc -c)
  awk -v r="$rows" -v z="$nnz" -v b="$(stat -L -c %s "$1")" \
    'BEGIN{printf "%d rows, %d nonzeros, %.1f MB", r, z, b / 1e6}'
}

# The table of one or more files, every number in CDL_CORES_NUMBERS. The
# last column is given by $1: "f" (objectives) or "accuracy" (test file $2).
cores_table() {  # kind test_file rounds file...
  local kind=$1 test=$2 rounds=$3 file number; shift 3
  local last="(f - f_2.50)/f_2.50: ours / multi-core"
  [ "$kind" = f ] || last="test accuracy % (MSE for -s 11): ours / multi-core / 2.50 / 2.3"
  echo "| file | -s | cdtrain -m 2 | -m 1 | multi-core -n 2 | 2.50 | 2.3 | / multi-core | / 2.50 | -m 1 / -m 2 | same bytes | peak MB: ours / multi-core / 2.50 / 2.3 | $last |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  for file in "$@"; do
    for number in ${CDL_CORES_NUMBERS:-default 0 1 2 3 5 6 11}; do
      cores_row "$file" "$number" "$rounds" "$test"
    done
  done
  echo
}

cores_legend() {  # rounds
  echo "Whole-process wall seconds (reading included), median [min-max] of $1 rounds; each round"
  echo "runs \`cdtrain -m 2\`, \`cdtrain -m 1\`, multi-core LIBLINEAR 2.21 \`train -n 2\`, LIBLINEAR"
  echo "2.50 \`train\` and Debian's \`liblinear-train\` 2.3 in turn, all with -q and their defaults"
  echo "(C = 1; \"default\" is cdtrain's default solver against the peers' default, -s 1). The"
  echo "ratios are medians over medians; \"same bytes\": the -m 1 and -m 2 model files were equal"
  echo "byte for byte in every round. Memory: median peak RSS (GNU time)."
  echo
}

# The peer tables: synthetic wide and tall files, WordNet's glosses and, with
# CDL_BENCH_HUGE=1, the 200M-nonzero file. CDL_CORES_FILES picks among wide,
# tall, gloss and huge (default: all but huge).
cores() {
  make_cores
  build_peers
  binaries_id=$(sha256sum ./cdtrain ./cdpredict build/bench_cd "$multicore_train" \
    "$liblinear250_train" "$(command -v liblinear-train)" | sha256sum | cut -c1-16)
  local rounds=${CDL_CORES_ROUNDS:-5} name synthetic=() gloss=0 huge=0
  [ "$smoke" != 1 ] || rounds=${CDL_CORES_ROUNDS:-1}
  for name in ${CDL_CORES_FILES:-wide tall gloss}; do
    case $name in
      wide) synthetic+=("$cores_wide") ;;
      tall) synthetic+=("$cores_tall") ;;
      gloss) gloss=1 ;;
      huge) huge=1 ;;
      *) echo "bench: CDL_CORES_FILES: wide, tall, gloss or huge, not $name" >&2; exit 2 ;;
    esac
  done
  [ "${CDL_BENCH_HUGE:-0}" != 1 ] || huge=1
  if [ ${#synthetic[@]} -gt 0 ]; then
    echo "### Synthetic text shapes: every solver against multi-core LIBLINEAR and LIBLINEAR 2.50"
    echo
    cores_legend "$rounds"
    echo "Files: \`cores_wide\` ($(shape "$cores_wide")) by \`build/gen_rcv1like ${wide_gen[*]}\`;"
    echo "\`cores_tall\` ($(shape "$cores_tall")) by \`build/gen_rcv1like ${tall_gen[*]}\`. The last"
    echo "column compares each model's primal objective with LIBLINEAR 2.50's (\`bench_cd objective\`;"
    echo "C = 1, and p = 0.1 for -s 11)."
    echo
    cores_table f "" "$rounds" "${synthetic[@]}"
  fi
  if [ "$gloss" = 1 ]; then
    make_gloss
    echo "### Many classes, real text: WordNet glosses, 45 classes"
    echo
    cores_legend "$rounds"
    echo "Files: \`wordnet-gloss\` ($(shape "$gloss_train")) and its test part \`wordnet-gloss.t\`"
    echo "($(shape "$gloss_test")), decompressed from ../shared/data (SOURCES.md there says how they"
    echo "were made)$([ "$smoke" != 1 ] || echo ", every ${gloss_every}th line of each part, features up to $gloss_features"). Every tool"
    echo "trains 45 one-vs-rest models (-s 11: one regression on the class numbers). The"
    echo "last column is each model's test accuracy, every model predicted by \`cdpredict\`; the"
    echo "objective is not given, as it is a sum over 45 models."
    echo
    cores_table accuracy "$gloss_test" "$rounds" "$gloss_train"
  fi
  echo "### The 200M-nonzero file"
  echo
  if [ "$huge" = 1 ]; then
    make_huge
    cores_legend "$rounds"
    echo "File: \`huge_200m\` ($(shape "$huge_file")) by \`build/gen_rcv1like ${huge_gen[*]}\`."
    echo "The last column compares objectives as in the synthetic table."
    echo
    cores_table f "" "$rounds" "$huge_file"
  else
    echo "Not run by this \`make bench\`: the file is 3.2 GB and its table takes about four hours."
    echo "\`CDL_BENCH_HUGE=1 make bench\` runs everything above and it; \`CDL_CORES_FILES=huge bash"
    echo "bench/bench.sh cores\` prints its table alone."
    echo
  fi
}

# The python section: the package's estimators and reader against
# scikit-learn's, and its fit against cdtrain's training, on the files of
# the peer tables (cores_wide and cores_tall split into a training part and
# every 5th line as the test part; the glosses and their .t file). Every
# measurement is a fresh process of bench/python_bench.py (its comment says
# what each prints); CDL_CORES_ROUNDS rounds (5; a smoke run 1) run them in
# turn. CDL_PY_FILES picks among wide, tall and gloss.
python_bin=build/venv/bin/python
py_dir=$cores_dir/python
py_fits=(cdlinear-svc sklearn-svc cdlinear-lr sklearn-liblinear sklearn-lbfgs cdlinear-multinomial)
# The fits that have predict_proba: their test log-loss and softmax f too.
py_logistic=" cdlinear-lr sklearn-liblinear sklearn-lbfgs cdlinear-multinomial "
# The cdtrain options of cdlinear.LinearSVC(n_jobs=2) and
# LogisticRegression(n_jobs=2) at their defaults (docs/python.md): LIBLINEAR's
# -s 1 and -s 0, scikit-learn's tol as -e, its max_iter, intercept_scaling 1
# as -B 1, C = 1, seed 1.
py_cdtrain_svc=(-s 1 -c 1 -e 0.0001 --max-iter 1000 -B 1 -m 2 --seed 1)
py_cdtrain_lr=(-s 0 -c 1 -e 0.0001 --max-iter 100 -B 1 -m 2 --seed 1)
# The multinomial table's cdtrain runs, at cdtrain's defaults: one-vs-rest
# logistic regression (-s 0) and the softmax problem (dcd-maxent).
py_cdtrain_s0=(-s 0 -B 1 -m 2)
py_cdtrain_maxent=(-s dcd-maxent -B 1 -m 2)
py_options() {  # svc, lr, s0 or maxent: those cdtrain options
  case $1 in
    svc) echo "${py_cdtrain_svc[*]}" ;;
    lr) echo "${py_cdtrain_lr[*]}" ;;
    s0) echo "${py_cdtrain_s0[*]}" ;;
    *) echo "${py_cdtrain_maxent[*]}" ;;
  esac
}

# Runs python_bench.py with its arguments; prints its output line, or fails
# the run with its error.
py_run() {
  local out
  out=$("$python_bin" bench/python_bench.py "$@" 2>"$tmp/py_err") ||
    { echo "bench: python_bench.py $*: $(tail -3 "$tmp/py_err")" >&2; exit 1; }
  echo "$out"
}

# The value after NAME in a python_bench.py output line, checked to be a number.
py_field() {  # name line
  local v
  v=$(awk -v k="$1" '{for (i = 1; i < NF; i += 2) if ($i == k) print $(i + 1)}' <<<"$2")
  need_number "python_bench.py's $1 in '$2'" "$v"
  echo "$v"
}

# The training seconds of cdtrain's last stderr line, "total time 1.234s:
# reading 0.5s, training 0.7s" (under a second in ms), in $1.
cdtrain_training_seconds() {
  local v
  v=$(tail -1 "$1" | sed -n 's/^total time .*, training \([0-9.]*m\{0,1\}s\)$/\1/p')
  case $v in
    *ms) v=$(awk -v x="${v%ms}" 'BEGIN{print x / 1000}') ;;
    *s) v=${v%s} ;;
  esac
  need_number "cdtrain's training time in '$(tail -1 "$1")'" "$v"
  echo "$v"
}

# The training and test parts of a file as .npz, made on first use (and
# again when the LIBSVM file is newer): $py_dir/NAME.train.npz and
# NAME.test.npz; a synthetic file is split first, every 5th line to the
# test part, into NAME.train.svm (cdtrain's) and NAME.test.svm. Sets
# py_train to the training part's LIBSVM file (not a subshell's output, so
# that a failing step stops the run).
py_prepare() {  # name svm [test_svm]
  local name=$1 svm=$2 test=${3:-}
  mkdir -p "$py_dir"
  if [ -z "$test" ]; then
    test=$py_dir/$name.test.svm
    if [ ! -f "$test" ] || [ "$svm" -nt "$test" ]; then
      awk 'NR % 5 != 0' "$svm" >"$py_dir/$name.train.svm.part"
      awk 'NR % 5 == 0' "$svm" >"$py_dir/$name.test.svm.part"
      mv "$py_dir/$name.train.svm.part" "$py_dir/$name.train.svm"
      mv "$py_dir/$name.test.svm.part" "$test"
    fi
    svm=$py_dir/$name.train.svm
  fi
  if [ ! -f "$py_dir/$name.test.npz" ] || [ "$svm" -nt "$py_dir/$name.train.npz" ] ||
    [ "$test" -nt "$py_dir/$name.test.npz" ]; then
    py_run prepare "$svm" "$test" "$py_dir/$name.train.part.npz" "$py_dir/$name.test.part.npz" >/dev/null
    mv "$py_dir/$name.train.part.npz" "$py_dir/$name.train.npz"
    mv "$py_dir/$name.test.part.npz" "$py_dir/$name.test.npz"
  fi
  py_train=$svm
}

# Appends the value after NAME in LINE (a python_bench.py output line) to
# the list $tmp/py_LABEL_KEY (KEY: the tool's name, _, NAME).
py_keep() {  # label tool name line
  local v
  v=$(py_field "$3" "$4")
  echo "$v" >>"$tmp/py_$1_$2_$3"
}
# "median min max" of a list.
py_median() { median_range <"$tmp/py_$1_$2"; }

# One file: $3 rounds, each running every fit, cdtrain with each estimator's
# options and both loaders, one fresh process each; then f*, the f of
# cdtrain's models and the loaders' equality. Leaves the lists in
# $tmp/py_LABEL_*.
py_measure() {  # label whole_svm rounds train_svm
  local label=$1 whole=$2 rounds=$3 train=$4 k tool line key kind options seconds loss
  local train_npz=$py_dir/$label.train.npz test_npz=$py_dir/$label.test.npz
  for k in $(seq "$rounds"); do
    for tool in "${py_fits[@]}"; do
      line=$(py_run fit "$tool" "$train_npz" "$test_npz")
      for key in seconds added_kb iterations max_iter converged f multinomial accuracy; do
        py_keep "$label" "$tool" "$key" "$line"
      done
      if [[ $py_logistic == *" $tool "* ]]; then
        py_keep "$label" "$tool" log_loss "$line"
        py_keep "$label" "$tool" f_softmax "$line"
      fi
    done
    for kind in svc lr s0 maxent; do
      read -ra options <<<"$(py_options $kind)"
      ./cdtrain "${options[@]}" "$train" "$tmp/py_$kind.model" >/dev/null 2>"$tmp/py_cdtrain_err" ||
        { echo "bench: cdtrain ${options[*]} $train failed: $(tail -1 "$tmp/py_cdtrain_err")" >&2; exit 1; }
      seconds=$(cdtrain_training_seconds "$tmp/py_cdtrain_err")
      py_keep "$label" "cdtrain-$kind" seconds "seconds $seconds"
    done
    cat "$whole" >/dev/null  # both loaders read it from the page cache
    for tool in cdlinear sklearn; do
      line=$(py_run load "$tool" "$whole")
      py_keep "$label" "load-$tool" seconds "$line"
      py_keep "$label" "load-$tool" added_kb "$line"
    done
  done
  line=$(py_run reference l2svm "$train_npz"); py_keep "$label" reference-svc f "$line"
  line=$(py_run reference lr "$train_npz"); py_keep "$label" reference-lr f "$line"
  line=$(py_run reference softmax "$train_npz"); py_keep "$label" reference-softmax f "$line"
  for kind in svc lr maxent; do
    case $kind in svc) loss=l2svm ;; lr) loss=lr ;; *) loss=softmax ;; esac
    line=$(py_run model-f "$loss" "$train_npz" "$tmp/py_$kind.model")
    py_keep "$label" "cdtrain-$kind" f "$line"
    py_keep "$label" "cdtrain-$kind" write_seconds "$line"
  done
  line=$(py_run same "$whole"); py_field same "$line" >/dev/null
}

# a / b with two decimals for the tables' ratios, or "-" when b is not
# positive (a fit that added no memory, writing that took the whole time).
py_awk='function ratio(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "-" } '
# "median [min-max]" seconds of a list.
py_time() { py_median "$1" "$2" | awk '{printf "%.2f [%.2f-%.2f]", $1, $2, $3}'; }
py_value() { py_median "$1" "$2" | cut -d' ' -f1; }
# An estimator's iterations (median), with * if a round did not converge.
py_iterations() {
  awk -v n="$(py_value "$1" "${2}_iterations")" -v all="$(sort -n "$tmp/py_$1_${2}_converged" | head -1)" \
    'BEGIN{printf "%d%s", n, all == 1 ? "" : "*"}'
}
# (f - f*)/f* of an estimator's median f; f* is the lowest f of the
# reference fit, every estimator's fits and cdtrain's model of the loss.
py_gap() {  # label tool loss(svc|lr)
  local fstar tools=(cdlinear-svc sklearn-svc) t
  [ "$3" = svc ] || tools=(cdlinear-lr sklearn-liblinear sklearn-lbfgs)
  if [ "$2" = sklearn-lbfgs ] && [ "$(py_value "$1" sklearn-lbfgs_multinomial)" != 0 ]; then
    echo "(multinomial)"; return
  fi
  fstar=$(for t in "${tools[@]}" reference-$3 cdtrain-$3; do
    [ "$t" = sklearn-lbfgs ] && [ "$(py_value "$1" sklearn-lbfgs_multinomial)" != 0 ] && continue
    cat "$tmp/py_$1_${t}_f"
  done | sort -g | head -1)
  awk -v f="$(py_value "$1" "${2}_f")" -v s="$fstar" 'BEGIN{printf "%.1e", (f - s) / s}'
}

py_svc_row() {  # label
  local l=$1 c=cdlinear-svc s=sklearn-svc
  awk -v l="$l" -v ct="$(py_time "$l" ${c}_seconds)" -v st="$(py_time "$l" ${s}_seconds)" \
    -v c="$(py_value "$l" ${c}_seconds)" -v s="$(py_value "$l" ${s}_seconds)" \
    -v cm="$(py_value "$l" ${c}_added_kb)" -v sm="$(py_value "$l" ${s}_added_kb)" \
    -v cg="$(py_gap "$l" $c svc)" -v sg="$(py_gap "$l" $s svc)" \
    -v ca="$(py_value "$l" ${c}_accuracy)" -v sa="$(py_value "$l" ${s}_accuracy)" \
    -v ci="$(py_iterations "$l" $c)" -v si="$(py_iterations "$l" $s)" \
    "$py_awk"'BEGIN{printf "| %s | %s | %s | **%s** | %.0f / %.0f | **%s** | %s / %s | %.2f / %.2f | %+.2f | %s / %s |\n",
      l, ct, st, ratio(c, s), cm / 1024, sm / 1024, ratio(cm, sm), cg, sg, ca, sa, ca - sa, ci, si}'
}

py_lr_row() {  # label
  local l=$1 c=cdlinear-lr s=sklearn-liblinear g=sklearn-lbfgs
  awk -v l="$l" -v ct="$(py_time "$l" ${c}_seconds)" -v st="$(py_time "$l" ${s}_seconds)" \
    -v bt="$(py_time "$l" ${g}_seconds)" -v c="$(py_value "$l" ${c}_seconds)" \
    -v s="$(py_value "$l" ${s}_seconds)" -v g="$(py_value "$l" ${g}_seconds)" \
    -v cm="$(py_value "$l" ${c}_added_kb)" -v sm="$(py_value "$l" ${s}_added_kb)" \
    -v bm="$(py_value "$l" ${g}_added_kb)" \
    -v cg="$(py_gap "$l" $c lr)" -v sg="$(py_gap "$l" $s lr)" -v bg="$(py_gap "$l" $g lr)" \
    -v ca="$(py_value "$l" ${c}_accuracy)" -v sa="$(py_value "$l" ${s}_accuracy)" \
    -v ba="$(py_value "$l" ${g}_accuracy)" \
    -v ci="$(py_iterations "$l" $c)" -v si="$(py_iterations "$l" $s)" -v bi="$(py_iterations "$l" $g)" \
    "$py_awk"'BEGIN{printf "| %s | %s | %s | %s | **%s** | **%s** | %.0f / %.0f / %.0f | **%s** | %s / %s / %s | %.2f / %.2f / %.2f | %+.2f / %+.2f | %s / %s / %s |\n",
      l, ct, st, bt, ratio(c, s), ratio(c, g), cm / 1024, sm / 1024, bm / 1024, ratio(cm, sm), cg, sg, bg,
      ca, sa, ba, ca - sa, ca - ba, ci, si, bi}'
}

py_load_row() {  # label file
  local l=$1
  awk -v l="$l" -v ct="$(py_time "$l" load-cdlinear_seconds)" -v st="$(py_time "$l" load-sklearn_seconds)" \
    -v c="$(py_value "$l" load-cdlinear_seconds)" -v s="$(py_value "$l" load-sklearn_seconds)" \
    -v cm="$(py_value "$l" load-cdlinear_added_kb)" -v sm="$(py_value "$l" load-sklearn_added_kb)" \
    -v shape="$(shape "$2")" \
    "$py_awk"'BEGIN{printf "| %s | %s | %s | %s | **%s** | %.0f / %.0f | yes |\n", l, shape, ct, st, ratio(s, c), cm / 1024, sm / 1024}'
}

py_cdtrain_rows() {  # label
  local l=$1 kind estimator
  for kind in svc lr; do
    estimator="LinearSVC(n_jobs=2)"
    [ "$kind" = svc ] || estimator="LogisticRegression(n_jobs=2)"
    awk -v l="$l" -v e="$estimator" -v o="$(py_options $kind)" \
      -v pt="$(py_time "$l" cdlinear-${kind}_seconds)" -v ct="$(py_time "$l" cdtrain-${kind}_seconds)" \
      -v p="$(py_value "$l" cdlinear-${kind}_seconds)" -v c="$(py_value "$l" cdtrain-${kind}_seconds)" \
      -v w="$(py_value "$l" cdtrain-${kind}_write_seconds)" \
      -v pf="$(py_value "$l" cdlinear-${kind}_f)" -v cf="$(py_value "$l" cdtrain-${kind}_f)" \
      "$py_awk"'BEGIN{printf "| %s | %s | `%s` | %s | %s | %.2f | **%s** | **%s** | %+.1e |\n", l, e, o, pt, ct, w,
        ratio(p, c), ratio(p, c - w), (pf - cf) / cf}'
  done
}

# (f - f*)/f* of the softmax problem (-B 1's intercept regularized) for
# the list $tmp/py_LABEL_LIST; f* is the lowest f of cdlinear's multinomial
# fits, the reference fit and cdtrain's dcd-maxent model.
py_softmax_gap() {  # label list
  local fstar
  fstar=$(cat "$tmp/py_$1_cdlinear-multinomial_f" "$tmp/py_$1_reference-softmax_f" \
    "$tmp/py_$1_cdtrain-maxent_f" | sort -g | head -1)
  awk -v f="$(py_value "$1" "$2")" -v s="$fstar" 'BEGIN{printf "%.1e", (f - s) / s}'
}

py_maxent_row() {  # label
  local l=$1 m=cdlinear-multinomial g=sklearn-lbfgs o=cdlinear-lr
  awk -v l="$l" -v mt="$(py_time "$l" ${m}_seconds)" -v gt="$(py_time "$l" ${g}_seconds)" \
    -v m="$(py_value "$l" ${m}_seconds)" -v g="$(py_value "$l" ${g}_seconds)" \
    -v xt="$(py_time "$l" cdtrain-maxent_seconds)" -v zt="$(py_time "$l" cdtrain-s0_seconds)" \
    -v x="$(py_value "$l" cdtrain-maxent_seconds)" -v z="$(py_value "$l" cdtrain-s0_seconds)" \
    -v mm="$(py_value "$l" ${m}_added_kb)" -v gm="$(py_value "$l" ${g}_added_kb)" \
    -v mg="$(py_softmax_gap "$l" ${m}_f)" -v xg="$(py_softmax_gap "$l" cdtrain-maxent_f)" \
    -v gg="$(if [ "$(py_value "$l" ${g}_multinomial)" != 0 ]; then py_softmax_gap "$l" ${g}_f_softmax; else echo "(binary LR)"; fi)" \
    -v ml="$(py_value "$l" ${m}_log_loss)" -v ol="$(py_value "$l" ${o}_log_loss)" \
    -v gl="$(py_value "$l" ${g}_log_loss)" \
    -v ma="$(py_value "$l" ${m}_accuracy)" -v oa="$(py_value "$l" ${o}_accuracy)" \
    -v ga="$(py_value "$l" ${g}_accuracy)" \
    -v mi="$(py_iterations "$l" $m)" -v gi="$(py_iterations "$l" $g)" \
    "$py_awk"'BEGIN{printf "| %s | %s | %s | **%s** | %s | %s | **%s** | %.0f / %.0f | %s / %s / %s | %.4f / %.4f / %.4f | %.2f / %.2f / %.2f | %s / %s |\n",
      l, mt, gt, ratio(m, g), xt, zt, ratio(x, z), mm / 1024, gm / 1024, mg, xg, gg, ml, ol, gl,
      ma, oa, ga, mi, gi}'
}

# The multinomial problem without intercept on the small multi-class sets:
# cdlinear's fit at its default tol and at 1e-8 against lbfgs at 1e-10. One
# process each, every run (seconds each; not kept).
py_softmax_checks() {
  local name svm line classes fl
  for name in dna.scale letter satimage.scale.t; do
    case $name in
      dna.scale) svm=data/dna.scale ;;
      letter)
        svm=$py_dir/letter.scale.all.svm
        if [ ! -f "$svm" ]; then
          mkdir -p "$py_dir"
          xz -dc "$gloss_data/letter.scale.all.xz" >"$svm.part" && mv "$svm.part" "$svm"
        fi ;;
      *) svm=$gloss_data/$name ;;
    esac
    [ -f "$svm" ] || { echo "bench: $svm is missing" >&2; exit 1; }
    line=$(py_run softmax-check "$svm" 1)
    classes=$(cut -d' ' -f1 "$svm" | sort -u | wc -l)
    fl=$(py_field f_lbfgs "$line")
    awk -v n="$name" -v shape="$(shape "$svm")" -v k="$classes" -v fl="$fl" \
      -v fd="$(py_field f_default "$line")" -v ft="$(py_field f_tight "$line")" \
      -v s="$(py_field seconds_default "$line")" \
      'BEGIN{printf "| %s | %s | %d | %.8g | %+.1e | %+.1e | %.2f |\n", n, shape, k, fl, (fd - fl) / fl,
        (ft - fl) / fl, s}'
  done
}

# Each file's Python lists are kept as the peer tables' rows are
# (kept_row()), in $bench_dir/rows/py-KEY, under a key of ./cdtrain,
# build/bench_cd, the package's extension, bench/python_bench.py,
# scikit-learn's version, lbfgs' max_iter, the file and the rounds.
py_key() {  # label svm rounds
  local extension version
  extension=$("$python_bin" -c 'import cdlinear._core as c; print(c.__file__)')
  version=$("$python_bin" -c 'import sklearn; print(sklearn.__version__)')
  printf '%s %s %s %s %s %s' "$(sha256sum ./cdtrain build/bench_cd "$extension" bench/python_bench.py |
    sha256sum)" "$version" "${CDL_PY_LBFGS_MAX_ITER:-}" "$1" "$(stat -L -c '%n %s %Y' "$2")" "$3" |
    sha256sum | cut -c1-24
}

# py_measure(), or the lists an earlier run of the same binaries kept.
py_kept_or_measure() {  # label svm rounds train_svm
  local dir when
  dir=$rows_dir/py-$(py_key "$1" "$2" "$3")
  if [ "$smoke" != 1 ] && [ "${CDL_BENCH_FRESH:-0}" != 1 ] && [ -f "$dir/when" ]; then
    cp "$dir"/py_* "$tmp/"
    cat "$dir/when" >>"$tmp/row_dates"
    echo kept >>"$tmp/row_kinds"
    return 0
  fi
  py_measure "$@"
  when=$(date -u '+%Y-%m-%d %H:%M')
  echo "$when" >>"$tmp/row_dates"
  echo measured >>"$tmp/row_kinds"
  [ "$smoke" != 1 ] || return 0
  rm -rf "$dir.part"
  mkdir -p "$dir.part"
  cp "$tmp/py_$1_"* "$dir.part/"
  echo "$when" >"$dir.part/when"
  rm -rf "$dir"
  mv "$dir.part" "$dir"
}

python_section() {
  [ -x "$python_bin" ] && "$python_bin" -c 'import cdlinear, sklearn' 2>/dev/null ||
    { echo "bench: python: $python_bin cannot import cdlinear and sklearn; run 'make python'" >&2; exit 1; }
  local rounds=${CDL_CORES_ROUNDS:-5} name labels=() files=() svm
  [ "$smoke" != 1 ] || rounds=${CDL_CORES_ROUNDS:-1}
  for name in ${CDL_PY_FILES:-wide tall gloss}; do
    case $name in
      wide) make_cores; py_prepare cores_wide "$cores_wide"; svm=$cores_wide ;;
      tall) make_cores; py_prepare cores_tall "$cores_tall"; svm=$cores_tall ;;
      gloss) make_gloss; py_prepare wordnet-gloss "$gloss_train" "$gloss_test"; svm=$gloss_train ;;
      *) echo "bench: CDL_PY_FILES: wide, tall or gloss, not $name" >&2; exit 2 ;;
    esac
    labels+=("$(basename "$svm" .svm)")
    files+=("$svm")
    py_kept_or_measure "${labels[-1]}" "$svm" "$rounds" "$py_train"
  done
  local k
  echo "### Python: cdlinear's estimators against scikit-learn's"
  echo
  local version
  version=$("$python_bin" -c 'import sklearn; print(sklearn.__version__)')
  echo "Each measurement is a fresh Python process (\`bench/python_bench.py\`; Debian's Python,"
  echo "scikit-learn $version, the package built by \`make python\`), so that its peak memory is"
  echo "its own: it loads the training part into a scipy CSR matrix from an .npz (not timed), fits"
  echo "the estimator at its defaults and scores the model. Rounds: $rounds, each running every"
  echo "process in turn, so that the tools alternate; seconds are medians [min-max] of the rounds,"
  echo "ratios medians over medians. Files: the peer tables' \`cores_wide\` and \`cores_tall\`, each"
  echo "split into a training part and a test part (every 5th line), and WordNet's glosses with"
  echo "their .t file$([ "$smoke" != 1 ] || echo " (the smoke run's slices)")."
  echo
  echo "- fit: \`time.perf_counter()\` around \`fit(X, y)\`; cdlinear with \`n_jobs=2\`, scikit-learn's"
  if [ -z "${CDL_PY_LBFGS_MAX_ITER:-}" ]; then
    echo "  \`LinearSVC()\`, \`LogisticRegression(solver='liblinear')\` and \`LogisticRegression()\` (lbfgs),"
    echo "  all at their defaults, lbfgs' max_iter 100 included: the iterations column marks a fit"
    echo "  that stops there unconverged (\`CDL_PY_LBFGS_MAX_ITER=N\` gives lbfgs another max_iter)."
  else
    echo "  \`LinearSVC()\`, \`LogisticRegression(solver='liblinear')\` and"
    echo "  \`LogisticRegression(max_iter=$CDL_PY_LBFGS_MAX_ITER)\` (lbfgs; \`CDL_PY_LBFGS_MAX_ITER\`)."
  fi
  echo "- fit adds: the peak RSS of the fit (VmHWM, reset before it) minus the RSS before it, in MB."
  echo "- f: every model's primal objective, one formula in numpy from \`coef_\` and \`intercept_\`: the"
  echo "  problem of LIBLINEAR's \`-B 1\`, which scikit-learn's liblinear estimators solve at"
  echo "  intercept_scaling=1, ½(‖w‖² + b²) + C Σ loss(y(wᵀx + b)), C = 1, summed over one-vs-rest's"
  echo "  problems. lbfgs does not regularize its intercept, so its f is of a slightly different"
  echo "  problem, and on more than two classes it solves the multinomial problem (no f given). f* is"
  echo "  the lowest f of all models of the loss and of a reference fit (cdlinear's tron, tol 1e-6)."
  echo "- test accuracy on the test part; \"difference\": cdlinear's minus scikit-learn's (each"
  echo "  estimator's), in points. Iterations: \`n_iter_\` (the largest over classes), * when a round reached"
  echo "  max_iter or scikit-learn warned that it did not converge."
  echo
  echo "LinearSVC (L2-loss SVM, dual CD: LIBLINEAR's \`-s 1\` in both):"
  echo
  echo "| file | cdlinear s | scikit-learn s | cdlinear / scikit-learn | fit adds MB: cdlinear / scikit-learn | memory: cdlinear / scikit-learn | (f - f*)/f*: cdlinear / scikit-learn | test accuracy %: cdlinear / scikit-learn | difference | iterations: cdlinear / scikit-learn |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  for k in "${labels[@]}"; do py_svc_row "$k"; done
  echo
  echo "LogisticRegression (cdlinear and liblinear: tron, \`-s 0\`; lbfgs):"
  echo
  echo "| file | cdlinear s | liblinear s | lbfgs s | cdlinear / liblinear | cdlinear / lbfgs | fit adds MB: cdlinear / liblinear / lbfgs | memory: cdlinear / liblinear | (f - f*)/f*: cdlinear / liblinear / lbfgs | test accuracy %: cdlinear / liblinear / lbfgs | difference: - liblinear / - lbfgs | iterations: cdlinear / liblinear / lbfgs |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
  for k in "${labels[@]}"; do py_lr_row "$k"; done
  echo
  echo "\`load_svmlight_file\` on the whole file: \`cdlinear.load_svmlight_file(path, n_jobs=2)\` against"
  echo "\`sklearn.datasets.load_svmlight_file(path)\`, each in a fresh process; \"load adds\" is the"
  echo "peak RSS of the call minus the RSS before it. \"same\": the two matrices' data, indices,"
  echo "indptr and shape and the labels were equal, dtypes included (checked in another process;"
  echo "else the run fails)."
  echo
  echo "| file | shape | cdlinear s | scikit-learn s | scikit-learn / cdlinear | load adds MB: cdlinear / scikit-learn | same |"
  echo "|---|---|---|---|---|---|---|"
  for k in "${!labels[@]}"; do py_load_row "${labels[$k]}" "${files[$k]}"; done
  echo
  echo "The Python fit (the fit column above) against cdtrain's training time on the training part"
  echo "with the estimator's options: the training part of cdtrain's last line (\"total time ...:"
  echo "reading ..., training ...\"), reading not counted, in the same rounds. That part includes"
  echo "writing the model file, which the Python fit does not do; \"writing\" is the time"
  echo "\`cdlinear.save_model\` takes to write cdtrain's model (the same writer on one thread, where"
  echo "cdtrain uses -m's two: at least cdtrain's share), so the true ratio lies between"
  echo "\"Python / cdtrain\" and \"Python / (cdtrain - writing)\". The last column compares the two"
  echo "models' f (cdtrain's model file scored by the same formula)."
  echo
  echo "| file | estimator | cdtrain options | Python fit s | cdtrain training s | writing s | Python / cdtrain | Python / (cdtrain - writing) | (f_Python - f_cdtrain)/f_cdtrain |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for k in "${labels[@]}"; do py_cdtrain_rows "$k"; done
  echo
  echo "Multinomial (softmax) logistic regression, one model over all classes:"
  echo "\`LogisticRegression(multi_class='multinomial', n_jobs=2)\` (dcd-maxent, dual coordinate"
  echo "descent) against scikit-learn's \`LogisticRegression()\` (lbfgs, multinomial on more than two"
  echo "classes), both at their defaults, in the rounds above; and cdtrain's training time at its"
  echo "defaults, \`${py_cdtrain_maxent[*]}\` against one-vs-rest \`${py_cdtrain_s0[*]}\`. f is the"
  echo "softmax problem's, ½(‖W‖² + ‖b‖²) + C Σ (log Σₖ exp(sᵢₖ) − sᵢ,yᵢ), C = 1; f* the lowest f of"
  echo "cdlinear's fits, cdtrain's model and a fit at tol 1e-6. lbfgs does not regularize its"
  echo "intercept, so its f is of a slightly different problem and may lie below f*; on two classes"
  echo "it solves binary logistic regression, another problem (no f given). Test log-loss:"
  echo "the mean of −log p(yᵢ) over the test part, for one-vs-rest (\`LogisticRegression(n_jobs=2)\`)"
  echo "the normalized logistic probabilities."
  echo
  echo "| file | multinomial s | lbfgs s | multinomial / lbfgs | cdtrain dcd-maxent s | cdtrain -s 0 s | dcd-maxent / -s 0 | fit adds MB: multinomial / lbfgs | (f - f*)/f*: multinomial / cdtrain dcd-maxent / lbfgs | test log-loss: multinomial / one-vs-rest / lbfgs | test accuracy %: multinomial / one-vs-rest / lbfgs | iterations: multinomial / lbfgs |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
  for k in "${labels[@]}"; do py_maxent_row "$k"; done
  echo
  echo "The multinomial problem without intercept (C = 1) on the shared multi-class sets: f of"
  echo "\`LogisticRegression(multi_class='multinomial', fit_intercept=False)\` at its default tol and"
  echo "at tol 1e-8, relative to scikit-learn's lbfgs at tol 1e-10 (the reference)."
  echo
  echo "| file | shape | classes | f (lbfgs, tol 1e-10) | at default tol | at tol 1e-8 | cdlinear fit s (default tol) |"
  echo "|---|---|---|---|---|---|---|"
  py_softmax_checks
  echo
}

# The short table at the top of docs/benchmarks.md, from $tmp/records: the
# default and a few numbers on each file, time and memory against LIBLINEAR
# 2.50 and multi-core LIBLINEAR. Fails if a row it names was not measured.
summary() {
  local rows="wide:cores_wide:default wide:cores_wide:0 wide:cores_wide:2 tall:cores_tall:default
    tall:cores_tall:0 tall:cores_tall:2 gloss:wordnet-gloss:default huge:huge_200m:default
    huge:huge_200m:0"
  local asked_files=" ${CDL_CORES_FILES:-wide tall gloss} " asked_numbers=" ${CDL_CORES_NUMBERS:-default 0 1 2 3 5 6 11} "
  [ "${CDL_BENCH_HUGE:-0}" != 1 ] || asked_files="$asked_files huge "
  echo "## Summary"
  echo
  echo "Median wall seconds of whole runs (reading included) and median peak memory; the tables"
  echo "below give the ranges, the other numbers and the peers' objectives or accuracy."
  echo
  echo "| data | -s | cdtrain -m 2 | multi-core LIBLINEAR -n 2 | LIBLINEAR 2.50 | peak MB: cdtrain / multi-core / 2.50 |"
  echo "|---|---|---|---|---|---|"
  local row label number
  for row in $rows; do
    label=${row#*:}; label=${label%%:*}; number=${row##*:}
    # Only the files and numbers that the run was asked for.
    [[ $asked_files == *" ${row%%:*} "* && $asked_numbers == *" $number "* ]] || continue
    awk -v l="$label" -v n="$number" '
      $1 == l && $2 == n {
        name = "200M nonzeros"
        if (l == "cores_wide") name = "wide synthetic text"
        if (l == "cores_tall") name = "tall synthetic text"
        if (l == "wordnet-gloss") name = "WordNet glosses, 45 classes"
        printf "| %s | %s | %.2f s | %.2f s (%.2fx) | %.2f s (%.2fx) | %.0f / %.0f / %.0f |\n",
          name, n, $3, $4, $3 / $4, $5, $3 / $5, $7 / 1024, $8 / 1024, $9 / 1024
        found = 1
      }
      END { exit !found }' "$tmp/records" ||
      { echo "bench: summary: no measured row for $label -s $number" >&2; exit 1; }
  done
  echo
  echo "(Nx): cdtrain's time over the peer's. Commit $(commit), $(date -u '+%Y-%m-%d'); the"
  echo "machine is in the table above."
  [[ $asked_files == *" huge "* ]] ||
    echo "The 200M-nonzero file was not run (\`CDL_BENCH_HUGE=1 make bench\` runs it)."
  echo
}

# A single section prints the machine first, as a reminder of where it ran.
if [ "$section" != all ]; then echo "Machine: $(machine); $(peers)"; echo; fi

commit() {
  echo "$(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- 2>/dev/null ||
    echo ' (with local changes)')"
}

# The header of docs/benchmarks.md: where, when and against what it ran.
header() {
  echo "# Benchmarks"
  echo
  echo "Written by \`make bench\` (\`bash bench/bench.sh\`); its next run replaces this file. Checks of"
  echo "the models against the peers are in [checks.md](checks.md)."
  echo
  if [ "$smoke" = 1 ]; then
    echo "**A smoke run** (\`CDL_BENCH_SMOKE=1\`): tiny files and one round. It shows that every"
    echo "table fills; its times measure nothing."
    echo
  fi
  echo "| | |"
  echo "|---|---|"
  echo "| machine | $(machine) |"
  echo "| date | $(row_dates) |"
  echo "| commit | $(commit) |"
  echo "| LIBLINEAR 2.50 | \`$(realpath --relative-to=. "$liblinear250_train")\` |"
  echo "| multi-core LIBLINEAR 2.21 | \`$(realpath --relative-to=. "$multicore_train")\` |"
  echo "| LIBLINEAR 2.3 | $(peers), Debian's build (\`liblinear-train\`) |"
  echo "| load average | $load_before before the runs, $(cut -d' ' -f1-3 /proc/loadavg) after |"
  echo
  echo "The two newer peers are built from their release tarballs in ../shared/peers by its"
  echo "\`build.sh\` (their own Makefiles, \`make train predict\`, $(g++ --version | head -1)); the"
  echo "paths above are relative to the repository. Every table runs all tools on the same files"
  echo "in the same run, alternating them round by round, so that a change of load hits all."
  echo
}

# The sections that make bench leaves out, with the command of each.
other_sections() {
  echo "## Not in this file"
  echo
  echo "\`make bench\` leaves these out to keep its time: most compare with Debian's LIBLINEAR 2.3"
  echo "alone or measure parts of a run; the last needs Open MPI. Each prints its table to standard"
  echo "output; the header of bench/bench.sh says what each measures and how long it takes."
  echo
  echo "| what | command |"
  echo "|---|---|"
  [[ ${CDL_BENCH_HUGE:-0} == 1 || " ${CDL_CORES_FILES:-} " == *" huge "* ]] ||
    echo "| the 200M-nonzero file against the peers (about four hours) | \`CDL_BENCH_HUGE=1 make bench\` |"
  echo "| data/ sets, objective and accuracy | \`bash bench/bench.sh small\` |"
  echo "| the 500 MB rcv1-like file: reading and a default run | \`bash bench/bench.sh large\` |"
  echo "| TRON and CD for logistic regression | \`bash bench/bench.sh solvers\` |"
  echo "| malformed files and extreme C | \`bash bench/bench.sh robust\` |"
  echo "| the floor of a CD epoch | \`bash bench/bench.sh sweep\` |"
  echo "| the wide shape: 20 classes and cross-validation | \`bash bench/bench.sh wide\` |"
  echo "| reading, a pipe and the cache | \`bash bench/bench.sh reading\`, \`bash bench/bench.sh pipe\` |"
  echo "| dual CD and -r l1 | \`bash bench/bench.sh dual\`, \`bash bench/bench.sh l1\` |"
  echo "| cdtrain-mpi on the 200M-nonzero file | \`make mpi && bash bench/bench.sh mpi\` |"
  echo
}

# cdtrain-mpi against cdtrain on the 200M-nonzero file (docs/distributed.md).
mpi() {
  [ -x ./cdtrain-mpi ] && command -v mpirun >/dev/null ||
    { echo "bench: mpi needs ./cdtrain-mpi and mpirun (make mpi)" >&2; exit 1; }
  local file=$huge_file
  case ${CDL_MPI_FILE:-huge} in
    huge) make_huge ;;
    wide) make_wide; file=$wide_file ;;
    tall) make_rcv1like; file=$bench_dir/rcv1like_500mb.svm ;;
    *) echo "bench: CDL_MPI_FILE is huge, wide or tall" >&2; exit 2 ;;
  esac
  build_peers
  local rounds=${CDL_MPI_ROUNDS:-5} r k threads log
  local options peer_options
  read -ra options <<<"${CDL_MPI_OPTIONS:--s 0}"
  read -ra peer_options <<<"${CDL_MPI_PEER_OPTIONS:--s 0}"
  # Open MPI binds a rank to one core unless told: -m's threads need them all.
  local mpirun=(mpirun --oversubscribe --bind-to none)
  [ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  for r in $(seq "$rounds"); do
    /usr/bin/time -f "%e s %M KB" ./cdtrain "${options[@]}" -m 2 "$file" "$tmp/one.model" \
      >"$tmp/one_$r.log" 2>&1
    /usr/bin/time -f "%e s %M KB" "$multicore_train" -q "${peer_options[@]}" -n 2 "$file" \
      "$tmp/mc.model" >"$tmp/mc_$r.log" 2>&1
    /usr/bin/time -f "%e s %M KB" "$liblinear250_train" -q "${peer_options[@]}" "$file" \
      "$tmp/l50.model" >"$tmp/l50_$r.log" 2>&1
    for k in 1 2 4; do
      threads=$([ "$k" = 1 ] && echo 2 || echo 1)
      log="$tmp/k${k}_$r.log"
      "${mpirun[@]}" -np "$k" /usr/bin/time -f "%e s %M KB" ./cdtrain-mpi "${options[@]}" \
        -m "$threads" "$file" "$tmp/k$k.model" >"$log" 2>&1
      cmp -s "$tmp/one.model" "$tmp/k$k.model" && echo "same model" >>"$log"
    done
  done
  echo "### cdtrain-mpi ${options[*]} on $(basename "$file") (\`bash bench/bench.sh mpi\`, $rounds rounds; the peers ${peer_options[*]})"
  echo
  echo "| run | whole run | solve | peak MB per rank | rank 0 sent in the solve | cdtrain's model |"
  echo "|---|---|---|---|---|---|"
  local name pattern seconds solve mb sent same
  for name in mc l50 one k1 k2 k4; do
    pattern="$tmp/${name}_*.log"
    # The slowest rank's whole run, the solve, the largest rank.
    seconds=$(for f in $pattern; do grep -oE '^[0-9.]+ s [0-9]+ KB' "$f" | sort -g | tail -1 | cut -d' ' -f1; done | median_range)
    # The peers print no solve time (-q).
    solve=$(for f in $pattern; do grep -oE '^[a-z]+: [0-9]+ outer iterations.*, [0-9.]+m?s, ' "$f" | grep -oE '[0-9.]+m?s, $' | awk '{v = $1; if (v ~ /ms/) v /= 1000; print v + 0}' || true; done | median_range)
    mb=$(for f in $pattern; do grep -oE '^[0-9.]+ s [0-9]+ KB' "$f" | awk '{print $3}'; done | sort -g | tail -1 | awk '{printf "%.0f", $1 / 1024}')
    sent=$(grep -hoE 'and [0-9.]+ MB in the solve' $pattern 2>/dev/null | head -1 | grep -oE '[0-9.]+ MB' || true)
    same=$(case $name in one | mc | l50) echo "" ;; *) [ "$(grep -l 'same model' $pattern | wc -l)" = "$rounds" ] && echo yes || echo NO ;; esac)
    [ -n "$solve" ] || solve=0
    case $name in
      mc) name="multi-core LIBLINEAR -n 2" ;; l50) name="LIBLINEAR 2.50" ;;
      one) name="cdtrain -m 2" ;; k1) name="1 rank, -m 2" ;; k2) name="2 ranks, -m 1" ;; k4) name="4 ranks, -m 1" ;;
    esac
    echo "| $name | $(awk '{printf "%.1f s [%.1f-%.1f]", $1, $2, $3}' <<<"$seconds") | $(awk '{if ($1 > 0) printf "%.1f s", $1}' <<<"$solve") | $mb | ${sent:-} | $same |"
  done
  echo
}

case $section in
  all)
    # The tables first (the summary is made from them), then the file, which
    # is renamed into place only when every table is complete.
    load_before=$(cut -d' ' -f1-3 /proc/loadavg)
    cores >"$tmp/body"
    python_section >>"$tmp/body"
    new=$(mktemp "$(dirname "$out")/.$(basename "$out").XXXXXX")
    trap 'rm -rf "$tmp"; rm -f "$new"' EXIT
    { header; summary; cat "$tmp/body"; other_sections; } >"$new"
    chmod 644 "$new"
    mv "$new" "$out"
    echo "bench: wrote $out" >&2
    ;;
  small) small ;;
  l1) load before; l1; load after ;;
  large) large ;;
  solvers) solvers ;;
  robust) robust ;;
  sweep) load before; sweep; load after ;;
  wide) load before; wide; load after ;;
  huge) load before; huge; load after ;;
  dual) load before; dual; load after ;;
  reading) load before; reading; load after ;;
  pipe) load before; pipe; load after ;;
  cores) load before; cores; load after ;;
  python) load before; python_section; load after ;;
  mpi) load before; mpi; load after ;;
  *) echo "usage: $0 [all|small|large|solvers|robust|sweep|wide|huge|reading|pipe|dual|l1|cores|python|mpi]" >&2; exit 2 ;;
esac
