#!/bin/sh
# 'hbtab create' of a 10,000-region table on real HBase (tests/realhbase: 2.6.1, three region
# servers in one JVM), through Thrift2 and through HBase's own shell, against the shell's own
# "create 'T', 'cf', SPLITS => [...]" of the same 9,999 keys (the baseline), timed the same
# way in the same run: wall time of the whole command, shell JVM start included.
# Usage: tests/bench/bench_real_create.sh [HBTAB_BINARY]
#   (BENCH_REGIONS sets the region count, 10000 by default; the first run builds
#   tests/realhbase with Maven)
#
# Each create is verified: hbtab verifies the boundaries itself, and after every create
# (hbtab's and the baseline's alike) 'hbtab regions T' must list REGIONS regions whose
# boundaries are those of 'hbtab splits --hex-splits REGIONS'. The table is dropped between
# runs (the drop's time is printed too). Per create: the wall time and its ratio to the
# baseline, hbtab's own peak RSS (VmHWM of the hbtab process, read every 20 ms; the shell JVM
# hbtab starts is not counted), the peak RSS of the whole process tree (with --via shell and
# for the baseline: the shell's JVM), the cluster JVM's CPU seconds (utime+stime of
# /proc/PID/stat, before and after) and hbtab's per-phase --timings.
set -eu

. "$(dirname "$0")/lib.sh"
USAGE="HBTAB_BINARY"
bench_binary "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
PY=${HBTAB_PYTHON:-/usr/bin/python3}
REGIONS=${BENCH_REGIONS:-10000}
NS=clickstream
TABLE=$NS:events_user_clicks_20261128
WAIT=${BENCH_WAIT:-3000}

export HBTAB_REAL_C2=on # the servers compiled as in production: their own work is timed
emu_start 3000 "real HBase did not start:" "$SRC/tests/realhbase/run" --watch-pid $$
REST=http://127.0.0.1:$(port rest)
THRIFT=http://127.0.0.1:$(port thrift)/
ZK=$(port zk)
JVM=$(port pid)
SHELL_CMD="$SRC/tests/realhbase/run --shell $ZK -n"
echo "real HBase $(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$TMP/ready"), 3 region" \
	"servers in one JVM (pid $JVM), $REGIONS regions (--hex-splits $REGIONS), table $TABLE;" \
	"$(nproc) cores, load: $(uptime | sed 's/.*load average: //')"
curl -sf -X POST "$REST/namespaces/$NS" >/dev/null

# timed OUT ERR CMD...: runs CMD (stdout to OUT, stderr to ERR) and prints "wall jvm_cpu
# own_peak_kb tree_peak_kb rc": wall seconds, the cluster JVM's CPU seconds used meanwhile,
# VmHWM of CMD's own process (last read before it exits) and ru_maxrss of its process tree.
timed() {
	"$PY" - "$JVM" "$@" <<'PY'
import os, subprocess, sys, time
jvm, out, err, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
tck = os.sysconf("SC_CLK_TCK")
def cpu():
    with open("/proc/%d/stat" % jvm) as f:
        s = f.read()
    fields = s[s.rindex(")") + 2:].split()  # fields from the third (state) on
    return (int(fields[11]) + int(fields[12])) / tck  # utime, stime
c0, t0 = cpu(), time.monotonic()
with open(out, "wb") as o, open(err, "wb") as e:
    p = subprocess.Popen(cmd, stdout=o, stderr=e, stdin=subprocess.DEVNULL)
peak = 0
while True:
    pid, status, ru = os.wait4(p.pid, os.WNOHANG)
    if pid:
        break
    try:
        with open("/proc/%d/status" % p.pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]))
    except OSError:
        pass
    time.sleep(0.02)
wall, c1 = time.monotonic() - t0, cpu()
print("%.3f %.2f %d %d %d" % (wall, c1 - c0, peak, ru.ru_maxrss, os.waitstatus_to_exitcode(status)))
PY
}

# check LABEL: the table has REGIONS regions with the boundaries of --hex-splits REGIONS.
check() {
	n=$("$HBTAB" --rest "$REST" --no-progress regions "$TABLE" | wc -l)
	"$HBTAB" --rest "$REST" --no-progress -o json regions "$TABLE" |
		jq -r '.regions[1:][].start' >"$TMP/got"
	if [ "$n" -ne "$REGIONS" ] || ! cmp -s "$TMP/got" "$TMP/keys"; then
		echo "bench_real_create: $1: 'hbtab regions' lists $n regions (want $REGIONS)" \
			"or other boundaries than --hex-splits $REGIONS" >&2
		diff "$TMP/keys" "$TMP/got" | head -n 5 >&2
		exit 1
	fi
}

