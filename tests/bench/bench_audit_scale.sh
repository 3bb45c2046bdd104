#!/bin/sh
# Peak RSS and wall time of offline 'hbtab audit' at 1,000,000 regions (and, with --ten-million,
# 10,000,000), each beside 'hbtab splits' printing the same keys, measured in the same run.
# Targets: at 1,000,000 regions under 128 MiB and within 3x the splits time; at 10,000,000
# under 256 MiB. Usage: tests/bench/bench_audit_scale.sh [HBTAB_BINARY] [--check] [--ten-million]
# --check exits 1 when a case misses its target. BENCH_REGIONS overrides 1,000,000 (the
# --ten-million cases use ten times it); each figure is the best of BENCH_REPEAT runs (3).
set -eu

. "$(dirname "$0")/lib.sh"
USAGE="HBTAB_BINARY [--check] [--ten-million]" bench_binary "${1:-}"
[ $# -eq 0 ] || shift
CHECK= TEN=
for a in "$@"; do
	case $a in
	--check) CHECK=1 ;;
	--ten-million) TEN=1 ;;
	*) echo "unknown argument '$a'" >&2; exit 2 ;;
	esac
done
MEASURE_OK_RC=1 # exit status 1 (audit findings) counts as success

fail=0
report() { # name seconds kb base_s base_kb
	judge "$2" "$3" "$4" "$5"
	printf '%-62s %7.3f s %8d KiB   x%-5s time vs splits  %s\n' "$1" "$2" "$3" "$ratio_t" "$ok"
}

N=${BENCH_REGIONS:-1000000}
REPEAT=${BENCH_REPEAT:-3}
# best CMD...: measure REPEAT times; the shortest time and the largest peak RSS (load only
# ever adds time, so the minimum is the figure least disturbed by other work).
best() {
	bt= bk=0 r=0
	while [ "$r" -lt "$REPEAT" ]; do
		m=$(measure "$@")
		t=${m% *} k=${m#* }
		if [ -z "$bt" ] || awk -v a="$t" -v b="$bt" 'BEGIN { exit !(a < b) }'; then bt=$t; fi
		[ "$k" -gt "$bk" ] && bk=$k
		r=$((r + 1))
	done
	echo "$bt $bk"
}
case_pair() { # SPLITSPEC... -- KEYSPACE (targets in TIME_RATIO / TARGET_KB)
	spec=
	while [ "$1" != -- ]; do spec="$spec $1"; shift; done
	ks=$2
	# shellcheck disable=SC2086
	set -- $(best "$HBTAB" splits $spec)
	base_s=$1 base_kb=$2
	printf '%-62s %7.3f s %8d KiB\n' "baseline: splits$spec" "$1" "$2"
	TARGET_S=$(awk -v b="$base_s" -v r="$TIME_RATIO" 'BEGIN { printf "%.3f", b * r }')
	for o in "" "-o json"; do
		# shellcheck disable=SC2086
		set -- $(best "$HBTAB" $o audit $spec --keyspace "$ks")
		report "${o:+$o }audit$spec '$ks'" "$1" "$2" "$base_s" "$base_kb"
	done
}

# The machine's load beside the figures (wall-time ratios drift when it is loaded).
loadavg() { printf '%-62s %s\n' "load average ($1)" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"; }
loadavg start
TIME_RATIO=3 TARGET_KB=131072
case_pair --hex-splits "$N" -- 'hex{8}'
case_pair --range-splits "$N" --start 0000000000000000 --end ffffffffffffffff -- 'hex{1,16}'
if [ -n "$TEN" ]; then
	TIME_RATIO=1000000 TARGET_KB=262144 # memory only
	case_pair --hex-splits $((N * 10)) -- 'hex{8}'
	case_pair --range-splits $((N * 10)) --start 0000000000000000 --end ffffffffffffffff \
		-- 'hex{1,16}'
fi
loadavg end
if [ -n "$CHECK" ] && [ "$fail" -ne 0 ]; then
	exit 1
fi
exit 0
