#!/bin/sh
# Wall time and peak RSS of 'hbtab regions' (REST and meta) for a 100,000-region table in the
# emulator, beside curl + jq doing the same listing in the same run.
# Usage: tests/bench/bench_regions.sh [HBTAB_BINARY] [--check]
#   HBEMU_GEN_DIR must name the emulator's generated modules (BUILD/emu_gen) unless they are
#   importable anyway. --check exits 1 when REST misses 1 s / 100 MiB or is slower than curl --compressed + jq
#   (hbtab accepts gzip like the real client should; the emulator then compresses in Python).
set -eu

. "$(dirname "$0")/lib.sh"
bench_binary "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
PY=${HBTAB_PYTHON:-/usr/bin/python3}
REGIONS=${BENCH_REGIONS:-100000}
TABLE=bench
TARGET_S=1.0
TARGET_KB=102400

set -- "$PY" "$SRC/tests/emulator/hbemu.py" --servers 5
[ -n "${HBEMU_GEN_DIR:-}" ] && set -- "$@" --gen-dir "$HBEMU_GEN_DIR"
emu_start 100 "emulator did not start:" "$@"
REST=http://127.0.0.1:$(port rest)
CONTROL=http://127.0.0.1:$(port control)

# 99,999 split keys "k0000001".."k0099999" give 100,000 regions.
"$PY" - "$TABLE" "$REGIONS" >"$TMP/create.json" <<'PY'
import base64, json, sys
t, n = sys.argv[1], int(sys.argv[2])
keys = [base64.b64encode(b"k%07d" % i).decode() for i in range(1, n)]
print(json.dumps({"table": t, "families": [{"name": "cf", "attrs": {}}], "attrs": {},
                  "splits": keys}))
PY
curl -sf -X POST -H 'Content-Type: application/json' --data-binary @"$TMP/create.json" \
	"$CONTROL/control/create" >/dev/null

# The baselines produce the same listing: start, end, name, server per region, in key order.
cat >"$TMP/rest.sh" <<EOF
curl -s -H 'Accept: application/json' '$REST/$TABLE/regions' |
jq -c '{table: .name, source: "rest", regions: [.Region | sort_by(.startKey | @base64d)[] |
  {start: (.startKey | @base64d), end: (.endKey | @base64d), name: .name, server: .location}]}'
EOF
# the same with gzip, as hbtab asks for it (the gateway compresses, the client inflates)
sed 's/curl -s /curl -s --compressed /' "$TMP/rest.sh" >"$TMP/restz.sh"
# meta: one scanner, one GET with a batch big enough for the whole table, then DELETE.
cat >"$TMP/meta.sh" <<EOF
loc=\$(curl -s -D - -o /dev/null -X POST -H 'Content-Type: application/json' \
  -H 'X-XSRF-HEADER: 1' --data '{"startRow":"$(printf '%s,,' "$TABLE" | base64)","endRow":"$(printf '%s ,,' "$TABLE" | base64)","column":["aW5mbzpyZWdpb25pbmZv","aW5mbzpzZXJ2ZXI=","aW5mbzpzdGF0ZQ=="],"batch":100000000,"maxVersions":1}' \
  '$REST/hbase:meta/scanner' | tr -d '\r' | sed -n 's/^[Ll]ocation: //p')
curl -s -H 'Accept: application/json' "\$loc" |
jq -c '{table: "$TABLE", source: "meta", regions: [.Row[] | {name: (.key | @base64d),
  server: ((.Cell[] | select((.column | @base64d) == "info:server") | .["\$"] | @base64d) // null),
  state: ((.Cell[] | select((.column | @base64d) == "info:state") | .["\$"] | @base64d) // null)}]}'
curl -s -X DELETE -H 'X-XSRF-HEADER: 1' "\$loc" >/dev/null
EOF

n=$("$HBTAB" --rest "$REST" -o json regions "$TABLE" | jq '.regions | length')
m=$("$HBTAB" --rest "$REST" -o json --no-progress regions "$TABLE" --source meta | jq '.regions | length')
echo "table '$TABLE': $n regions via REST, $m via meta"

set -- $(measure "$HBTAB" --rest "$REST" -o json regions "$TABLE")
HR_S=$1 HR_K=$2
set -- $(measure sh "$TMP/rest.sh")
CR_S=$1 CR_K=$2
set -- $(measure sh "$TMP/restz.sh")
CZ_S=$1 CZ_K=$2
set -- $(measure "$HBTAB" --rest "$REST" --no-progress -o json regions "$TABLE" --source meta)
HM_S=$1 HM_K=$2
set -- $(measure sh "$TMP/meta.sh")
CM_S=$1 CM_K=$2

awk -v hrs="$HR_S" -v hrk="$HR_K" -v crs="$CR_S" -v crk="$CR_K" -v czs="$CZ_S" -v czk="$CZ_K" \
	-v hms="$HM_S" -v hmk="$HM_K" -v cms="$CM_S" -v cmk="$CM_K" 'BEGIN {
	printf "%-34s %8s %10s\n", "case", "wall s", "peak MiB"
	printf "%-34s %8.3f %10.1f\n", "hbtab regions (REST)", hrs, hrk / 1024
	printf "%-34s %8.3f %10.1f\n", "curl | jq /T/regions", crs, crk / 1024
	printf "%-34s %8.3f %10.1f\n", "curl --compressed | jq /T/regions", czs, czk / 1024
	printf "%-34s %8.3f %10.1f\n", "hbtab regions --source meta", hms, hmk / 1024
	printf "%-34s %8.3f %10.1f\n", "curl scanner | jq (meta)", cms, cmk / 1024
	printf "ratio REST  hbtab/curl+jq: time %.2f, memory %.2f\n", hrs / crs, hrk / crk
	printf "ratio REST  hbtab/curl --compressed+jq: time %.2f, memory %.2f\n", hrs / czs, hrk / czk
	printf "ratio meta  hbtab/curl+jq: time %.2f, memory %.2f\n", hms / cms, hmk / cmk
}'
if [ "$CHECK" = "--check" ]; then
	awk -v s="$HR_S" -v k="$HR_K" -v c="$CZ_S" -v ts="$TARGET_S" -v tk="$TARGET_KB" \
		'BEGIN { exit !(s < ts && k < tk && s < c) }' || {
		echo "REST listing misses its targets (< $TARGET_S s, < 100 MiB, faster than curl+jq)" >&2
		exit 1
	}
fi
