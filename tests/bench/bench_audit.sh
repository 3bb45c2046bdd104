#!/bin/sh
# Wall time and peak RSS of an offline 'hbtab audit' of a 100,000-region split set, beside
# baselines measured in the same run (computing the same split keys with 'hbtab splits', and
# seq). Usage: tests/bench/bench_audit.sh [HBTAB_BINARY] [--check]
# --check exits 1 when an audit misses the targets (1 s wall, 128 MiB peak RSS).
set -eu

HBTAB=${1:-${HBTAB_BIN:-}}
CHECK=${2:-}
if [ -z "$HBTAB" ] || [ ! -x "$HBTAB" ]; then
	echo "usage: $0 HBTAB_BINARY [--check]  (or set HBTAB_BIN)" >&2
	exit 2
fi
N=100000
TARGET_S=1.0
TARGET_KB=131072
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM

# measure CMD...: runs CMD with stdout to /dev/null; prints "seconds kilobytes". Exit status 1
# (audit findings) counts as success. Peak RSS from /usr/bin/time (package "time") when
# installed; else from wait4 on a child spawned by Python, whose peak then includes the
# Python launcher's own RSS (about 13 MiB; the seq baseline shows that floor).
measure() {
	if [ -x /usr/bin/time ]; then
		t0=$(date +%s%N)
		rc=0
		/usr/bin/time -f "%M" -o "$TMP/time" "$@" >/dev/null || rc=$?
		t1=$(date +%s%N)
		[ "$rc" -le 1 ] || exit "$rc"
		printf '%s %s\n' "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')" \
			"$(tail -n 1 "$TMP/time")"
		return
	fi
	python3 - "$@" <<'PY'
import os, shutil, sys, time
fd = os.open(os.devnull, os.O_WRONLY)
prog = shutil.which(sys.argv[1]) or sys.argv[1]
t = time.monotonic()
pid = os.posix_spawn(prog, sys.argv[1:], os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, fd, 1)])
_, status, ru = os.wait4(pid, 0)
wall = time.monotonic() - t
rc = os.waitstatus_to_exitcode(status)
if rc not in (0, 1):
    sys.exit(rc if rc > 0 else 3)
print("%.3f %d" % (wall, ru.ru_maxrss))
PY
}

fail=0
report() { # name seconds kb base_s base_kb
	ratio_t=$(awk -v a="$2" -v b="$4" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
	ratio_m=$(awk -v a="$3" -v b="$5" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
	ok=$(awk -v t="$2" -v m="$3" -v T="$TARGET_S" -v M="$TARGET_KB" \
		'BEGIN { print (t <= T && m <= M) ? "ok" : "OVER" }')
	[ "$ok" = ok ] || fail=1
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
