#!/bin/sh
# 'hbtab regions' and 'hbtab audit' of a 1,000,000-region table on real HBase (tests/realhbase:
# 2.6.1, master, three region servers, REST gateway and Thrift2 in one JVM), against curl | jq
# in the same run. The table is made as bench_real_gateway.sh makes a large one: two real
# regions, the first one's row in hbase:meta replaced by N-1 region rows written straight into
# hbase:meta through the control channel (metarows), flushed; the regions are meta rows only,
# not opened (audit therefore finds them not open anywhere: placement findings, exit 1).
# Usage: tests/bench/bench_real_million.sh [HBTAB_BINARY]
#   BENCH_REGIONS (1000000), BENCH_RUNS (1: each case once; more gives medians),
#   BENCH_REST_LIMIT (300: seconds curl waits for the gateway's /T/regions),
#   HBTAB_REAL_HEAP (3g here: the cluster JVM's heap holds the gateway's answers too)
#
# Per case: the wall time, the ratio to the baseline, the peak RSS (/usr/bin/time %M: for a
# pipeline, its largest process) and the CPU seconds the cluster JVM (gateway, region servers
# and master in one process) spent meanwhile (utime+stime of /proc/PID/stat before and after).
# The baseline is curl | jq making the same listing (start, end, name, server per region) from
# the gateway's own answer. /T/regions is asked last, once, with BENCH_REST_LIMIT: its cost
# grows with the square of the regions (docs/hbase-wire.md §3.2) and a request curl gives up on
# goes on in the gateway, so nothing is timed after it. The listing made from a stateless
# scan of the table's rows in hbase:meta (JSON, the column info:server; start keys from the row
# names, end keys from the next row) is the baseline that answers at this size.
set -eu

. "$(dirname "$0")/lib.sh"
USAGE="HBTAB_BINARY"
bench_binary "$@"
need_gnu_time
SRC=$(cd "$(dirname "$0")/../.." && pwd)
REGIONS=${BENCH_REGIONS:-1000000}
RUNS=${BENCH_RUNS:-1}
LIMIT=${BENCH_REST_LIMIT:-300}
HBTAB_REAL_HEAP=${HBTAB_REAL_HEAP:-3g}
export HBTAB_REAL_HEAP
NS=clickstream
TABLE=$NS:events_user_clicks_20261129
TCK=$(getconf CLK_TCK)

T_START=$(date +%s)
export HBTAB_REAL_C2=on # the servers compiled as in production: their own work is timed
emu_start 3000 "real HBase did not start:" "$SRC/tests/realhbase/run" --watch-pid $$
REST=http://127.0.0.1:$(port rest)
THRIFT=http://127.0.0.1:$(port thrift)/
CONTROL=http://127.0.0.1:$(port control)
JVM=$(port pid)
echo "real HBase $(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$TMP/ready") (JVM pid $JVM," \
	"heap $HBTAB_REAL_HEAP), $REGIONS regions ($((REGIONS - 1)) of them rows written into" \
	"hbase:meta, not opened), table $TABLE; $(nproc) cores, load: $(uptime |
		sed 's/.*load average: //')"

# jvm_cpu: the cluster JVM's CPU seconds so far (utime + stime)
jvm_cpu() {
	sed 's/.*) //' "/proc/$JVM/stat" | awk -v t="$TCK" '{ printf "%.2f\n", ($12 + $13) / t }'
}

"$HBTAB" splits --hex-splits "$REGIONS" | tail -n 1 >"$TMP/last"
"$HBTAB" --rest "$REST" --thrift "$THRIFT" --no-progress -q create "$TABLE" --create-namespace \
	--splits-file "$TMP/last" --family info --wait 600
