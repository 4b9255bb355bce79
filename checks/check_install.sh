#!/usr/bin/env bash
# Checks `make install` and `make uninstall` in scratch prefixes (make test
# runs it, after the tools and the library are built):
#   - install PREFIX=P puts exactly the tools, cdlinear.h, libcdlinear.a and
#     the three man pages under P, and DESTDIR=D PREFIX=/usr under D/usr;
#   - each man page renders without a warning (groff -man -ww, and man -l);
#   - docs/library-example.cpp compiles against the installed header and
#     library alone, and runs;
#   - uninstall removes those files and nothing else.
# Needs groff and man (CI's .ci/run installs groff-base and man-db).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "check_install.sh: $*" >&2
  exit 1
}
for tool in groff man g++; do
  command -v "$tool" >/dev/null || fail "needs $tool (apt-get install groff-base man-db g++)"
done

make_quietly() { ${MAKE:-make} --no-print-directory -s "$@" >/dev/null; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

expected="bin/cdpredict
bin/cdscale
bin/cdtrain
include/cdlinear.h
lib/libcdlinear.a
share/man/man1/cdpredict.1
share/man/man1/cdscale.1
share/man/man1/cdtrain.1"

files_under() { (cd "$1" && find . -type f | sed 's|^\./||' | sort); }

# PREFIX alone.
prefix="$scratch/prefix"
make_quietly install PREFIX="$prefix"
[ "$(files_under "$prefix")" = "$expected" ] ||
  fail "install PREFIX=$prefix installed:"$'\n'"$(files_under "$prefix")"$'\n'"expected:"$'\n'"$expected"
for tool in cdtrain cdpredict cdscale; do
  [ -x "$prefix/bin/$tool" ] || fail "$prefix/bin/$tool is not executable"
  cmp -s "$tool" "$prefix/bin/$tool" || fail "$prefix/bin/$tool differs from ./$tool"
done
cmp -s src/cdlinear.h "$prefix/include/cdlinear.h" || fail "the installed cdlinear.h differs"

# The man pages render without warnings, by groff and by man.
for page in "$prefix"/share/man/man1/*.1; do
  warnings=$(groff -man -ww -z "$page" 2>&1) || fail "groff failed on $page: $warnings"
  [ -z "$warnings" ] || fail "groff warns about $page:"$'\n'"$warnings"
  warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null) ||
    fail "man -l failed on $page: $warnings"
  [ -z "$warnings" ] || fail "man --warnings warns about $page:"$'\n'"$warnings"
done

# The example against the installed header and library only.
g++ -std=c++17 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror docs/library-example.cpp \
  -I"$prefix/include" -L"$prefix/lib" -lcdlinear -pthread -o "$scratch/example" ||
  fail "docs/library-example.cpp does not build against $prefix alone"
mkdir "$scratch/run"
output=$("$scratch/example" data/heart_scale "$scratch/run") ||
  fail "the example built against $prefix failed:"$'\n'"$output"
grep -q '^caught: line 2: ' <<<"$output" || fail "the example's output lacks the caught error:"$'\n'"$output"

# Uninstall removes exactly what install put there.
touch "$prefix/bin/other-tool"
make_quietly uninstall PREFIX="$prefix"
[ "$(files_under "$prefix")" = "bin/other-tool" ] ||
  fail "uninstall PREFIX=$prefix left:"$'\n'"$(files_under "$prefix")"

# DESTDIR: the files go under DESTDIR/PREFIX, and uninstall takes the same.
stage="$scratch/stage"
make_quietly install DESTDIR="$stage" PREFIX=/usr
[ "$(files_under "$stage/usr")" = "$expected" ] ||
  fail "install DESTDIR=$stage PREFIX=/usr installed:"$'\n'"$(files_under "$stage")"
make_quietly uninstall DESTDIR="$stage" PREFIX=/usr
[ -z "$(files_under "$stage")" ] || fail "uninstall DESTDIR=$stage left:"$'\n'"$(files_under "$stage")"

echo "check_install.sh: install, man pages, library example and uninstall OK"
