#!/usr/bin/env bash
# Checks `make install` and `make uninstall` in scratch prefixes (make test
# runs it, after the tools and the library are built):
#   - install PREFIX=P puts exactly the tools, cdlinear.h and cdlinear_c.h,
#     libcdlinear.a, libcdlinear.so with its soname links, the pkg-config
#     files and the three man pages under P, and DESTDIR=D PREFIX=/usr under
#     D/usr;
#   - the shared library exports the C interface's functions and no other;
#   - each man page renders without a warning (groff -man -ww, and man -l);
#   - docs/library-example.cpp compiles against the installed files alone
#     (pkg-config cdlinear-cxx), and runs;
#   - the installed cdlinear_c.h compiles as C89; docs/library-example.c
#     compiles against the installed files alone (pkg-config cdlinear), with
#     the shared library (which then writes cdtrain's model, byte for byte,
#     for every LIBLINEAR number) and, with --static, with the archive (-s 2);
#   - uninstall removes those files and nothing else.
# Needs groff, man and pkg-config (CI's .ci/run installs groff-base, man-db
# and pkgconf).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "check_install.sh: $*" >&2
  exit 1
}
for tool in groff man g++ gcc nm readelf pkg-config; do
  command -v "$tool" >/dev/null ||
    fail "needs $tool (apt-get install groff-base man-db g++ binutils pkgconf)"
done

