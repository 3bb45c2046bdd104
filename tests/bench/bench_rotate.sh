#!/bin/sh
# A rotate run that creates two 1,000-region tables and drops two, phases timed (list,
# sample, create, drop), printed as ratios against a baseline measured in the same run:
# 'hbtab create' of one 1,000-region table through the same emulator and channel.
# Usage: tests/bench/bench_rotate.sh [HBTAB_BINARY] [EMU_GEN_DIR]
# (or set HBTAB_BIN / HBEMU_GEN_DIR; the generated Thrift modules are in BUILD/emu_gen).
set -eu

SRC=$(cd "$(dirname "$0")/../.." && pwd)
PY=${HBTAB_PYTHON:-/usr/bin/python3}
N=1000
. "$SRC/tests/bench/lib.sh"
hbtab_and_gen_args "$0" "$@"
emu_start_servers bench_rotate 5
HB="$HBTAB --rest $REST --thrift $THRIFT --no-progress"

# timed OUT ARGS...: runs hbtab, wall seconds into OUT, stderr (timings) into OUT.err.
timed() {
	out=$1
	shift
	t0=$(date +%s%N)
	rc=0
	$HB "$@" >"$TMP/$out.stdout" 2>"$TMP/$out.err" || rc=$?
	t1=$(date +%s%N)
	if [ "$rc" -ne 0 ]; then
		echo "bench_rotate: $out failed (exit $rc)" >&2
		cat "$TMP/$out.err" >&2
		exit 1
	fi
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }' >"$TMP/$out"
}
phase() { awk -v p="$2" '$3 == p { print $4 }' "$TMP/$1.err"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

ROUNDS=${ROUNDS:-3}
: >"$TMP/rows"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	ROT="rotate --template bench${r}_%Y%m%d --hex-splits $N --lock $TMP/lock --timings"
	# baseline: one create of the same design
	timed base create "bench_base$r" --hex-splits "$N" --via thrift2 --timings
	# day 1: the two tables the measured run will retire
	timed setup $ROT --now 2026-11-01 --ahead 1 --retain 9
	# day 4: creates 04 and 05, drops 01 and 02 (keep 2 periods: 03 and 04)
	timed run $ROT --now 2026-11-04 --ahead 1 --retain 2 --yes --max-drops 2
	[ "$(grep -c '^created' "$TMP/run.stdout")" = 2 ] ||
		{ echo "bench_rotate: expected 2 creates" >&2; cat "$TMP/run.stdout" >&2; exit 1; }
	[ "$(grep -c '^dropped' "$TMP/run.stdout")" = 2 ] ||
		{ echo "bench_rotate: expected 2 drops" >&2; cat "$TMP/run.stdout" >&2; exit 1; }
	# the same line again: everything verified, nothing due
	timed noop $ROT --now 2026-11-04 --ahead 1 --retain 2 --yes --max-drops 2
	echo "$(cat "$TMP/base") $(cat "$TMP/run") $(phase run list) $(phase run create) $(phase run drop) $(cat "$TMP/noop")" >>"$TMP/rows"
	r=$((r + 1))
done

# median of column C over the rounds
med() { awk -v c="$1" '{ print $c }' "$TMP/rows" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
base=$(med 1)
echo "hbtab rotate: 2 tables of $N regions created, 2 dropped; emulator with 5 servers; median of $ROUNDS rounds"
printf 'baseline  create 1 table          %8.3f s  = 1.00\n' "$base"
printf 'rotate    whole run (2 + 2)       %8.3f s  = %s x baseline\n' "$(med 2)" "$(ratio "$(med 2)" "$base")"
printf '          list                    %8.3f s  = %s x baseline\n' "$(med 3)" "$(ratio "$(med 3)" "$base")"
printf '          create (2 tables)       %8.3f s  = %s x baseline\n' "$(med 4)" "$(ratio "$(med 4)" "$base")"
printf '          drop (2 tables)         %8.3f s  = %s x baseline\n' "$(med 5)" "$(ratio "$(med 5)" "$base")"
printf 'rotate    no-op re-run            %8.3f s  = %s x baseline\n' "$(med 6)" "$(ratio "$(med 6)" "$base")"
