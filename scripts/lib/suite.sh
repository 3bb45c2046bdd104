# shellcheck shell=bash
# The suite ("test") and the fuzzing ("fuzz"): the builds, and the passes that run side by
# side, each timed. Sourced by scripts/dev.sh.

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
    trap 'stop_maven; stop_passes; stop_emulator' EXIT
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
        cluster_counts "${pass_logs[$i]}"
    done
    pass_names=() pass_pids=() pass_logs=()
    return "$failed"
}

# cluster_counts LOG: for a pass that ran tests against real HBase, each cluster's own count
# (the default release line, the 2.5 line, the secure cluster), its start and stop left out.
cluster_counts() {
    awk '
        match($0, /Test +#[0-9]+: [^ ]+/) {
            name = substr($0, RSTART, RLENGTH); sub(/.*: /, "", name)
            if (name !~ /^(real|secure)\./ || name ~ /\.(start|stop)$/) next
            group = name ~ /^secure\./ ? "secure cluster (2.6.1, Kerberos, TLS, ACLs)" : \
                    name ~ /^real\.2\.5\./ ? "2.5 line (smoke set)" : "2.6.1 (every behaviour test)"
            total[group]++
            if ($0 ~ / Passed /) passed[group]++
        }
        END { for (g in total) printf "==> real HBase, %s: %d of %d passed\n", g, passed[g], total[g] }
    ' "$1" | sort >&2
}

# Maven's first build of tests/realhbase downloads HBase's jars (about 310 MB into ~/.m2, and
# as much again for the 2.5 line's releases, HBTAB_REAL_LINE_25): started beside the C build,
# which it hardly slows (it mostly waits on the network), and waited for before the real pass,
# whose fixtures would otherwise build then, one after the other. Not niced: the real pass,
# the run's longest, starts when it ends (niced below the suite's tests, a warm build took
# 137 s instead of 65). Two Maven builds must not
# write one target directory or fill ~/.m2 at once, so they run in turn and the pass never
# starts before they end. Reads the releases from the configured tree $build.
maven_pid= maven_started= real_jobs=1
start_maven() {
    local cache=$build/CMakeCache.txt line25
    command -v mvn >/dev/null || return 0
    grep -q '^HBTAB_REAL_HBASE:BOOL=OFF' "$cache" 2>/dev/null && return 0
    line25=$(sed -n 's/^HBTAB_REAL_LINE_25:STRING=//p' "$cache" 2>/dev/null || true)
    say "maven (tests/realhbase): started (log: $build/realhbase-build.log)"
    maven_started=$SECONDS
    set -m
    (
        "$top/tests/realhbase/run" --build
        if [[ $line25 =~ ^([^:]+):([^:]+)$ ]]; then
            HBTAB_HBASE_VERSION=${BASH_REMATCH[1]} HBTAB_HBASE_GATEWAY_VERSION=${BASH_REMATCH[2]} \
                "$top/tests/realhbase/run" --build
        fi
    ) >"$build/realhbase-build.log" 2>&1 &
    maven_pid=$!
    set +m
    trap 'stop_maven; stop_passes; stop_emulator' EXIT
}
# wait_maven: sets real_jobs, how many real-HBase tests may run at once: one when Maven did
# not build everything, as the clusters' fixtures then build in the pass.
wait_maven() {
    real_jobs=1
    [ -n "$maven_pid" ] || return 0
    if wait "$maven_pid"; then
        say "maven (tests/realhbase): built $((SECONDS - maven_started)) s after it started"
        # four clusters (two of the default release, the 2.5 line's, the secure one) whose
        # tests mostly wait on them: one test more than there are processors
        real_jobs=$((jobs + 1))
    else
        tail -n 20 "$build/realhbase-build.log" >&2
        say "maven (tests/realhbase): failed (log: $build/realhbase-build.log); the clusters' fixtures try again, one at a time"
    fi
    maven_pid=
}
stop_maven() {
    if [ -n "$maven_pid" ] && kill -0 "$maven_pid" 2>/dev/null; then
        kill -- -"$maven_pid" 2>/dev/null || true
    fi
    maven_pid=
}

# The tests against real HBase: every cluster's (real.*: two of 2.6.1 and the 2.5 line; secure.*).
real_tests='^(real|secure)\.'
# The emulator's fault matrices (thousands of cells, each a run of hbtab against a fault)
# run once, in the sanitizer tree, where every cell also checks memory: the same cells in
# the normal tree were a fifth of its pass, with the same checks and none of the memory ones.
# So do the large meta listings on the emulator (12,000 and 30,000 regions, threads side by
# side): the longest tests of the normal pass (5-11 minutes of its wall time on a loaded
# machine), run there again with the memory checks; the real pass runs the listings' file
# against real HBase with the normal tree.
sanitizer_only='^e2e\.test_(fault_matrix|backend_meta_listing$|regions_meta_in_ranges$)'
# Checks of the sources and of the packaging, which build their own trees and never run the
# sanitized binary: the normal pass runs them once.
normal_only='^e2e\.test_(format|include_layers|package_[a-z_]+)$'

