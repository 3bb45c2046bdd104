#!/bin/sh
# Peak RSS and time of the live listing and audit commands at a million regions: 'hbtab
# regions' and 'hbtab audit' (REST /T/regions and --source meta) against an emulator table of
# BENCH_REGIONS regions (default 1,000,000), beside baselines measured in the same run: curl
# fetching the same bodies to /dev/null, and 'hbtab splits' printing the same split keys.
# hbtab's own time is its CPU time (user + system); the rest of its wall time is spent
# waiting for the emulator, which builds every body in Python. 'hbtab audit --hotspots
# --window 0' is measured too and held to the same target, although it also keeps every
# region's request counters.
# Usage: tests/bench/bench_live_1m.sh [HBTAB_BINARY] [--check]
#   HBEMU_GEN_DIR names the emulator's generated modules (BUILD/emu_gen).
#   BENCH_BEFORE=BINARY measures that build too (say, the one before a change), against the
#   same table and baselines, and prints its tables first.
#   --check exits 1 when a command's peak RSS is 128 MiB or more.
#   Last, the wall time of 'hbtab -o json regions' beside curl | jq making the same listing
#   (best of WALL_RUNS, default 3; BENCH_WALL=0 skips it: at a million regions jq alone needs
#   minutes and gigabytes; the issue's yardstick is BENCH_REGIONS=100000).
# Memory-heavy for the emulator (about 0.4 GB for the table, several GB while it serves the
# meta scan and /status/cluster); allow a quarter of an hour.
set -eu

. "$(dirname "$0")/lib.sh"
bench_binary "$@"
need_gnu_time
SRC=$(cd "$(dirname "$0")/../.." && pwd)
PY=${HBTAB_PYTHON:-/usr/bin/python3}
REGIONS=${BENCH_REGIONS:-1000000}
TARGET_KB=131072
TABLE=bench

emu_hex_table 600 "$TABLE" "$REGIONS"
META="$REST/hbase%3Ameta/*?startrow=$TABLE&endrow=$TABLE%20%2C%2C&maxversions=1"
for c in regioninfo server serverstartcode state sn splitA splitB; do
	META="$META&column=info%3A$c"
done

set -- $(timed_cpu "$HBTAB" splits --hex-splits "$REGIONS")
SP=$*
set -- $(timed_cpu curl -s --compressed -H 'Accept: application/json' "$REST/$TABLE/regions")
CR=$*
# the same without compression, as hbtab asks by default (--compressed is off)
set -- $(timed_cpu curl -s -H 'Accept: application/json' "$REST/$TABLE/regions")
CR_PLAIN_CPU=$2
set -- $(timed_cpu curl -s --compressed -H 'Accept: application/json' "$META")
CM=$*
set -- $(timed_cpu curl -s --compressed -H 'Accept: application/json' "$REST/status/cluster")
CS=$*
# cases BINARY: the listing and audit cases of BINARY, one "wall cpu kb" line each, then the
# bytes of the bodies it read (its -v trace: "GET path: HTTP 200, N bytes", as decoded), all
# on one line, beside curl's /T/regions in JSON, the issue's yardstick.
bodies() {
	"$@" -v 2>&1 >/dev/null | sed -n 's/.*: HTTP [0-9]*, \([0-9]*\) bytes$/\1/p' |
		awk '{ s += $1 } END { print s + 0 }'
}
cases() {
	H="$1 --rest $REST --timeout 3600 --no-progress"
	timed_cpu $H regions "$TABLE"
	timed_cpu $H regions "$TABLE" --source meta
	timed_cpu $H audit "$TABLE"
	timed_cpu $H audit "$TABLE" --source meta
	timed_cpu $H audit "$TABLE" --hotspots --window 0
	echo "$(bodies $H regions "$TABLE") $(bodies $H regions "$TABLE" --source meta)" \
		"$(bodies $H audit "$TABLE") $(bodies $H audit "$TABLE" --source meta)"
}
CURL_BYTES=$(curl -s -o /dev/null -w '%{size_download}' -H 'Accept: application/json' \
	"$REST/$TABLE/regions")