# the metadata row hbtab create --hex-splits N writes (it lives in the real last region)
curl -sf -X POST "$CONTROL/control/put" --data "{\"table\": \"$TABLE\", \"rows\": [{
\"key\": \"$(b64 totalPartition)\", \"cells\": [
{\"column\": \"$(b64 info:N)\", \"value\": \"$(b64 "$REGIONS")\"},
{\"column\": \"$(b64 info:splits)\", \"value\": \"$(b64 "--hex-splits $REGIONS")\"}]}]}" \
	>/dev/null
"$HBTAB" -o json splits --hex-splits "$REGIONS" |
	jq -c --arg t "$TABLE" '{table: $t, splits: [.splits[].base64]}' >"$TMP/splits.json"
w0=$(date +%s)
st=$(curl -sS -o "$TMP/metarows" -w '%{http_code}' -X POST "$CONTROL/control/metarows" \
	--data-binary @"$TMP/splits.json")
if [ "$st" != 200 ]; then
	echo "metarows answered $st after $(($(date +%s) - w0)) s: $(cat "$TMP/metarows")" >&2
	grep -m 5 'Exception' "$TMP/emu.log" >&2
	exit 1
fi
rm -f "$TMP/splits.json"
echo "meta rows written and flushed in $(($(date +%s) - w0)) s: $(cat "$TMP/metarows");" \
	"cluster JVM resident $(awk '/VmRSS/ { printf "%d MiB", $2 / 1024 }' "/proc/$JVM/status")"

# The listing as 'hbtab regions -o json' gives it (start, end, name, server per region in key
# order), made by curl | jq from a stateless scan of the table's rows in hbase:meta.
cat >"$TMP/meta.sh" <<SCRIPT
curl -sS -G -H 'Accept: application/json' '$REST/hbase%3Ameta/*' \
	--data-urlencode 'startrow=$TABLE' --data-urlencode 'endrow=$TABLE ,,' \
	--data-urlencode column=info:server |
jq -c --arg t '$TABLE' '[.Row[] | (.key | @base64d) as \$n | {name: \$n,
  start: (\$n | ltrimstr(\$t + ",") | sub(",[0-9]+[.][0-9a-f]+[.]\$"; "")),
  server: (.Cell[0]["\$"] | @base64d)}] | . as \$r | {table: \$t, source: "meta",
  regions: [range(0; length) as \$i | \$r[\$i] + {end: (\$r[\$i + 1].start // "")}]}'
SCRIPT
# The same from the gateway's /T/regions, as bench_real_gateway.sh's baseline.
cat >"$TMP/rest.sh" <<SCRIPT
curl -sS -m $LIMIT -H 'Accept: application/json' '$REST/$TABLE/regions' |
jq -c '{table: .name, source: "rest", regions: [.Region | sort_by(.startKey | @base64d)[] |
  {start: (.startKey | @base64d), end: (.endKey | @base64d), name: .name, server: .location}]}'
SCRIPT

# one NAME CMD...: runs CMD once (stdout to $TMP/out, stderr to $TMP/err), appends "wall
# peak_kb jvm_cpu" to $TMP/NAME; an exit status above 1 (audit's findings) is shown with the
# command's last error lines, and the run goes on.
one() {
	name=$1
	shift
	c0=$(jvm_cpu)
	t0=$(date +%s%N)
	rc=0
	/usr/bin/time -f "%M" -o "$TMP/time" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
	t1=$(date +%s%N)
	c1=$(jvm_cpu)
	if [ "$rc" -gt 1 ]; then
		echo "$name: exited $rc after" \
			"$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }') s:" \
			"$(grep 'hbtab: \|curl: ' "$TMP/err" | tail -n 3)"
	fi
	echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')" \
		"$(tail -n 1 "$TMP/time")" "$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.2f", b - a }')" \
		>>"$TMP/$name"
}

# median of each column of FILE
medians() {
	for k in 1 2 3; do
		cut -d' ' -f"$k" "$1" | sort -n | awk '{ a[NR] = $1 } END { printf "%s ", a[int((NR + 1) / 2)] }'
	done
	echo
}

# the listing checked once, untimed (it also warms the gateway's scan paths)
w0=$(date +%s)
rc=0
"$HBTAB" --rest "$REST" --no-progress -v regions "$TABLE" >"$TMP/list" 2>"$TMP/err" || rc=$?
n=$(wc -l <"$TMP/list")
echo "untimed check, hbtab regions: $n lines, exit $rc, $(($(date +%s) - w0)) s;" \
	"$(grep -c '^hbtab: ' "$TMP/err" || true) hbtab: lines on stderr," \
	"$(grep -o 'read from [^ ]*' "$TMP/err" | head -n 1)"
[ "$n" -eq "$REGIONS" ] || grep '^hbtab: ' "$TMP/err" | tail -n 3

H="$HBTAB --rest $REST --no-progress -o json"
i=0
while [ "$i" -lt "$RUNS" ]; do
	one base sh "$TMP/meta.sh"
	c=$(grep -o '"name":' "$TMP/out" | wc -l)
	[ "$c" -eq "$REGIONS" ] || echo "curl | jq over meta listed $c regions of $REGIONS"
	one regions $H regions "$TABLE"
	grep -o '"read_from":"[a-z]*"' "$TMP/out" >"$TMP/from.regions"
	one regions_meta $H regions "$TABLE" --source meta
	one audit $H audit "$TABLE"
	grep -o '"read_from":"[a-z]*"' "$TMP/out" >"$TMP/from.audit" || true
	one audit_meta $H audit "$TABLE" --source meta
	grep -o 'not compared with REST /regions: [^,]*' "$TMP/err" | head -n 1 >"$TMP/compared" || true
	i=$((i + 1))
done

# BENCH_BEFORE=BINARY: that build's default 'regions' once, with --retries 0 (a build whose
# timeout bounds a scan's whole transfer fails at this size; its retries would take minutes)
if [ -n "${BENCH_BEFORE:-}" ]; then
	one before "$BENCH_BEFORE" --rest "$REST" --no-progress --retries 0 -o json regions "$TABLE"
	echo "BENCH_BEFORE regions --retries 0: $(cat "$TMP/before") (wall s, peak KiB," \
		"cluster CPU s); $(grep -c '"name":' "$TMP/out" || true) regions listed"
fi

# /T/regions last (see the top)
c0=$(jvm_cpu)
t0=$(date +%s%N)
rc=0
curl -sS -m "$LIMIT" -o "$TMP/regions.json" -H 'Accept: application/json' \
	-w '%{http_code} %{size_download}' "$REST/$TABLE/regions" >"$TMP/rest.status" \
	2>"$TMP/rest.err" || rc=$?
t1=$(date +%s%N)
c1=$(jvm_cpu)
rest_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
rest_cpu=$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.2f", b - a }')
if [ "$rc" -eq 0 ] && [ "$(cut -d' ' -f1 "$TMP/rest.status")" = 200 ]; then
	rm -f "$TMP/regions.json"
	one rest sh "$TMP/rest.sh"
	REST_LINE=$(medians "$TMP/rest")
else
	REST_LINE="- - $rest_cpu"
	echo "/T/regions did not answer: curl exit $rc after $rest_s s (HTTP" \
		"$(cat "$TMP/rest.status")): $(cat "$TMP/rest.err")"
fi

{
	echo "base $(medians "$TMP/base")"
	echo "regions $(medians "$TMP/regions")"
	echo "regions_meta $(medians "$TMP/regions_meta")"
	echo "audit $(medians "$TMP/audit")"
	echo "audit_meta $(medians "$TMP/audit_meta")"
	echo "rest $REST_LINE"
} | awk -v n="$REGIONS" -v runs="$RUNS" -v fr="$(cat "$TMP/from.regions")" \
	-v fa="$(cat "$TMP/from.audit")" '
	{ w[$1] = $2; m[$1] = $3; c[$1] = $4; order[NR] = $1 }
	END {
	title["base"] = "curl | jq, meta scan (baseline)"
	title["rest"] = "curl | jq, /T/regions"
	title["regions"] = "hbtab regions (default)"
	title["regions_meta"] = "hbtab regions --source meta"
	title["audit"] = "hbtab audit (default)"
	title["audit_meta"] = "hbtab audit --source meta"
	printf "%-34s %8s %10s %9s %12s\n", "case (" n " regions, " (runs > 1 ? "median" : "1 run") ")", \
	       "wall s", "vs base", "peak MiB", "cluster CPU s"
	for (i = 1; i <= NR; i++) {
		k = order[i]
		if (w[k] == "-")
			printf "%-34s %8s %10s %9s %12.2f\n", title[k], "-", "-", "-", c[k]
		else
			printf "%-34s %8.3f %10.2f %9.1f %12.2f\n", title[k], w[k], w[k] / w["base"], \
			       m[k] / 1024, c[k]
	}
	printf "default source read: regions %s, audit %s\n", fr, fa
}'
[ -s "$TMP/compared" ] && echo "audit --source meta: $(cat "$TMP/compared")"
echo "cluster JVM peak resident $(awk '/VmHWM/ { printf "%d MiB", $2 / 1024 }' \
	"/proc/$JVM/status"); whole run $(($(date +%s) - T_START)) s; load: $(uptime |
	sed 's/.*load average: //')"
