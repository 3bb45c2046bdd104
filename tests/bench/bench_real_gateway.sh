#!/bin/sh
# 'hbtab regions' and 'hbtab audit' of a 2,000-region table against HBase's own REST gateway
# (tests/realhbase), beside curl + jq making the same listing from the same gateway in the
# same run. Wall time is the median of RUNS runs (default 5); figures are printed as ratios,
# with hbtab's peak RSS. Each command is timed with its default source (the /T/regions listing
# made from hbase:meta, which this harness's caller may read), --source rest and --source meta.
# Usage: tests/bench/bench_real_gateway.sh [HBTAB_BINARY]
#   (the first run builds tests/realhbase with Maven; BENCH_REGIONS sets the region count;
#   BENCH_BEFORE=BINARY measures that build too, say the one before a change, in the same run,
#   the two builds' runs taken in turns; BENCH_DETAIL=1 adds where the time goes: each of
#   the gateway's answers timed alone with curl, jq alone, and hbtab's own CPU)
#
# Meta rows (BENCH_META_ROWS=1, the default above 20,000 regions): real regions cost the mini
# cluster about 40 s of creation and its heap per thousand, so the table is created with two
# real regions split at the last key of --hex-splits N, and its first region's row in
# hbase:meta is replaced by N-1 region rows written straight into hbase:meta (the control
# verb metarows of tests/realhbase: RegionInfo, a live server, state OPEN), the bounds of
# --hex-splits N. The regions are meta rows only, not opened: /T/regions and hbase:meta scans
# list all N (the gateway builds /T/regions from hbase:meta alone), the metadata row (in the
# real last region) reads as usual, but no region server reports them, so audit finds them
# not open anywhere (placement findings, exit 1); its time is still that of every request and
# of every check over N regions.
set -eu

. "$(dirname "$0")/lib.sh"
USAGE="HBTAB_BINARY"
bench_binary "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
REGIONS=${BENCH_REGIONS:-2000}
RUNS=${BENCH_RUNS:-5}
TABLE=bench_real

export HBTAB_REAL_C2=on # the servers compiled as in production: their own work is timed
emu_start 3000 "real HBase did not start:" "$SRC/tests/realhbase/run" --watch-pid $$
REST=http://127.0.0.1:$(port rest)
THRIFT=http://127.0.0.1:$(port thrift)/
CONTROL=http://127.0.0.1:$(port control)
META_ROWS=${BENCH_META_ROWS:-$([ "$REGIONS" -gt 20000 ] && echo 1 || echo 0)}
if [ "$META_ROWS" = 1 ]; then
	WHAT="$((REGIONS - 1)) of them rows written into hbase:meta, not opened"
else
	WHAT="all opened"
fi
echo "real HBase $(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$TMP/ready"), $REGIONS regions" \
	"($WHAT); load: $(uptime | sed 's/.*load average: //')"

if [ "$META_ROWS" = 1 ]; then
	"$HBTAB" splits --hex-splits "$REGIONS" | tail -n 1 >"$TMP/last"
	"$HBTAB" --rest "$REST" --thrift "$THRIFT" --no-progress -q create "$TABLE" \
		--splits-file "$TMP/last" --family info --wait 600
	# the metadata row hbtab create --hex-splits N writes (it lives in the real last region)
	curl -sf -X POST "$CONTROL/control/put" --data "{\"table\": \"$TABLE\", \"rows\": [{
	\"key\": \"$(b64 totalPartition)\", \"cells\": [
	{\"column\": \"$(b64 info:N)\", \"value\": \"$(b64 "$REGIONS")\"},
	{\"column\": \"$(b64 info:splits)\", \"value\": \"$(b64 "--hex-splits $REGIONS")\"}]}]}" \
		>/dev/null
	"$HBTAB" -o json splits --hex-splits "$REGIONS" |
		jq -c --arg t "$TABLE" '{table: $t, splits: [.splits[].base64]}' >"$TMP/splits.json"
	curl -sf -X POST "$CONTROL/control/metarows" --data-binary @"$TMP/splits.json" >/dev/null
else
	"$HBTAB" --rest "$REST" --thrift "$THRIFT" --no-progress -q create "$TABLE" \
		--hex-splits "$REGIONS" --family info --wait 600
fi

# The same listing as 'hbtab regions -o json': start, end, name, server per region in key
# order, keys decoded from base64.
cat >"$TMP/rest.sh" <<SCRIPT
curl -s -H 'Accept: application/json' '$REST/$TABLE/regions' |
jq -c '{table: .name, source: "rest", regions: [.Region | sort_by(.startKey | @base64d)[] |
  {start: (.startKey | @base64d), end: (.endKey | @base64d), name: .name, server: .location}]}'
