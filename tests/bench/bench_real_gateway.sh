#!/bin/sh
# 'hbtab regions' and 'hbtab audit' of a 2,000-region table against HBase's own REST gateway
# (tests/realhbase), beside curl + jq making the same listing from the same gateway in the
# same run. Wall time is the median of RUNS runs (default 5); figures are printed as ratios.
# Usage: tests/bench/bench_real_gateway.sh [HBTAB_BINARY]
#   (the first run builds tests/realhbase with Maven; BENCH_REGIONS sets the region count;
#   BENCH_BEFORE=BINARY measures that build too, say the one before a change, in the same run)
set -eu

. "$(dirname "$0")/lib.sh"
USAGE="HBTAB_BINARY"
bench_binary "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
REGIONS=${BENCH_REGIONS:-2000}
RUNS=${BENCH_RUNS:-5}
TABLE=bench_real

emu_start 3000 "real HBase did not start:" "$SRC/tests/realhbase/run" --watch-pid $$
REST=http://127.0.0.1:$(port rest)
THRIFT=http://127.0.0.1:$(port thrift)/
echo "real HBase $(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$TMP/ready"), $REGIONS regions"

"$HBTAB" --rest "$REST" --thrift "$THRIFT" --no-progress -q create "$TABLE" \
	--hex-splits "$REGIONS" --family info --wait 600

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

# median CMD...: the median wall time of RUNS runs of CMD (audit's findings status allowed).
median() {
	i=0
	: >"$TMP/times"
	while [ "$i" -lt "$RUNS" ]; do
		MEASURE_OK_RC=1 measure "$@" | cut -d' ' -f1 >>"$TMP/times"
		i=$((i + 1))
	done
	sort -n "$TMP/times" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

# case_times BINARY: the median wall times of BINARY's four cases, on one line.
case_times() {
	echo "$(median "$1" --rest "$REST" --no-progress -o json regions "$TABLE")" \
		"$(median "$1" --rest "$REST" --no-progress -o json regions "$TABLE" --source meta)" \
		"$(median "$1" --rest "$REST" --no-progress -o json audit "$TABLE")" \
		"$(median "$1" --rest "$REST" --no-progress -o json audit "$TABLE" --source meta)"
}

CJ=$(median sh "$TMP/rest.sh")
AFTER=$(case_times "$HBTAB")
BEFORE=
[ -n "${BENCH_BEFORE:-}" ] && BEFORE=$(case_times "$BENCH_BEFORE")

awk -v cj="$CJ" -v after="$AFTER" -v before="$BEFORE" -v n="$REGIONS" 'BEGIN {
	split(after, a, " ")
	nb = split(before, b, " ")
	split("hbtab regions (REST)|hbtab regions --source meta|hbtab audit (REST)|" \
	      "hbtab audit --source meta", name, "|")
	printf "%-36s %8s %10s", "case (" n " regions, median)", "wall s", "vs curl|jq"
	if (nb)
		printf " %10s %10s", "before s", "vs curl|jq"
	printf "\n%-36s %8.3f %10s\n", "curl | jq /T/regions (baseline)", cj, "1.00"
	for (i = 1; i <= 4; i++) {
		printf "%-36s %8.3f %10.2f", name[i], a[i], a[i] / cj
		if (nb)
			printf " %10.3f %10.2f", b[i], b[i] / cj
		printf "\n"
	}
}'
