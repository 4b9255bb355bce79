# Helpers the check scripts source (checks/lib.sh does nothing alone): a
# value a check compares must have been read, and a missing input fails the
# check unless the caller asked for a skip.
#
#   numbers WHAT VALUE [WHAT VALUE...]
#                 exits 1, naming it, at the first VALUE that is not a
#                 decimal number (empty, or text a parse left behind).
#   missing WHAT  a data file, tool or peer is absent: exits 1, or, with
#                 CDL_ALLOW_SKIP=1 in the environment, prints "skip  WHAT"
#                 and counts it in $skipped.
#   summary FAILURES
#                 the last line: exits 1 if a check failed, and says "all
#                 checks passed" only when none failed and none was skipped.

skipped=0

numbers() {
  while [[ $# -ge 2 ]]; do
    if ! [[ $2 =~ ^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$ ]]; then
      echo "$(basename "$0"): could not read $1 (got '$2')" >&2
      exit 1
    fi
    shift 2
  done
}

missing() {
  if [[ ${CDL_ALLOW_SKIP:-0} == 1 ]]; then
    echo "skip  $1"
    skipped=$((skipped + 1))
  else
    echo "$(basename "$0"): $1 is missing (CDL_ALLOW_SKIP=1 skips it)" >&2
    exit 1
  fi
}

summary() {
  if [[ $1 -gt 0 ]]; then
    echo "$1 check(s) failed, $skipped skipped"
    exit 1
  elif [[ $skipped -gt 0 ]]; then
    echo "no check failed, but $skipped skipped (CDL_ALLOW_SKIP=1): not all checks ran"
  else
    echo "all checks passed"
  fi
}
