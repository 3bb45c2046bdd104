#!/bin/sh
# 'hbtab regions' and 'hbtab audit' of a 2,000-region table against HBase's own REST gateway
# (tests/realhbase), beside curl + jq making the same listing from the same gateway in the
# same run. Wall time is the median of RUNS runs (default 5); figures are printed as ratios.
# Usage: tests/bench/bench_real_gateway.sh [HBTAB_BINARY]
#   (the first run builds tests/realhbase with Maven; BENCH_REGIONS sets the region count;
#   BENCH_BEFORE=BINARY measures that build too, say the one before a change, in the same run,
#   the two builds' runs taken in turns)
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

# median FILE: the median of the numbers in FILE, one a line.
median() {
	sort -n "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

# pair ARGS...: the median wall times of "HBTAB ARGS" and, with BENCH_BEFORE, of "BENCH_BEFORE
# ARGS" ("-" without), RUNS runs each taken in turns so that both meet the same gateway.
pair() {
	: >"$TMP/a"
	: >"$TMP/b"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		MEASURE_OK_RC=1 measure "$HBTAB" --rest "$REST" --no-progress "$@" |
			cut -d' ' -f1 >>"$TMP/a"
		if [ -n "${BENCH_BEFORE:-}" ]; then
			MEASURE_OK_RC=1 measure "$BENCH_BEFORE" --rest "$REST" --no-progress "$@" |
				cut -d' ' -f1 >>"$TMP/b"
		fi
		i=$((i + 1))
	done
	echo "$(median "$TMP/a") $([ -s "$TMP/b" ] && median "$TMP/b" || echo -)"
}

# One pass of everything first: the gateway's JVM compiles its hot paths during the first
# requests, and no case should meet it colder than another.
sh "$TMP/rest.sh" >/dev/null
RUNS_SET=$RUNS
RUNS=1
pair -o json regions "$TABLE" >/dev/null
pair -o json regions "$TABLE" --source meta >/dev/null
pair -o json audit "$TABLE" >/dev/null
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
R2=$(pair -o json regions "$TABLE" --source meta)
R3=$(pair -o json audit "$TABLE")
R4=$(pair -o json audit "$TABLE" --source meta)

printf '%s\n' "$R1" "$R2" "$R3" "$R4" | awk -v cj="$CJ" -v n="$REGIONS" '
	{ a[NR] = $1; b[NR] = $2 }
	END {
	split("hbtab regions (REST)|hbtab regions --source meta|hbtab audit (REST)|" \
	      "hbtab audit --source meta", name, "|")
	nb = b[1] != "-"
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
