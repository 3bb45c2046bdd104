# shellcheck shell=bash
# The demo: the main job against the emulator (or real HBase with --real), then five simulated
# days of the daily rotation. Sourced by scripts/dev.sh.

demo() {
    local started=$SECONDS
    if [ "${1:-}" = --real ]; then
        timed "install" install_packages "${demo_packages[@]}" "${real_packages[@]}"
    else
        timed "install" install_packages "${demo_packages[@]}"
    fi
    # the binary and the emulator's generated modules; the tests are built by "test"
    timed "build" build_tree "$build" --target hbtab emulator_gen
    if [ "${1:-}" = --real ]; then
        timed "real HBase start" start_real
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
    say "done in $((SECONDS - started)) s"
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