# drop: drops the table (untimed in the figures; its time is printed).
drop() {
	set -- $(timed "$TMP/drop.out" "$TMP/drop.err" "$HBTAB" --rest "$REST" --no-progress \
		--timeout 1800 drop "$TABLE" --yes)
	if [ "$5" -ne 0 ]; then
		echo "bench_real_create: drop failed (exit $5)" >&2
		cat "$TMP/drop.err" >&2
		exit 1
	fi
	DROPS="$DROPS $1"
}

# create LABEL CMD...: one timed create, verified, then dropped; appends its line to RESULTS.
create() {
	label=$1
	shift
	set -- $(timed "$TMP/out" "$TMP/err" "$@")
	if [ "$5" -ne 0 ]; then
		echo "bench_real_create: $label exited $5 after $1 s:" >&2
		tail -n 20 "$TMP/err" >&2
		exit 1
	fi
	check "$label"
	phases=$(awk '/timing:/ { printf " %s=%s", $3, $4 }' "$TMP/err")
	echo "$label|$1|$2|$3|$4|$phases" >>"$TMP/results"
	echo "  $label: $1 s, verified ($(date -u +%H:%M:%S))"
	drop
}

"$HBTAB" splits --hex-splits "$REGIONS" >"$TMP/keys"
# The baseline: HBase's shell with the keys written in the script itself.
{
	printf "create '%s', 'cf', SPLITS => [" "$TABLE"
	sed "s/.*/'&'/" "$TMP/keys" | paste -sd, -
	printf ']\nexit\n'
} >"$TMP/baseline.rb"

# Warm-up, not counted: the shell's first call records its class-data archive, and the
# master, region servers and Thrift2 server compile their hot paths on a first create.
"$HBTAB" splits --hex-splits 100 >"$TMP/warm"
DROPS=
"$HBTAB" --rest "$REST" --thrift "$THRIFT" --no-progress -q create "$TABLE" \
	--splits-file "$TMP/warm" --via thrift2 --wait 600 >/dev/null
drop
"$HBTAB" --rest "$REST" --no-progress -q --timeout 600 --hbase-shell "$SHELL_CMD" create \
	"$TABLE" --splits-file "$TMP/warm" --via shell --wait 600 >/dev/null
drop
DROPS=

: >"$TMP/results"
create "shell create SPLITS (baseline)" sh -c "$SHELL_CMD $TMP/baseline.rb"
create "hbtab create --via thrift2" "$HBTAB" --rest "$REST" --thrift "$THRIFT" --no-progress \
	--deadline 0 create "$TABLE" --hex-splits "$REGIONS" --via thrift2 --wait "$WAIT" --timings
create "hbtab create --via shell" "$HBTAB" --rest "$REST" --no-progress \
	--deadline 0 --timeout 1800 --hbase-shell "$SHELL_CMD" create "$TABLE" \
	--hex-splits "$REGIONS" --via shell --wait "$WAIT" --timings

awk -F'|' -v n="$REGIONS" '
	NR == 1 { base = $2 }
	{ name[NR] = $1; w[NR] = $2; c[NR] = $3; own[NR] = $4; tree[NR] = $5; ph[NR] = $6 }
	END {
	printf "%-32s %9s %8s %12s %12s %13s\n", "create, " n " regions, verified", "wall s",
	    "vs base", "own RSS MiB", "tree RSS MiB", "cluster CPU s"
	for (i = 1; i <= NR; i++)
		printf "%-32s %9.1f %8.2f %12s %12.0f %13.1f\n", name[i], w[i], w[i] / base,
		    i == 1 ? "-" : sprintf("%.1f", own[i] / 1024), tree[i] / 1024, c[i]
	for (i = 2; i <= NR; i++)
		printf "  %s phases (s):%s\n", name[i], ph[i]
}' "$TMP/results"
echo "drops (hbtab drop, s):$DROPS; cluster JVM resident now:" \
	"$(awk '/VmRSS/ { printf "%.0f MiB", $2 / 1024 }' "/proc/$JVM/status")," \
	"peak $(awk '/VmHWM/ { printf "%.0f MiB", $2 / 1024 }' "/proc/$JVM/status");" \
	"load: $(uptime | sed 's/.*load average: //')"
