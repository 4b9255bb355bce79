#!/usr/bin/env bash
# The tests of cdtrain-mpi (make test-mpi): mpirun on this machine, ranks
# oversubscribed on its cores, loopback only.
#   - For each case, K = 1, 2 and 3 ranks write the model of cdtrain on one
#     machine, byte for byte (two or more classes, -B, -R, -wi, -W with
#     weights 0, -s 0, 2, 11 by blocks of rows, -s 1 and 3 by the dual CD's
#     parts or on rank 0 alone, -s 5, 6 and the default by the primal CD's
#     blocks of features or on rank 0 alone, --partitions, real text, and a
#     generated file whose rows fall into 8 blocks); a bad -W file is
#     cdtrain's error, said once.
#   - On real text (RCV1), -s 0, -s 1 and the default (the primal CD) on 3
#     ranks stop within 1% of f*, cdtrain's objective at a tolerance 10^4 to
#     10^5 times smaller.
#   - -v on 1, 2 and 3 ranks prints cdtrain's fold lines and accuracy (tron
#     and the primal CD from the lead fold, the dual CD's parts and one
#     part, -W, 3 classes, a regression's mean squared error), and -C
#     cdtrain's search lines and best C (and p).
#   - A bad line in the last rank's range, and a value too large to train
#     on there: every rank exits 1, the message is cdtrain's, with the line
#     in the whole file, and no model file is left.
#   - More ranks than lines (empty ranges) train the model of one machine.
#   - --shards: one file a rank gives the model of their concatenation; a bad
#     line is named in its shard, and a missing shard is an error.
#   - A solver or option that does not run distributed (-i, -s 2 on wide
#     data without --partitions) is a usage error (exit 2) that says so.
#   - A rank killed with SIGKILL ends the job with a non-zero status (mpi()'s
#     timeout only guards against a hang), and no model file is left.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() {
  echo "test_mpi.sh: FAIL: $*" >&2
  exit 1
}
[ -x ./cdtrain-mpi ] && [ -x ./cdtrain ] || fail "run make mpi and make first"
command -v mpirun >/dev/null || fail "needs mpirun (apt-get install openmpi-bin)"

