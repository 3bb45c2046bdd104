#!/usr/bin/env bash
# hbtab's two set-up commands: "demo" (install what the demo needs, build, run the main job
# against the emulator; "demo --real" against real HBase, tests/realhbase) and "test" (install
# the rest, build with warnings as errors, run the whole suite, the real-HBase tests, the suite
# under ASan+UBSan and the libFuzzer corpora replayed); "fuzz [SECONDS]" fuzzes every parser
# for SECONDS each (default 300); "build" builds as "test" does.
# The jobs live in scripts/lib/: packages.sh (what each job installs), backends.sh (the
# emulator and real HBase), demo.sh, suite.sh (the builds and passes of "test", and "fuzz").
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=${HBTAB_BUILD_DIR:-$top/build}
asan_build=${HBTAB_ASAN_BUILD_DIR:-$top/build-asan}
jobs=$(nproc 2>/dev/null || echo 2)

say() { printf '==> %s\n' "$*" >&2; }

timed() { # timed NAME COMMAND...: runs COMMAND and says how long it took
    local name=$1 started=$SECONDS
    shift
    "$@"
    say "$name: $((SECONDS - started)) s"
}

# build_tree DIR [cmake -D...] [--target TARGET...]: configures DIR (RelWithDebInfo) and builds
# TARGETs (default: all).
build_tree() {
    local dir=$1 conf=() targets=()
    shift
    while [ $# -gt 0 ]; do
        if [ "$1" = --target ]; then
            targets=("$@")
            break
        fi
        conf+=("$1")
        shift
    done
    say "building in $dir"
    cmake -S "$top" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${conf[@]}" >/dev/null
    cmake --build "$dir" -j "$jobs" "${targets[@]}"
}

# shellcheck source=lib/packages.sh
. "$top/scripts/lib/packages.sh"
# shellcheck source=lib/backends.sh
. "$top/scripts/lib/backends.sh"
# shellcheck source=lib/demo.sh
. "$top/scripts/lib/demo.sh"
# shellcheck source=lib/suite.sh
. "$top/scripts/lib/suite.sh"

case "${1:-}" in
demo) demo "${2:-}" ;;
test) run_tests ;;
fuzz) run_fuzz "${2:-}" ;;
build)
    install_packages "${demo_packages[@]}" "${real_packages[@]}" "${test_packages[@]}"
    build_tree "$build" -DHBTAB_WERROR=ON
    ;;
*) echo "usage: scripts/dev.sh demo [--real]|test|build|fuzz [SECONDS]" >&2; exit 2 ;;
esac