# The suite, the behaviour tests against real HBase (one pass for the clusters: the tests of
# each take turns on it, three at a time across clusters), and the suite under ASan+UBSan with
# the fuzz corpora replayed. On a 2-core machine the order is what makes the run short:
# - One sanitizer tree (clang: ASan, UBSan and libFuzzer's coverage, -DHBTAB_FUZZ=ON) serves
#   both the suite under the sanitizers and the fuzz harnesses: a second tree compiled every
#   source again for the harnesses alone. It builds at full speed from the end of the normal
#   build on, while Maven may still download (a cold run) and while the suite and the real
#   pass run (niced: they mostly wait, on emulators, timeouts, subprocesses), and its pass
#   starts once it is built.
# - The suite starts as soon as the normal tree is built; the real pass (its clusters start in
#   about a minute each and their tests wait on them) as soon as Maven has built
#   tests/realhbase too, and its JVMs start while the sanitizer tree builds. The sanitizer
#   tree's build and pass are the run's longest path once the shell is kept warm.
# - The suite and the sanitizer pass run niced below the real pass, whose JVMs compute.
# Each phase says how long it took; a further pass that waits more than it computes belongs
# with start_pass too.
run_tests() {
    local started=$SECONDS
    # The suite's tests mostly wait (on emulators, timeouts, subprocesses): alone, on two
    # processors, its files took 1,440 s of wall time for 350 s of processor time. Three
    # tests a processor keep the processors, not the waits, the limit.
    local suite_jobs=$((jobs * 3))
    timed "install" install_packages "${demo_packages[@]}" "${real_packages[@]}" "${test_packages[@]}"
    # configured first: Maven reads the real-HBase releases from it
    cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHBTAB_WERROR=ON >/dev/null
    start_maven
    timed "build" build_tree "$build" -DHBTAB_WERROR=ON
    start_pass "test suite" "$build/ctest-pass.log" \
        nice -n 5 ctest --test-dir "$build" --output-on-failure -j "$suite_jobs" \
            -E "$real_tests|$sanitizer_only"
    # The sanitizer tree builds from here on, while Maven may still be downloading HBase's
    # jars (a cold run: minutes that the processors would otherwise spend waiting).
    local asan_pid asan_started=$SECONDS asan_log=$build/build-asan.log
    say "build (ASan+UBSan, fuzz harnesses): started (log: $asan_log)"
    build_sanitized >"$asan_log" 2>&1 &
    asan_pid=$!
    local real
    real=$(ctest --test-dir "$build" -N -R "$real_tests")
    if grep -qE '(real|secure)\.start' <<<"$real"; then
        timed "maven wait" wait_maven
        start_pass "real HBase" "$build/ctest-real.log" \
            ctest --test-dir "$build" --output-on-failure -j "$real_jobs" -R "$real_tests"
    else
        stop_maven
    fi
    if ! wait "$asan_pid"; then
        tail -n 40 "$asan_log" >&2
        say "build (ASan+UBSan, fuzz harnesses): FAILED (log: $asan_log)"
        finish_passes || true
        return 1
    fi
    say "build (ASan+UBSan, fuzz harnesses): $((SECONDS - asan_started)) s"
    start_pass "test suite under ASan+UBSan, fuzz corpora" "$asan_build/ctest-pass.log" \
        env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
            UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        nice -n 5 ctest --test-dir "$asan_build" --output-on-failure -j "$suite_jobs" \
            -E "$real_tests|$normal_only"
    finish_passes
    say "test: $((SECONDS - started)) s in all"
}

# The sanitizer tree: the suite and the libFuzzer harnesses (tests/fuzz), clang.
build_sanitized() {
    build_tree "$asan_build" -DCMAKE_C_COMPILER=clang -DHBTAB_SANITIZE=ON -DHBTAB_FUZZ=ON \
        -DHBTAB_WERROR=ON
}

# fuzz [SECONDS]: each harness in turn (one at a time, niced) for SECONDS; new inputs land in
# build-asan/fuzz-work/NAME/new, crashes in build-asan/fuzz-work/NAME/crash-*.
run_fuzz() {
    local seconds=${1:-300} h name failed=0
    install_packages "${demo_packages[@]}" "${test_packages[@]}"
    build_sanitized
    for h in "$asan_build"/tests/fuzz/fuzz_*; do
        [ -x "$h" ] || continue
        name=$(basename "$h")
        say "fuzzing $name for $seconds s"
        nice sh "$top/tests/fuzz/run.sh" fuzz "$h" "$top/tests/fuzz/corpus/$name" \
            "$asan_build/fuzz-work/$name" "$seconds" 2>"$asan_build/fuzz-work-$name.log" || {
            failed=1
            say "$name failed: see $asan_build/fuzz-work-$name.log"
        }
        grep -E '^#[0-9]+ +(DONE|pulse)' "$asan_build/fuzz-work-$name.log" | tail -n 1 >&2 || true
    done
    return "$failed"
}