# Open MPI refuses root unless told; CI runs as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Loopback and shared memory only, and quiet about the missing fabrics.
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
# The timeout is a hang guard only, generous for a loaded machine (a -v run
# on a9a took over 120 s beside other builds); no test asserts a time.
mpi() { timeout 600 mpirun --oversubscribe -np "$@"; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
passed=0

# same_bits NAME FILE OPTIONS...: cdtrain-mpi on 1, 2 and 3 ranks against
# cdtrain.
same_bits() {
  local name=$1 file=$2
  shift 2
  ./cdtrain -q "$@" "$file" "$scratch/one.model" || fail "$name: cdtrain failed"
  for k in 1 2 3; do
    rm -f "$scratch/mpi.model"
    mpi "$k" ./cdtrain-mpi -q "$@" "$file" "$scratch/mpi.model" >"$scratch/log" 2>&1 ||
      fail "$name: cdtrain-mpi on $k ranks failed: $(cat "$scratch/log")"
    cmp -s "$scratch/one.model" "$scratch/mpi.model" ||
      fail "$name: the model of $k ranks differs from cdtrain's"
  done
  passed=$((passed + 1))
}

"${MAKE:-make}" -s --no-print-directory build/gen_rcv1like >/dev/null
./build/gen_rcv1like --seed 3 --rows 30000 --features 5000 --avg-terms 40 "$scratch/tall.svm" \
  >/dev/null
./build/gen_rcv1like --seed 4 --rows 20000 --features 5000 --avg-terms 40 --classes 20 \
  "$scratch/classes.svm" >/dev/null
./build/gen_rcv1like --seed 5 --rows 3000 --features 30000 --avg-terms 40 "$scratch/wide.svm" \
  >/dev/null

same_bits "a9a -s 0" data/a9a -s 0
same_bits "a9a -s 2 -B 1" data/a9a -s 2 -B 1
same_bits "a9a -s 2 -B 1 -R" data/a9a -s 2 -B 1 -R
same_bits "a9a -s 0 --partitions 13" data/a9a -s 0 --partitions 13
same_bits "a9a -s 11 -p 0.2" data/a9a -s 11 -p 0.2
same_bits "dna.scale -s 0 (3 classes) -w1 2" data/dna.scale -s 0 -w1 2
same_bits "heart_scale -s 2 -c 4" data/heart_scale -s 2 -c 4
same_bits "generated -s 0 -m 2" "$scratch/tall.svm" -s 0 -m 2
same_bits "generated -s 2 -e 0.001" "$scratch/tall.svm" -s 2 -e 0.001
same_bits "generated, 20 classes, -s 2" "$scratch/classes.svm" -s 2
mpi 2 ./cdtrain-mpi -s 0 "$scratch/tall.svm" "$scratch/mpi.model" >"$scratch/log" 2>&1
grep -q "instances in 8 blocks of rows" "$scratch/log" ||
  fail "the generated file is not cut into 8 blocks: $(cat "$scratch/log")"

# The partitioned dual CD: parts on the ranks (more parts than ranks, and
# fewer), or one part, the serial dual CD on rank 0. The ranks keep their
# parts' rows: cdtrain's model with --fixed-parts.
same_bits "a9a -s 1 -e 0.5 --partitions 3" data/a9a -s 1 -e 0.5 --partitions 3 --fixed-parts
same_bits "a9a -s 3 -B 1 --partitions 2" data/a9a -s 3 -B 1 --partitions 2 --fixed-parts
same_bits "a9a -s 1, one part" data/a9a -s 1
same_bits "dna.scale -s 1 (3 classes) -w2 3 --partitions 5" data/dna.scale -s 1 -w2 3 \
  --partitions 5 --fixed-parts
same_bits "generated -s 3 -m 2 --partitions 4" "$scratch/tall.svm" -s 3 -m 2 --partitions 4 \
  --fixed-parts
same_bits "rcv1_small -s 1 --partitions 4" data/rcv1_small -s 1 --partitions 4 --fixed-parts
same_bits "rcv1_small -s 0" data/rcv1_small -s 0
same_bits "wide, the default (dual CD)" "$scratch/wide.svm"
same_bits "wide -s 3 --partitions 3" "$scratch/wide.svm" -s 3 --partitions 3 --fixed-parts

# The partitioned primal CD (the default on data that is not wide, -s 5 and
# -s 6): blocks of features on the ranks (more blocks than ranks, and
# fewer), or one block, the serial CD on rank 0.
same_bits "a9a, the default --partitions 3" data/a9a --partitions 3
same_bits "a9a, the default, one block" data/a9a
same_bits "a9a -s 5 -B 1 --partitions 4" data/a9a -s 5 -B 1 --partitions 4
same_bits "a9a -s 6 --partitions 2" data/a9a -s 6 --partitions 2
same_bits "dna.scale, the default (3 classes) -w3 2 --partitions 5" data/dna.scale -w3 2 \
  --partitions 5
same_bits "generated, the default (2 blocks)" "$scratch/tall.svm"
same_bits "rcv1_small, the default --partitions 3" data/rcv1_small --partitions 3
mpi 2 ./cdtrain-mpi "$scratch/tall.svm" "$scratch/mpi.model" >"$scratch/log" 2>&1
grep -q "instances in 2 blocks of features" "$scratch/log" ||
  fail "the generated file's default is not 2 blocks of features: $(cat "$scratch/log")"

# -v and -C: the folds' lines and the accuracy of cdtrain's cross
# validation, and its search's lines and best C, on 1, 2 and 3 ranks (the
# folds laid out over the ranks one after another).
same_cv() {
  local name=$1 file=$2
  shift 2
  ./cdtrain "$@" "$file" >"$scratch/one.out" 2>"$scratch/one.err" || fail "$name: cdtrain failed"
  grep -q "Cross Validation\|Best C" "$scratch/one.out" ||
    fail "$name: $(cat "$scratch/one.err")"
  for k in 1 2 3; do
    mpi "$k" ./cdtrain-mpi "$@" "$file" >"$scratch/mpi.out" 2>"$scratch/mpi.err" ||
      fail "$name: cdtrain-mpi on $k ranks failed: $(cat "$scratch/mpi.err")"
    cmp -s "$scratch/one.out" "$scratch/mpi.out" ||
      fail "$name, $k ranks: $(cat "$scratch/mpi.out") against cdtrain's $(cat "$scratch/one.out")"
    diff <(grep '^fold' "$scratch/one.err" | sed 's/, [0-9.]* ms$//') \
      <(grep '^fold' "$scratch/mpi.err" | sed 's/, [0-9.]* ms$//') >/dev/null ||
      fail "$name, $k ranks: other fold lines than cdtrain's: $(cat "$scratch/mpi.err")"
  done
  passed=$((passed + 1))
}
same_cv "a9a -s 0 -v 3 (tron, from the lead fold)" data/a9a -s 0 -v 3
same_cv "dna.scale -s 1 -v 4 --partitions 3 (3 classes)" data/dna.scale -s 1 -v 4 --partitions 3 \
  --fixed-parts
same_cv "heart_scale -s 3 -v 5 (one part)" data/heart_scale -s 3 -v 5
same_cv "heart_scale -s 0 -C (tron, each C from the last)" data/heart_scale -s 0 -C
same_cv "a9a -v 4 --partitions 3 (the primal CD, from the lead fold)" data/a9a -v 4 \
  --partitions 3
same_cv "heart_scale -s 6 -C --partitions 2 (each C from the last)" data/heart_scale -s 6 -C \
  --partitions 2
same_cv "a9a -s 11 -v 3 (a regression, tron from the lead fold)" data/a9a -s 11 -v 3
same_cv "heart_scale -s 11 -C -p 0.3 (C and p)" data/heart_scale -s 11 -C -p 0.3
same_cv "heart_scale -s 1 -C -c 0.25 --partitions 3 --max-iter 50" data/heart_scale -s 1 -C \
  -c 0.25 --partitions 3 --max-iter 50 --fixed-parts

# The objective of a run on 3 ranks (LOG, its progress) within 1% of f*,
# that of cdtrain with OPTIONS.
objective() { sed -n 's/^[a-z]*: [0-9]* outer iterations, f \([^,]*\),.*/\1/p' "$1"; }
near_optimum() {
  local name=$1 log=$2
  shift 2
  ./cdtrain "$@" data/rcv1_small "$scratch/best.model" >"$scratch/best.log" 2>&1 ||
    fail "$name: cdtrain $*"
  awk -v f="$(objective "$log")" -v best="$(objective "$scratch/best.log")" \
    'BEGIN { exit !(f != "" && best > 0 && f >= best * (1 - 1e-9) && f <= best * 1.01) }' ||
    fail "$name: f $(objective "$log") is not within 1% of f* $(objective "$scratch/best.log")"
  passed=$((passed + 1))
}
mpi 3 ./cdtrain-mpi -s 1 --partitions 4 data/rcv1_small "$scratch/mpi.model" >"$scratch/log" 2>&1
grep -q "instances in 4 fixed parts" "$scratch/log" || fail "rcv1_small -s 1: $(cat "$scratch/log")"
near_optimum "rcv1_small -s 1 on 3 ranks" "$scratch/log" -s 1 -e 1e-6
mpi 3 ./cdtrain-mpi -s 0 data/rcv1_small "$scratch/mpi.model" >"$scratch/log" 2>&1
near_optimum "rcv1_small -s 0 on 3 ranks" "$scratch/log" -s 0 -e 1e-7
mpi 3 ./cdtrain-mpi --partitions 4 data/rcv1_small "$scratch/mpi.model" >"$scratch/log" 2>&1
grep -q "instances in 4 blocks of features" "$scratch/log" || fail "rcv1_small: $(cat "$scratch/log")"
near_optimum "rcv1_small, the default on 3 ranks" "$scratch/log" -e 1e-7

# -W: instance weights, some 0 (rows that do not count, which the blocks
# skip); a bad weight is cdtrain's error.
awk '{ print (NR % 7 == 0) ? 0 : (NR % 3 + 0.5) }' data/a9a >"$scratch/a9a.w"
same_bits "a9a -s 0 -W" data/a9a -s 0 -W "$scratch/a9a.w"
same_bits "a9a -s 2 -W" data/a9a -s 2 -W "$scratch/a9a.w"
same_cv "a9a -s 2 -B 1 -v 2 -W" data/a9a -s 2 -B 1 -v 2 -W "$scratch/a9a.w"
same_bits "a9a -s 1 -e 0.5 -W --partitions 3" data/a9a -s 1 -e 0.5 -W "$scratch/a9a.w" \
  --partitions 3 --fixed-parts
same_bits "a9a, the default -W --partitions 3" data/a9a -W "$scratch/a9a.w" --partitions 3
sed -i '5s/.*/-1/' "$scratch/a9a.w"
expected=$(./cdtrain -s 0 -W "$scratch/a9a.w" data/a9a "$scratch/bad.model" 2>&1 | head -1 || true)
status=0
mpi 3 ./cdtrain-mpi -s 0 -W "$scratch/a9a.w" data/a9a "$scratch/bad.model" >"$scratch/log" 2>&1 ||
  status=$?
[ "$status" = 1 ] && grep -qF "cdtrain-mpi: error: ${expected#cdtrain: error: }" "$scratch/log" ||
  fail "a bad weight: exit $status: $(cat "$scratch/log")"
[ "$(grep -c "a9a.w:5" "$scratch/log")" = 1 ] || fail "a bad weight: not said once"

# A bad value near the end: in the last rank's range.
lines=$(wc -l <data/a9a)
bad_line=$((lines - 3))
awk -v n="$bad_line" 'NR == n { sub(/:1 /, ":1x ") } { print }' data/a9a >"$scratch/bad.svm"
expected=$(./cdtrain -s 0 "$scratch/bad.svm" "$scratch/bad.model" 2>&1 | head -1 || true)
case $expected in
  *"bad.svm:$bad_line:"*) ;;
  *) fail "cdtrain's message does not name line $bad_line: $expected" ;;
