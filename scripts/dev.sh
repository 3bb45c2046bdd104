#!/usr/bin/env bash
# hbtab's two set-up commands: "demo" (install, build, run the main job against the emulator;
# "demo --real" against real HBase, tests/realhbase)
# and "test" (install, build, run the whole suite, then again under ASan+UBSan, then replay the
# libFuzzer corpora); "fuzz [SECONDS]" fuzzes every parser for SECONDS each (default 300).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=${HBTAB_BUILD_DIR:-$top/build}
asan_build=${HBTAB_ASAN_BUILD_DIR:-$top/build-asan}
fuzz_build=${HBTAB_FUZZ_BUILD_DIR:-$top/build-fuzz}
jobs=$(nproc 2>/dev/null || echo 2)

# default-jdk-headless, maven: real HBase for the tests (tests/realhbase; Maven fetches HBase's
# jars from Maven Central into ~/.m2 on first use).
# libclang-rt-14-dev: the libFuzzer and ASan runtimes clang links the fuzz harnesses with.
# python3-six: Debian 12's python3-thrift imports six without depending on it.
# krb5-*, python3-gssapi: the Kerberos test runs a real KDC (kdb5_util, krb5kdc, kadmin.local,
# kinit) and the emulator accepts SPNEGO through GSS-API.
# dpkg-dev, man-db: the package test builds the .deb (cpack runs dpkg-shlibdeps), installs it
# into a scratch root and asks man -w for its pages.
# python3-prometheus-client: the Prometheus output is read back with its text-format parser.
packages=(build-essential cmake pkg-config libcurl4-openssl-dev libcjson-dev libgmp-dev
          libssl-dev openssl ca-certificates python3 python3-thrift python3-six python3-protobuf
          thrift-compiler protobuf-compiler ruby curl jq time groff-base zsh fish procps
          clang libfuzzer-14-dev libclang-rt-14-dev clang-format krb5-kdc krb5-admin-server krb5-user
          python3-gssapi default-jdk-headless maven dpkg-dev man-db python3-prometheus-client)

say() { printf '==> %s\n' "$*" >&2; }

