#!/bin/sh
# Wall time and peak RSS of 'hbtab splits' for a million keys, beside baselines measured in the
# same run. Usage: tests/bench/bench_splits.sh [HBTAB_BINARY] [--check]
# --check exits 1 when a case misses the targets (0.5 s wall, 64 MiB peak RSS).
set -eu

. "$(dirname "$0")/lib.sh"
bench_binary "$@"
TARGET_S=0.5
TARGET_KB=65536

fail=0
report() { # name seconds kb base_s base_kb
	judge "$2" "$3" "$4" "$5"
	printf '%-44s %6.3f s %8d KiB   x%-6s time  x%-6s rss vs baseline  %s\n' \
		"$1" "$2" "$3" "$ratio_t" "$ratio_m" "$ok"
}

# Baselines: printing a million numbers, and copying the same number of bytes through cat.
set -- $(measure seq 1000000)
SEQ_S=$1 SEQ_KB=$2
"$HBTAB" splits --hex-splits 1000001 --first 0 --last ffffffffffff >"$TMP/hex.out"
HEX_BYTES=$(wc -c <"$TMP/hex.out")
set -- $(measure sh -c "head -c $HEX_BYTES /dev/zero | cat")
CAT_S=$1 CAT_KB=$2
printf '%-44s %6.3f s %8d KiB\n' "baseline: seq 1000000" "$SEQ_S" "$SEQ_KB"
printf '%-44s %6.3f s %8d KiB\n' "baseline: head -c $HEX_BYTES | cat" "$CAT_S" "$CAT_KB"

set -- $(measure "$HBTAB" splits --hex-splits 1000001 --first 0 --last ffffffffffff)
report "hex-splits 1000001 (12 digits)" "$1" "$2" "$SEQ_S" "$SEQ_KB"
set -- $(measure "$HBTAB" splits --decimal-splits 1000001 --first 0 --last 999999999999)
report "decimal-splits 1000001 (12 digits)" "$1" "$2" "$SEQ_S" "$SEQ_KB"
set -- $(measure "$HBTAB" splits --range-splits 1000001 --start 0000000000000000 \
	--end ffffffffffffffff)
report "range-splits 1000001 (16-byte keys)" "$1" "$2" "$SEQ_S" "$SEQ_KB"
set -- $(measure "$HBTAB" splits --range-splits 1000001 --start a --end b)
report "range-splits 1000001 (narrow, extended)" "$1" "$2" "$SEQ_S" "$SEQ_KB"
set -- $(measure "$HBTAB" splits --uniform-splits 1000001)
report "uniform-splits 1000001" "$1" "$2" "$SEQ_S" "$SEQ_KB"
set -- $(measure "$HBTAB" splits --uniform-splits 1000001 --format json)
report "uniform-splits 1000001 --format json" "$1" "$2" "$SEQ_S" "$SEQ_KB"

if [ "$CHECK" = --check ] && [ "$fail" -ne 0 ]; then
	echo "some cases missed the targets ($TARGET_S s, $((TARGET_KB / 1024)) MiB)" >&2
	exit 1
fi
exit 0