esac
for k in 1 3; do
  status=0
  mpi "$k" ./cdtrain-mpi -s 0 "$scratch/bad.svm" "$scratch/bad.model" >"$scratch/log" 2>&1 ||
    status=$?
  [ "$status" = 1 ] || fail "a bad line on $k ranks: exit $status, not 1"
  grep -qF "cdtrain-mpi: error: ${expected#cdtrain: error: }" "$scratch/log" ||
    fail "a bad line on $k ranks: no message naming line $bad_line: $(cat "$scratch/log")"
  [ ! -e "$scratch/bad.model" ] || fail "a bad line on $k ranks left a model file"
done
passed=$((passed + 1))

# --shards: one file a rank, the data their concatenation; a bad line is
# named in its shard; a missing shard is an error.
split -n l/3 -d -a 1 data/a9a "$scratch/shard."
./cdtrain -q -s 0 data/a9a "$scratch/one.model"
rm -f "$scratch/mpi.model"
mpi 3 ./cdtrain-mpi -q -s 0 --shards "$scratch/shard" "$scratch/mpi.model" >"$scratch/log" 2>&1 ||
  fail "--shards on 3 ranks: $(cat "$scratch/log")"
cmp -s "$scratch/one.model" "$scratch/mpi.model" || fail "--shards: another model than cdtrain's"
sed -i '5s/:1 /:1x /' "$scratch/shard.2"
status=0
mpi 3 ./cdtrain-mpi -s 0 --shards "$scratch/shard" "$scratch/bad.model" >"$scratch/log" 2>&1 ||
  status=$?
