# shellcheck shell=bash
# The backends the demo runs against: the emulator (tests/emulator) or real HBase
# (tests/realhbase), each ended with this script. Sourced by scripts/dev.sh.

emu_pid=
stop_emulator() {
    if [ -n "$emu_pid" ] && kill -0 "$emu_pid" 2>/dev/null; then
        kill "$emu_pid" 2>/dev/null || true
        wait "$emu_pid" 2>/dev/null || true
    fi
    emu_pid=
}

# wait_ready READY LOG TENTHS WHAT: waits up to TENTHS tenths of a second for the backend
# $emu_pid to write its ready line into READY, and sets line to it; shows LOG when it ends or
# never gets ready.
wait_ready() {
    local ready=$1 log=$2 tenths=$3 what=$4 i
    line=
    for i in $(seq 1 "$tenths"); do
        line=$(grep -m1 '^HBEMU-READY ' "$ready" 2>/dev/null || true)
        [ -n "$line" ] && return 0
        kill -0 "$emu_pid" 2>/dev/null || { tail -n 40 "$log" >&2; say "$what ended"; exit 1; }
        sleep 0.1
    done
    tail -n 40 "$log" >&2
    say "$what did not start"
    exit 1
}

# ready_port NAME: the port NAME of the ready line
ready_port() { printf '%s' "$line" | sed -n "s/.*\"$1\": *\([0-9]*\).*/\1/p"; }

start_emulator() { # sets REST, THRIFT, CONTROL
    local ready=$build/emulator.ready line
    rm -f "$ready"
    /usr/bin/python3 "$top/tests/emulator/hbemu.py" --gen-dir "$build/emu_gen" --servers 3 \
        >"$ready" 2>"$build/emulator.log" &
    emu_pid=$!
    trap stop_emulator EXIT
    wait_ready "$ready" "$build/emulator.log" 200 "the emulator"
    REST="http://127.0.0.1:$(ready_port rest)"
    THRIFT="http://127.0.0.1:$(ready_port thrift)/"
    CONTROL="http://127.0.0.1:$(ready_port control)"
    say "emulator: REST $REST, Thrift2 $THRIFT"
}

# start_real: sets REST, THRIFT, CONTROL, SHELL_CMD from real HBase (tests/realhbase)
start_real() {
    local ready=$build/realhbase.demo.ready line
    rm -f "$ready"
    say "starting real HBase (a mini cluster, its REST gateway and Thrift2 server)"
    "$top/tests/realhbase/run" --watch-pid $$ >"$ready" 2>"$build/realhbase.demo.log" &
    emu_pid=$!
    trap stop_emulator EXIT
    wait_ready "$ready" "$build/realhbase.demo.log" 6000 "real HBase"
    REST="http://127.0.0.1:$(ready_port rest)"
    THRIFT="http://127.0.0.1:$(ready_port thrift)/"
    CONTROL="http://127.0.0.1:$(ready_port control)"
    SHELL_CMD="$top/tests/realhbase/run --shell $(ready_port zk) -n"
    say "real HBase $(printf '%s' "$line" | sed -n 's/.*"version": *"\([^"]*\)".*/\1/p'): REST $REST, Thrift2 $THRIFT"
}