install_packages() {
    local missing=() p
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    say "installing: ${missing[*]}"
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    local log
    log=$(mktemp "${TMPDIR:-/tmp}/hbtab-apt.XXXXXX")
    if ! { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
           "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
               --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        say "package installation failed (full log: $log)"
        exit 1
    fi
    rm -f "$log"
}

# Set while test passes run: a build then yields the processor to them (they wait on
# timeouts and on the real cluster, and a starved one could miss them).
build_nice=()

build_tree() { # build_tree DIR [cmake args...]
    local dir=$1
    shift
    say "building in $dir"
    cmake -S "$top" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
    "${build_nice[@]}" cmake --build "$dir" -j "$jobs"
}

emu_pid=
stop_emulator() {
    if [ -n "$emu_pid" ] && kill -0 "$emu_pid" 2>/dev/null; then
        kill "$emu_pid" 2>/dev/null || true
        wait "$emu_pid" 2>/dev/null || true
    fi
    emu_pid=
}

start_emulator() { # sets REST, THRIFT, CONTROL
    local ready=$build/emulator.ready i line
    rm -f "$ready"
    /usr/bin/python3 "$top/tests/emulator/hbemu.py" --gen-dir "$build/emu_gen" --servers 3 \
        >"$ready" 2>"$build/emulator.log" &
    emu_pid=$!
    trap stop_emulator EXIT
    for i in $(seq 1 200); do
        line=$(grep -m1 '^HBEMU-READY ' "$ready" 2>/dev/null || true)
        [ -n "$line" ] && break
        kill -0 "$emu_pid" 2>/dev/null || { cat "$build/emulator.log" >&2; exit 1; }
        sleep 0.1
    done
    [ -n "$line" ] || { say "emulator did not start"; cat "$build/emulator.log" >&2; exit 1; }
    port() { printf '%s' "$line" | sed -n "s/.*\"$1\": *\([0-9]*\).*/\1/p"; }
    REST="http://127.0.0.1:$(port rest)"
    THRIFT="http://127.0.0.1:$(port thrift)/"
    CONTROL="http://127.0.0.1:$(port control)"
    say "emulator: REST $REST, Thrift2 $THRIFT"
}

# start_real: sets REST, THRIFT, CONTROL, SHELL from real HBase (tests/realhbase), which ends
# with this script.
start_real() {
    local ready=$build/realhbase.demo.ready i line
    rm -f "$ready"
    say "starting real HBase (a mini cluster, its REST gateway and Thrift2 server)"
    "$top/tests/realhbase/run" --watch-pid $$ >"$ready" 2>"$build/realhbase.demo.log" &
    emu_pid=$!
    trap stop_emulator EXIT
    for i in $(seq 1 6000); do
        line=$(grep -m1 '^HBEMU-READY ' "$ready" 2>/dev/null || true)
        [ -n "$line" ] && break
        kill -0 "$emu_pid" 2>/dev/null || { tail -n 40 "$build/realhbase.demo.log" >&2; exit 1; }
        sleep 0.1
    done
    [ -n "$line" ] || { say "real HBase did not start"; exit 1; }
    port() { printf '%s' "$line" | sed -n "s/.*\"$1\": *\([0-9]*\).*/\1/p"; }
    REST="http://127.0.0.1:$(port rest)"
    THRIFT="http://127.0.0.1:$(port thrift)/"
    CONTROL="http://127.0.0.1:$(port control)"
    SHELL_CMD="$top/tests/realhbase/run --shell $(port zk) -n"
    say "real HBase $(printf '%s' "$line" | sed -n 's/.*"version": *"\([^"]*\)".*/\1/p'): REST $REST, Thrift2 $THRIFT"
}

demo() {
    install_packages
    build_tree "$build"
    if [ "${1:-}" = --real ]; then
        start_real
        say "hbtab create shelltab --hex-splits 10 --family info --via shell (HBase's own shell)"
        "$build/hbtab" --rest "$REST" --hbase-shell "$SHELL_CMD" create shelltab --hex-splits 10 \
            --family info --via shell
    else
        start_emulator
    fi
    local hb=("$build/hbtab" --rest "$REST" --thrift "$THRIFT")
    local rc=0
    say "hbtab create user --hex-splits 10 --family info"
    "${hb[@]}" create user --hex-splits 10 --family info
    say "hbtab regions user"
    "${hb[@]}" regions user
    say "hbtab audit user"
    "${hb[@]}" audit user
    say "the same design checked offline against md5-prefixed keys (seed 000): hbtab audit --hex-splits 10 --keyspace 'hex{8} byte{8}'"
    "${hb[@]}" audit --hex-splits 10 --keyspace 'hex{8} byte{8}'
    say "the seed 001 mistake: createTable(\"0000000000000000\", \"ffffffffffffffff\", 10) for hex keys"
    say "hbtab create seed001 ... --keyspace 'hex{16}' refuses it (exit 1, nothing sent)"
    local crc=0
    "${hb[@]}" create seed001 --range-splits 10 --start 0000000000000000 --end ffffffffffffffff \
        --family info --keyspace 'hex{16}' || crc=$?
    [ "$crc" -eq 1 ] || { say "expected create to refuse the seed 001 design"; exit 1; }
    say "made anyway with --allow-unreachable, as a table made before hbtab would be"
    "${hb[@]}" -q create seed001 --range-splits 10 --start 0000000000000000 --end ffffffffffffffff \
        --family info --keyspace 'hex{16}' --allow-unreachable >/dev/null || true
    say "hbtab audit seed001 (exits 1: regions no hex key can reach)"
    "${hb[@]}" audit seed001 || rc=$?
    [ "$rc" -eq 1 ] || { say "expected the audit of seed001 to find unreachable regions"; exit 1; }
    demo_rotate
    stop_emulator
    say "done"
}

# control POST PATH JSON: the emulator's control channel (servers joining and leaving).
control() {
    /usr/bin/python3 -c 'import sys, urllib.request
r = urllib.request.Request(sys.argv[1], data=sys.argv[2].encode(), method="POST",
                           headers={"Content-Type": "application/json"})
urllib.request.urlopen(r, timeout=30).read()' "$CONTROL$1" "$2"
}

# Five simulated days of the daily cron line against the emulator (--now): tables made two
# days ahead with N = 2 x live region servers, three days kept, the oldest retired.
demo_rotate() {
    local hb=("$build/hbtab" --rest "$REST" --thrift "$THRIFT")
    local line=(rotate --template 'events_%Y%m%d' --hex-splits auto --regions-per-server 2
                --ahead 2 --retain 3 --yes --lock "$build/rotate-demo.lock")
    say "daily rotation: hbtab rotate --template 'events_%Y%m%d' --hex-splits auto --regions-per-server 2 --ahead 2 --retain 3 --yes"
    control /control/server '{"index": 2, "state": "stop"}'
    say "one of the three region servers is down: N = 2 x 2 live servers"
    "${hb[@]}" status
    local day
    for day in 01 02 03 04 05; do
        if [ "$day" = 03 ]; then
            control /control/server '{"index": 2, "state": "start"}'
            say "the third region server is back: new tables get N = 2 x 3, existing ones keep theirs"
        fi
        say "day 2026-11-$day (--now 2026-11-${day}T00:05Z)"
        "${hb[@]}" "${line[@]}" --now "2026-11-${day}T00:05Z" ||
            { say "rotate failed on day $day"; exit 1; }
    done
    say "hbtab tables (events_20261101 and _02 were retired, _03 .. _07 remain)"
    "${hb[@]}" tables
}

# Passes that run in the background: their names, process ids and logs.
pass_names=() pass_pids=() pass_logs=()
stop_passes() {
    local pid
    for pid in "${pass_pids[@]}"; do
        kill -0 "$pid" 2>/dev/null && kill -- -"$pid" 2>/dev/null || true
    done
}

# start_pass NAME LOG COMMAND...: runs COMMAND in the background (its own process group, so
# that it can be stopped whole), its output in LOG; finish_passes reports it.
start_pass() {
    local name=$1 log=$2
    shift 2
    say "$name: started (log: $log)"
    set -m
    ( started=$SECONDS; rc=0; "$@" >"$log" 2>&1 || rc=$?
      printf '%s\n' "$((SECONDS - started))" >"$log.seconds"; exit "$rc" ) &
    set +m
    pass_names+=("$name") pass_pids+=("$!") pass_logs+=("$log")
    build_nice=(nice -n 10)
    trap 'stop_passes; stop_emulator' EXIT
}

# finish_passes: waits for every pass; prints the log of one that failed, the summary line and
# time of one that passed. Fails when one failed.
finish_passes() {
    local i rc failed=0
    for i in "${!pass_pids[@]}"; do
        rc=0
        wait "${pass_pids[$i]}" || rc=$?
        if [ "$rc" -ne 0 ]; then
            cat "${pass_logs[$i]}" >&2
            say "${pass_names[$i]}: FAILED (exit $rc) after $(cat "${pass_logs[$i]}.seconds" 2>/dev/null || echo '?') s"
            failed=1
        else
            grep -E 'tests passed|Total Test time' "${pass_logs[$i]}" >&2 || true
            say "${pass_names[$i]}: passed in $(cat "${pass_logs[$i]}.seconds") s"
        fi
    done
    pass_names=() pass_pids=() pass_logs=() build_nice=()
    return "$failed"
}

timed() { # timed NAME COMMAND...: runs COMMAND and says how long it took
    local name=$1 started=$SECONDS
    shift
    "$@"
    say "$name: $((SECONDS - started)) s"
}

# The suite, the behaviour tests against real HBase (the real.* tests: one mini cluster they
# take turns on), the suite under ASan+UBSan, then the fuzz corpora replayed. The passes mostly
# wait (emulators, timeouts, subprocesses, the cluster), so they run side by side, each with
# its own log, and the sanitizer and fuzz trees are built while the first passes run. A further
# pass that waits more than it computes belongs with start_pass too.
run_tests() {
    local started=$SECONDS
    install_packages
    timed "build" build_tree "$build"
    # The real pass is the longest, and its JVMs compute while the emulator passes mostly
    # wait: it starts first (its cluster starts while the sanitizer tree builds at full
    # speed), and the other passes yield the processor to it (nice).
    local real
    real=$(ctest --test-dir "$build" -N -R '^real\.')
    if grep -q 'real\.start' <<<"$real"; then
        start_pass "real HBase" "$build/ctest-real.log" \
            ctest --test-dir "$build" --output-on-failure -R '^real\.'
    fi
    build_nice=()
    timed "build (ASan+UBSan)" build_tree "$asan_build" -DHBTAB_SANITIZE=ON
    build_nice=(nice -n 10)
    start_pass "test suite" "$build/ctest-pass.log" \
        nice -n 5 ctest --test-dir "$build" --output-on-failure -j "$jobs" -E '^real\.'
    start_pass "test suite under ASan+UBSan" "$asan_build/ctest-pass.log" \
        env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
            UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        nice -n 5 ctest --test-dir "$asan_build" --output-on-failure -j "$jobs"
    timed "build (fuzz)" build_fuzz
    say "replaying the fuzz corpora (tests/fuzz)"
    timed "fuzz corpora" ctest --test-dir "$fuzz_build" --output-on-failure -j "$jobs"
    finish_passes
    say "test: $((SECONDS - started)) s in all"
}

build_fuzz() {
    build_tree "$fuzz_build" -DCMAKE_C_COMPILER=clang -DHBTAB_FUZZ=ON -DHBTAB_TESTS=OFF
}

# fuzz [SECONDS]: each harness in turn (one at a time, niced) for SECONDS; new inputs land in
# build-fuzz/fuzz-work/NAME/new, crashes in build-fuzz/fuzz-work/NAME/crash-*.
run_fuzz() {
    local seconds=${1:-300} h name failed=0
    install_packages
    build_fuzz
    for h in "$fuzz_build"/tests/fuzz/fuzz_*; do
        [ -x "$h" ] || continue
        name=$(basename "$h")
        say "fuzzing $name for $seconds s"
        nice sh "$top/tests/fuzz/run.sh" fuzz "$h" "$top/tests/fuzz/corpus/$name" \
            "$fuzz_build/fuzz-work/$name" "$seconds" 2>"$fuzz_build/fuzz-work-$name.log" || {
            failed=1
            say "$name failed: see $fuzz_build/fuzz-work-$name.log"
        }
        grep -E '^#[0-9]+ +(DONE|pulse)' "$fuzz_build/fuzz-work-$name.log" | tail -n 1 >&2 || true
    done
    return "$failed"
}

case "${1:-}" in
demo) demo "${2:-}" ;;
test) run_tests ;;
fuzz) run_fuzz "${2:-}" ;;
build) install_packages; build_tree "$build" ;;
*) echo "usage: scripts/dev.sh demo [--real]|test|build|fuzz [SECONDS]" >&2; exit 2 ;;
esac