[ "$status" = 1 ] || fail "a bad line in a shard: exit $status"
grep -q "shard.2:5: " "$scratch/log" || fail "a bad line in a shard: $(cat "$scratch/log")"
sed -i '5s/:1x /:1 /' "$scratch/shard.2"
status=0
mpi 4 ./cdtrain-mpi -s 0 --shards "$scratch/shard" "$scratch/bad.model" >"$scratch/log" 2>&1 ||
  status=$?
[ "$status" = 1 ] && grep -q "shard.3: cannot open: no such file" "$scratch/log" ||
  fail "a missing shard: exit $status: $(cat "$scratch/log")"
[ ! -e "$scratch/bad.model" ] || fail "a bad shard left a model file"
passed=$((passed + 1))

# A value too large to train on, in the last rank's range: cdtrain's
# message, its line in the whole file.
awk -v n="$bad_line" 'NR == n { sub(/:1 /, ":1e300 ") } { print }' data/a9a >"$scratch/large.svm"
expected=$(./cdtrain -s 0 "$scratch/large.svm" "$scratch/bad.model" 2>&1 | head -1 || true)
case $expected in
  *"large.svm:$bad_line: feature "*" (value 1e+300) is too large"*) ;;
  *) fail "cdtrain on a value too large: $expected" ;;