SCRIPT

n=$("$HBTAB" --rest "$REST" -o json regions "$TABLE" | jq '.regions | length')
c=$(sh "$TMP/rest.sh" | jq '.regions | length')
if [ "$n" -ne "$REGIONS" ] || [ "$c" -ne "$REGIONS" ]; then
	echo "expected $REGIONS regions, hbtab listed $n, curl | jq $c" >&2
	exit 1
fi

# median FILE: the median of the numbers in FILE, one a line.
median() {
	sort -n "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

# pair ARGS...: the median wall times of "HBTAB ARGS" and, with BENCH_BEFORE, of "BENCH_BEFORE
# ARGS" ("-" without), RUNS runs each taken in turns so that both meet the same gateway, then
# HBTAB's greatest peak RSS (KiB) over its runs.
pair() {
	: >"$TMP/a"
	: >"$TMP/b"
	: >"$TMP/m"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		MEASURE_OK_RC=1 measure "$HBTAB" --rest "$REST" --no-progress "$@" >"$TMP/one"
		cut -d' ' -f1 "$TMP/one" >>"$TMP/a"
		cut -d' ' -f2 "$TMP/one" >>"$TMP/m"
		if [ -n "${BENCH_BEFORE:-}" ]; then
			MEASURE_OK_RC=1 measure "$BENCH_BEFORE" --rest "$REST" --no-progress "$@" |
				cut -d' ' -f1 >>"$TMP/b"
		fi
		i=$((i + 1))
	done
	echo "$(median "$TMP/a") $([ -s "$TMP/b" ] && median "$TMP/b" || echo -)" \
		"$(sort -n "$TMP/m" | tail -n 1)"
}

# One pass of everything first: the gateway's JVM compiles its hot paths during the first
# requests, and no case should meet it colder than another.
sh "$TMP/rest.sh" >/dev/null
RUNS_SET=$RUNS
RUNS=1
pair -o json regions "$TABLE" >/dev/null
pair -o json regions "$TABLE" --source rest >/dev/null
pair -o json regions "$TABLE" --source meta >/dev/null
pair -o json audit "$TABLE" >/dev/null
pair -o json audit "$TABLE" --source rest >/dev/null
pair -o json audit "$TABLE" --source meta >/dev/null
RUNS=$RUNS_SET

: >"$TMP/c"
i=0
while [ "$i" -lt "$RUNS" ]; do
	measure sh "$TMP/rest.sh" | cut -d' ' -f1 >>"$TMP/c"
	i=$((i + 1))
done
CJ=$(median "$TMP/c")
R1=$(pair -o json regions "$TABLE")
R2=$(pair -o json regions "$TABLE" --source rest)
R3=$(pair -o json regions "$TABLE" --source meta)
R4=$(pair -o json audit "$TABLE")
R5=$(pair -o json audit "$TABLE" --source rest)
R6=$(pair -o json audit "$TABLE" --source meta)

printf '%s\n' "$R1" "$R2" "$R3" "$R4" "$R5" "$R6" | awk -v cj="$CJ" -v n="$REGIONS" '
	{ a[NR] = $1; b[NR] = $2; m[NR] = $3 }
	END {
	split("hbtab regions (default)|hbtab regions --source rest|hbtab regions --source meta|" \
	      "hbtab audit (default)|hbtab audit --source rest|hbtab audit --source meta", name, "|")
	nb = b[1] != "-"
	printf "%-36s %8s %10s %9s", "case (" n " regions, median)", "wall s", "vs curl|jq", \
	       "peak MiB"
	if (nb)
		printf " %10s %10s", "before s", "vs curl|jq"
	printf "\n%-36s %8.3f %10s\n", "curl | jq /T/regions (baseline)", cj, "1.00"
	for (i = 1; i <= 6; i++) {
		printf "%-36s %8.3f %10.2f %9.1f", name[i], a[i], a[i] / cj, m[i] / 1024
		if (nb)
			printf " %10.3f %10.2f", b[i], b[i] / cj
		printf "\n"
	}
}'

[ -n "${BENCH_DETAIL:-}" ] || exit 0

# Where the time goes: the gateway's answers one at a time (curl alone, total and first
# byte), jq alone over the JSON answer, the filtered hbase:meta scan hbtab makes for the
# region states (docs/hbase-wire.md), and hbtab's own CPU; medians of RUNS, taken in turns.
last=$("$HBTAB" --rest "$REST" -o json regions "$TABLE" | jq -r '.regions[-1].name')
curl -s -H 'Accept: application/json' "$REST/$TABLE/regions" >"$TMP/regions.json"
# ctime ACCEPT CURL_ARGS...: "total first_byte" seconds of one GET
ctime() {
	a=$1
	shift
	curl -s -o /dev/null -H "Accept: $a" -w '%{time_total} %{time_starttransfer}\n' "$@"
}
for f in pb pbf js jsf jq sc rc ac; do : >"$TMP/d.$f"; done
i=0
while [ "$i" -lt "$RUNS" ]; do
	set -- $(ctime application/x-protobuf "$REST/$TABLE/regions")
	echo "$1" >>"$TMP/d.pb"
	echo "$2" >>"$TMP/d.pbf"
	set -- $(ctime application/json "$REST/$TABLE/regions")
	echo "$1" >>"$TMP/d.js"
	echo "$2" >>"$TMP/d.jsf"
	measure jq -c '{table: .name, source: "rest", regions: [.Region |
	  sort_by(.startKey | @base64d)[] | {start: (.startKey | @base64d),
	  end: (.endKey | @base64d), name: .name, server: .location}]}' "$TMP/regions.json" |
		cut -d' ' -f1 >>"$TMP/d.jq"
	ctime application/x-protobuf -G "$REST/hbase%3Ameta/*" --data-urlencode "startrow=$TABLE" \
		--data-urlencode "endrow=$TABLE ,," --data-urlencode maxversions=1 \
		--data-urlencode column=info:regioninfo --data-urlencode column=info:state \
		--data-urlencode "filter=SingleColumnValueFilter('info','state',!=,'binary:OPEN',false,true) OR RowFilter(=,'binary:$last')" |
		cut -d' ' -f1 >>"$TMP/d.sc"
	timed_cpu "$HBTAB" --rest "$REST" --no-progress -o json regions "$TABLE" |
		cut -d' ' -f2 >>"$TMP/d.rc"
	timed_cpu "$HBTAB" --rest "$REST" --no-progress -o json audit "$TABLE" |
		cut -d' ' -f2 >>"$TMP/d.ac"
	i=$((i + 1))
done
echo "where the time goes (median of $RUNS; load: $(uptime | sed 's/.*load average: //'))"
printf '  %-52s %8s s (first byte %s s)\n' "gateway /T/regions, protobuf (curl alone)" \
	"$(median "$TMP/d.pb")" "$(median "$TMP/d.pbf")"
printf '  %-52s %8s s (first byte %s s)\n' "gateway /T/regions, JSON (curl alone)" \
	"$(median "$TMP/d.js")" "$(median "$TMP/d.jsf")"
printf '  %-52s %8s s (%s bytes)\n' "jq alone over the JSON answer" "$(median "$TMP/d.jq")" \
	"$(wc -c <"$TMP/regions.json" | tr -d ' ')"
printf '  %-52s %8s s\n' "gateway filtered hbase:meta scan for states (curl)" \
	"$(median "$TMP/d.sc")"
printf '  %-52s %8s s\n' "hbtab regions, its own CPU (user+sys)" "$(median "$TMP/d.rc")"
printf '  %-52s %8s s\n' "hbtab audit, its own CPU (user+sys)" "$(median "$TMP/d.ac")"
