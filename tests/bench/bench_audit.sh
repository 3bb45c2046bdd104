#!/bin/sh
# Wall time and peak RSS of an offline 'hbtab audit' of a 100,000-region split set, beside
# baselines measured in the same run (computing the same split keys with 'hbtab splits', and
# seq). Usage: tests/bench/bench_audit.sh [HBTAB_BINARY] [--check]
# --check exits 1 when an audit misses the targets (1 s wall, 128 MiB peak RSS).
set -eu

. "$(dirname "$0")/lib.sh"
bench_binary "$@"
N=100000
TARGET_S=1.0
TARGET_KB=131072
MEASURE_OK_RC=1 # exit status 1 (audit findings) counts as success

fail=0
report() { # name seconds kb base_s base_kb
	judge "$2" "$3" "$4" "$5"
	printf '%-58s %6.3f s %8d KiB   x%-5s time  x%-5s rss vs splits  %s\n' \
		"$1" "$2" "$3" "$ratio_t" "$ratio_m" "$ok"
}

set -- $(measure seq $N)
printf '%-58s %6.3f s %8d KiB\n' "baseline: seq $N" "$1" "$2"
set -- $(measure "$HBTAB" splits --hex-splits $N)
HEX_S=$1 HEX_KB=$2
printf '%-58s %6.3f s %8d KiB\n' "baseline: hbtab splits --hex-splits $N" "$1" "$2"
set -- $(measure "$HBTAB" splits --range-splits $N --start 0000000000000000 \
	--end ffffffffffffffff)
RANGE_S=$1 RANGE_KB=$2
printf '%-58s %6.3f s %8d KiB\n' "baseline: hbtab splits --range-splits $N (16-byte keys)" \
	"$1" "$2"

set -- $(measure "$HBTAB" audit --hex-splits $N --keyspace 'hex{8}')
report "audit --hex-splits $N --keyspace 'hex{8}'" "$1" "$2" "$HEX_S" "$HEX_KB"
set -- $(measure "$HBTAB" audit --hex-splits $N --keyspace 'hex{8} byte{8}')
report "audit --hex-splits $N --keyspace 'hex{8} byte{8}'" "$1" "$2" "$HEX_S" "$HEX_KB"
set -- $(measure "$HBTAB" -o json audit --hex-splits $N --keyspace 'hex{8} byte{8}')
report "-o json audit --hex-splits $N 'hex{8} byte{8}'" "$1" "$2" "$HEX_S" "$HEX_KB"
set -- $(measure "$HBTAB" audit --range-splits $N --start 0000000000000000 \
	--end ffffffffffffffff --keyspace 'hex{1,16}')
report "audit --range-splits $N --keyspace 'hex{1,16}'" "$1" "$2" "$RANGE_S" "$RANGE_KB"

# The findings of the last case are exact: say how many regions are unreachable.
UNREACH=$("$HBTAB" -q audit --range-splits $N --start 0000000000000000 \
	--end ffffffffffffffff --keyspace 'hex{1,16}' | grep -c '^unreachable:' || true)
echo "unreachable regions of --range-splits $N vs 'hex{1,16}': $UNREACH"

if [ "$CHECK" = --check ] && [ "$fail" -ne 0 ]; then
	exit 1
fi
exit 0