esac
status=0
mpi 3 ./cdtrain-mpi -s 0 "$scratch/large.svm" "$scratch/bad.model" >"$scratch/log" 2>&1 || status=$?
[ "$status" = 1 ] || fail "a value too large on 3 ranks: exit $status"
grep -qF "cdtrain-mpi: error: ${expected#cdtrain: error: }" "$scratch/log" ||
  fail "a value too large on 3 ranks: $(cat "$scratch/log")"
[ ! -e "$scratch/bad.model" ] || fail "a value too large left a model file"
passed=$((passed + 1))

# More ranks than lines.
printf '+1 1:1 2:3\n-1 2:1\n' >"$scratch/two.svm"
same_bits "two lines on up to 3 ranks" "$scratch/two.svm" -s 0
rm -f "$scratch/mpi.model"
mpi 5 ./cdtrain-mpi -q -s 0 "$scratch/two.svm" "$scratch/mpi.model" || fail "two lines, 5 ranks"
cmp -s "$scratch/one.model" "$scratch/mpi.model" || fail "two lines, 5 ranks: another model"

# Usage errors: exit 2, with the reason.
usage_error() {
  local expected=$1 status=0
  shift
  mpi 2 ./cdtrain-mpi "$@" >"$scratch/log" 2>&1 || status=$?
  [ "$status" = 2 ] || fail "cdtrain-mpi $*: exit $status, not 2"
  grep -qF -- "$expected" "$scratch/log" || fail "cdtrain-mpi $*: $(cat "$scratch/log")"
}
usage_error "runs the whole-vector solvers tron and newton" -s 4 data/a9a "$scratch/x.model"
usage_error "this run's solver is dcd (for 30000 features > 3000 instances" -s 2 \
  "$scratch/wide.svm" "$scratch/x.model"
usage_error "this run's solver is dcd-lr" -s 7 data/a9a "$scratch/x.model"
usage_error "-i does not run distributed" -i "$scratch/one.model" data/a9a "$scratch/x.model"
[ ! -e "$scratch/x.model" ] || fail "a usage error left a model file"
passed=$((passed + 1))

# A rank killed while the ranks train (20 classes, one after another): the
# job ends, non-zero; no model file. How long it takes is not asserted: a
# loaded machine can take any time, and mpi()'s timeout catches a hang.
mpi 3 ./cdtrain-mpi -s 0 -e 1e-6 "$scratch/classes.svm" "$scratch/killed.model" \
  >"$scratch/log" 2>&1 &
job=$!
for _ in $(seq 400); do
  grep -q "^class" "$scratch/log" && break
  sleep 0.05
done
victim=$(pgrep -f "^./cdtrain-mpi .*$scratch/killed.model" | sed -n 2p || true)
[ -n "$victim" ] || fail "no rank to kill: $(cat "$scratch/log")"
kill -9 "$victim"
status=0
wait "$job" || status=$?
[ "$status" != 0 ] || fail "a killed rank: the job exited 0: $(cat "$scratch/log")"
[ "$status" != 124 ] || fail "a killed rank: the job hung until mpi()'s timeout"
[ ! -e "$scratch/killed.model" ] || fail "a killed rank left a model file"
passed=$((passed + 1))

echo "test_mpi.sh: $passed checks passed"