# report LABEL: the tables of one binary's cases (read from stdin) beside the baselines.
report() {
	{
		printf '%s\n' "$SP" "$CR" "$CM" "$CS"
		cat
	} | awk -v n="$REGIONS" -v target="$TARGET_KB" -v curlb="$CURL_BYTES" -v label="$1" \
		-v plain="$CR_PLAIN_CPU" '
	NR <= 9 { wall[NR] = $1; cpu[NR] = $2; kb[NR] = $3 }
	NR == 10 { for (i = 1; i <= 4; i++) b[i] = $i }
	END {
		split("hbtab splits --hex-splits N|curl GET /T/regions|curl GET meta scan (stateless)|" \
		      "curl GET /status/cluster|hbtab regions (REST)|hbtab regions --source meta|" \
		      "hbtab audit (REST)|hbtab audit --source meta|" \
		      "hbtab audit --hotspots --window 0", name, "|")
		printf "live listing and audit of a %d-region table (%s)\n", n, label
		printf "%-34s %9s %9s %9s %12s\n", "case", "wall s", "cpu s", "peak MiB", "x splits RSS"
		for (i = 1; i <= 9; i++)
			printf "%-34s %9.3f %9.2f %9.1f %12.1f\n", name[i], wall[i], cpu[i],
			       kb[i] / 1024, kb[i] / kb[1]
		over = 0
		for (i = 5; i <= 9; i++)
			if (kb[i] >= target)
				over = 1
		printf "target: every hbtab listing and audit (--hotspots too) below %d MiB: %s\n",
		       target / 1024, over ? "MISSED" : "met"
		printf "\n%-34s %12s %9s %12s %12s\n", "case", "bytes read", "x curl", "cpu us/reg",
		       "x curl cpu"
		printf "%-34s %12d %9.2f %12.2f %12.2f\n", name[2] " (JSON)", curlb, 1,
		       cpu[2] * 1e6 / n, 1
		for (i = 5; i <= 8; i++)
			printf "%-34s %12d %9.2f %12.2f %12.2f\n", name[i], b[i - 4], b[i - 4] / curlb,
			       cpu[i] * 1e6 / n, (cpu[2] > 0 ? cpu[i] / cpu[2] : 0)
		printf "(x curl cpu: against curl --compressed, the yardstick; curl uncompressed took\n"
		printf "%.2f us/region)\n", plain * 1e6 / n
		exit over
	}'
}

# The listing as a user would make it without hbtab: /T/regions in JSON through jq, printing
# start, end, name and server per region in key order, keys decoded (the same boundaries as
# 'hbtab -o json regions'). Its wall time (the emulator building the body included, as a
# gateway would) beside hbtab's, each the best of WALL_RUNS runs taken in turns.
cat >"$TMP/jq.sh" <<SCRIPT
curl -s -H 'Accept: application/json' '$REST/$TABLE/regions' |
jq -c '{table: .name, source: "rest", regions: [.Region | sort_by(.startKey | @base64d)[] |
  {start: (.startKey | @base64d), end: (.endKey | @base64d), name: .name, server: .location}]}'
SCRIPT
# best FILE: the smallest number in FILE (a busy host only ever slows a run down)
best() { sort -n "$1" | head -n 1; }
walls() {
	: >"$TMP/w_jq"
	: >"$TMP/w_hb"
	: >"$TMP/w_before"
	i=0
	while [ "$i" -lt "${WALL_RUNS:-3}" ]; do
		timed_cpu sh "$TMP/jq.sh" | cut -d' ' -f1 >>"$TMP/w_jq"
		timed_cpu "$HBTAB" --rest "$REST" --timeout 3600 --no-progress -o json regions \
			"$TABLE" | cut -d' ' -f1 >>"$TMP/w_hb"
		if [ -n "${BENCH_BEFORE:-}" ]; then
			timed_cpu "$BENCH_BEFORE" --rest "$REST" --timeout 3600 --no-progress -o json \
				regions "$TABLE" | cut -d' ' -f1 >>"$TMP/w_before"
		fi
		i=$((i + 1))
	done
	jq_w=$(best "$TMP/w_jq")
	printf '\n%-34s %9s %9s\n' "wall time, best of ${WALL_RUNS:-3}" "wall s" "x curl|jq"
	printf '%-34s %9.3f %9.2f\n' "curl | jq /T/regions (JSON)" "$jq_w" 1
	if [ -s "$TMP/w_before" ]; then
		printf '%-34s %9.3f %9.2f\n' "before: hbtab -o json regions" "$(best "$TMP/w_before")" \
			"$(awk -v a="$(best "$TMP/w_before")" -v b="$jq_w" 'BEGIN { print a / b }')"
	fi
	printf '%-34s %9.3f %9.2f\n' "hbtab -o json regions" "$(best "$TMP/w_hb")" \
		"$(awk -v a="$(best "$TMP/w_hb")" -v b="$jq_w" 'BEGIN { print a / b }')"
}

status=0
if [ -n "${BENCH_BEFORE:-}" ]; then
	cases "$BENCH_BEFORE" >"$TMP/before"
	report "before: $BENCH_BEFORE" <"$TMP/before" || true
	echo
fi
cases "$HBTAB" >"$TMP/after"
report "$HBTAB" <"$TMP/after" || status=1
[ "${BENCH_WALL:-1}" = 0 ] || walls
[ "$status" = 1 ] && [ "$CHECK" = "--check" ] && exit 1
exit 0
