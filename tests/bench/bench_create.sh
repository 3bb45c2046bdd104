#!/bin/sh
# Per-phase times (validate, absent, ddl, wait, verify, metadata) of 'hbtab create' making and
# verifying a 10,000-region table against the emulator, through Thrift2 and through the
# hbase shell stand-in, then of the verified no-op re-run.
# Usage: tests/bench/bench_create.sh [HBTAB_BINARY] [EMU_GEN_DIR]
# (or set HBTAB_BIN / HBEMU_GEN_DIR; the generated Thrift modules are in BUILD/emu_gen).
set -eu

SRC=$(cd "$(dirname "$0")/../.." && pwd)
PY=${HBTAB_PYTHON:-/usr/bin/python3}
N=10000
. "$SRC/tests/bench/lib.sh"
hbtab_and_gen_args "$0" "$@"
emu_start_servers bench_create 5
SHELL_CMD="ruby $SRC/tests/emulator/shell/hbase-shell.rb -n"

# run LABEL ARGS...: one create with per-phase timings on stderr, summarized on one line.
run() {
	label=$1
	shift
	t0=$(date +%s%N)
	rc=0
	"$HBTAB" --rest "$REST" --no-progress "$@" --timings >"$TMP/out" 2>"$TMP/err" || rc=$?
	t1=$(date +%s%N)
	if [ "$rc" -ne 0 ]; then
		echo "bench_create: $label failed (exit $rc)" >&2
		cat "$TMP/err" >&2
		exit 1
	fi
	printf '%-28s' "$label"
	awk '/timing:/ { printf " %s=%ss", $3, $4 }' "$TMP/err"
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "  wall=%.3fs\n", (b - a) / 1e9 }'
}

echo "hbtab create, $N regions (--hex-splits $N), emulator with 5 servers"
run "thrift2 create" --thrift "$THRIFT" create bench_t --hex-splits "$N" --via thrift2 --wait 300
run "thrift2 re-run (no-op)" --thrift "$THRIFT" create bench_t --hex-splits "$N" --via thrift2
run "shell create" --hbase-shell "$SHELL_CMD" create bench_s --hex-splits "$N" --via shell --wait 300
run "shell re-run (no-op)" --hbase-shell "$SHELL_CMD" create bench_s --hex-splits "$N" --via shell