make_quietly() { ${MAKE:-make} --no-print-directory -s "$@" >/dev/null; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The shared library's version is the tools' (tools/version.h).
version=$(sed -n 's/.*kVersion = "\([0-9.]*\)".*/\1/p' tools/version.h)
[ -n "$version" ] || fail "no version in tools/version.h"
major=${version%%.*}

expected="bin/cdpredict
bin/cdscale
bin/cdtrain
include/cdlinear.h
include/cdlinear_c.h
lib/libcdlinear.a
lib/libcdlinear.so -> libcdlinear.so.$major
lib/libcdlinear.so.$major -> libcdlinear.so.$version
lib/libcdlinear.so.$version
lib/pkgconfig/cdlinear-cxx.pc
lib/pkgconfig/cdlinear.pc
share/man/man1/cdpredict.1
share/man/man1/cdscale.1
share/man/man1/cdtrain.1"

# Files and symbolic links (with their targets) under a folder.
files_under() {
  (cd "$1" && find . -mindepth 1 \( -type f -printf '%P\n' -o -type l -printf '%P -> %l\n' \) |
    LC_ALL=C sort)
}

# PREFIX alone.
prefix="$scratch/prefix"
make_quietly install PREFIX="$prefix"
[ "$(files_under "$prefix")" = "$expected" ] ||
  fail "install PREFIX=$prefix installed:"$'\n'"$(files_under "$prefix")"$'\n'"expected:"$'\n'"$expected"
for tool in cdtrain cdpredict cdscale; do
  [ -x "$prefix/bin/$tool" ] || fail "$prefix/bin/$tool is not executable"
  cmp -s "$tool" "$prefix/bin/$tool" || fail "$prefix/bin/$tool differs from ./$tool"
done
for header in cdlinear.h cdlinear_c.h; do
  cmp -s "src/$header" "$prefix/include/$header" || fail "the installed $header differs"
done
so="$prefix/lib/libcdlinear.so.$version"
soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libcdlinear.so.$major" ] || fail "$so has soname '$soname'"

# The shared library exports exactly the functions cdlinear_c.h declares.
declared=$(sed -n 's/^CDL_API [^(]*[ *]\(cdl_[a-z0-9_]*\)(.*/\1/p' src/cdlinear_c.h | LC_ALL=C sort)
exported=$(nm -D --defined-only "$so" | awk '{print $3}' | LC_ALL=C sort)
[ -n "$declared" ] || fail "no CDL_API function found in src/cdlinear_c.h"
[ "$exported" = "$declared" ] ||
  fail "$so exports:"$'\n'"$(diff <(echo "$declared") <(echo "$exported"))"

# The pkg-config files name the installed folders and the version.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
[ "$(pkg-config --modversion cdlinear)" = "$version" ] || fail "cdlinear.pc's version"
flags=$(pkg-config --cflags --libs cdlinear | sed 's/ *$//')
[ "$flags" = "-I$prefix/include -L$prefix/lib -lcdlinear" ] ||
  fail "pkg-config --cflags --libs cdlinear: $flags"

# The man pages render without warnings, by groff and by man.
for page in "$prefix"/share/man/man1/*.1; do
  warnings=$(groff -man -ww -z "$page" 2>&1) || fail "groff failed on $page: $warnings"
  [ -z "$warnings" ] || fail "groff warns about $page:"$'\n'"$warnings"
  warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null) ||
    fail "man -l failed on $page: $warnings"
  [ -z "$warnings" ] || fail "man --warnings warns about $page:"$'\n'"$warnings"
done

# The C++ example against the installed header and archive only.
# shellcheck disable=SC2046 # pkg-config's flags are words
g++ -std=c++17 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror docs/library-example.cpp \
  $(pkg-config --cflags --libs cdlinear-cxx) -o "$scratch/example" ||
  fail "docs/library-example.cpp does not build against $prefix alone"
mkdir "$scratch/run"
output=$("$scratch/example" data/heart_scale "$scratch/run") ||
  fail "the example built against $prefix failed:"$'\n'"$output"
grep -q '^caught: line 2: ' <<<"$output" || fail "the example's output lacks the caught error:"$'\n'"$output"

# The C header as C89 and C++, and the C example with the shared library: it
# trains from CSR arrays and writes the model cdtrain writes, byte for byte.
gcc -std=c89 -pedantic-errors -Wall -Wextra -Werror -fsyntax-only -x c "$prefix/include/cdlinear_c.h" ||
  fail "the installed cdlinear_c.h is not C89"
g++ -std=c++11 -Wall -Wextra -Werror -fsyntax-only -x c++ "$prefix/include/cdlinear_c.h" ||
  fail "the installed cdlinear_c.h is not C++"
c_flags="-std=c99 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror"
# shellcheck disable=SC2046,SC2086 # flags are words
gcc $c_flags docs/library-example.c $(pkg-config --cflags --libs cdlinear) -o "$scratch/c-example" ||
  fail "docs/library-example.c does not build against $prefix alone"
# ldd's output is read whole before it is searched: grep -q in a pipe may
# exit before ldd has written everything, and pipefail then fails on ldd's
# broken pipe.
loaded=$(LD_LIBRARY_PATH="$prefix/lib" ldd "$scratch/c-example") ||
  fail "ldd failed on the C example"
grep -q "=> $prefix/lib/libcdlinear.so.$major " <<<"$loaded" ||
  fail "the C example does not load $prefix/lib/libcdlinear.so.$major:"$'\n'"$loaded"
# The same program linked with the archive (no shared library in sight).
static="$scratch/static"
mkdir "$static"
cp -a "$prefix/include" "$prefix/lib" "$static/"
rm "$static"/lib/libcdlinear.so*
# shellcheck disable=SC2046,SC2086
gcc $c_flags docs/library-example.c \
  $(pkg-config --define-variable=prefix="$static" --static --cflags --libs cdlinear) \
  -o "$scratch/c-example-static" || fail "docs/library-example.c does not link the archive"
dynamic=$(readelf -d "$scratch/c-example-static") || fail "readelf failed on the static C example"
grep -q 'NEEDED.*libcdlinear' <<<"$dynamic" && fail "the static C example needs libcdlinear.so"
c_example_model() { # program data solver
  rm -rf "$scratch/c-run" && mkdir "$scratch/c-run"
  LD_LIBRARY_PATH="$prefix/lib" "$1" "$2" "$scratch/c-run" "$3" >"$scratch/c-run.out" ||
    fail "$1 $2 -s $3 failed:"$'\n'"$(cat "$scratch/c-run.out")"
  "$prefix/bin/cdtrain" -q -s "$3" "$2" "$scratch/cdtrain.model"
  cmp -s "$scratch/c-run/c-example.model" "$scratch/cdtrain.model" ||
    fail "$1 $2 -s $3: the model differs from cdtrain's"
}
for solver in 0 1 2 3 4 5 6 7 11 12 13 21; do
  c_example_model "$scratch/c-example" data/heart_scale "$solver"
done
c_example_model "$scratch/c-example" data/dna.scale 4
grep -q '^loaded: same predictions yes$' "$scratch/c-run.out" ||
  fail "the C example's loaded model predicts otherwise:"$'\n'"$(cat "$scratch/c-run.out")"
grep -q '^caught: status 2, handle NULL: CSR row 0, entry 1: column index ' "$scratch/c-run.out" ||
  fail "the C example's output lacks the malformed arrays' error:"$'\n'"$(cat "$scratch/c-run.out")"
c_example_model "$scratch/c-example-static" data/heart_scale 2

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

echo "check_install.sh: install, exports, pkg-config, man pages, library example and uninstall OK"
