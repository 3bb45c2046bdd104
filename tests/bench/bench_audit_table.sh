#!/bin/sh
# Time and peak memory of 'hbtab audit' on a 100,000-region table in the emulator, via REST and
# via hbase:meta, beside the emulator's share (curl fetching the same data in the same run).
# hbtab's own time is its CPU time (user + system); the rest of its wall time ("waiting") is
# the emulator, which serves in Python: that is the emulator's share.
# Usage: tests/bench/bench_audit_table.sh [HBTAB_BINARY] [--check]
#   HBEMU_GEN_DIR names the emulator's generated modules (BUILD/emu_gen).
#   --check exits 1 when hbtab's own time is 1 s or more, or its peak RSS 100 MiB or more.
set -eu

. "$(dirname "$0")/lib.sh"
bench_binary "$@"
need_gnu_time
SRC=$(cd "$(dirname "$0")/../.." && pwd)
PY=${HBTAB_PYTHON:-/usr/bin/python3}
REGIONS=${BENCH_REGIONS:-100000}
TABLE=bench

emu_hex_table 100 "$TABLE" "$REGIONS"
# The emulator's share: the same data fetched by curl, discarded.
cat >"$TMP/meta.sh" <<EOF
loc=\$(curl -s -D - -o /dev/null -X POST -H 'Content-Type: application/json' \
  -H 'X-XSRF-HEADER: 1' --data '{"startRow":"$(b64 "$TABLE,,")","endRow":"$(b64 "$TABLE ,,")","batch":1000,"maxVersions":1}' \
  '$REST/hbase:meta/scanner' | tr -d '\r' | sed -n 's/^[Ll]ocation: //p')
while [ "\$(curl -s -o /dev/null -w '%{http_code}' -H 'Accept: application/json' "\$loc")" = 200 ]; do :; done
curl -s -X DELETE -H 'X-XSRF-HEADER: 1' "\$loc" >/dev/null
EOF

set -- $(timed_cpu curl -s --compressed -H 'Accept: application/json' "$REST/$TABLE/regions")
ER_W=$1
set -- $(timed_cpu sh "$TMP/meta.sh")
EM_W=$1
set -- $(timed_cpu "$HBTAB" --rest "$REST" --no-progress audit "$TABLE")
HR_W=$1 HR_C=$2 HR_K=$3
set -- $(timed_cpu "$HBTAB" --rest "$REST" --no-progress -o json audit "$TABLE")
HJ_W=$1 HJ_C=$2 HJ_K=$3
set -- $(timed_cpu "$HBTAB" --rest "$REST" --no-progress audit "$TABLE" --source meta)
HM_W=$1 HM_C=$2 HM_K=$3

awk -v n="$REGIONS" -v erw="$ER_W" -v emw="$EM_W" \
	-v hrw="$HR_W" -v hrc="$HR_C" -v hrk="$HR_K" -v hjw="$HJ_W" -v hjc="$HJ_C" -v hjk="$HJ_K" \
	-v hmw="$HM_W" -v hmc="$HM_C" -v hmk="$HM_K" 'BEGIN {
	printf "audit of a %d-region table (keyspace from the metadata row)\n", n
	printf "%-36s %8s %10s %10s %12s\n", "case", "wall s", "hbtab s", "peak MiB", "waiting s"
	printf "%-36s %8.3f %10s %10s %12s\n", "emulator: curl GET /T/regions", erw, "-", "-", "-"
	printf "%-36s %8.3f %10s %10s %12s\n", "emulator: curl meta scan, batch 1000", emw, "-", "-", "-"
	printf "%-36s %8.3f %10.2f %10.1f %12.3f\n", "hbtab audit (REST)", hrw, hrc, hrk / 1024, hrw - hrc
	printf "%-36s %8.3f %10.2f %10.1f %12.3f\n", "hbtab -o json audit (REST)", hjw, hjc, hjk / 1024, hjw - hjc
	printf "%-36s %8.3f %10.2f %10.1f %12.3f\n", "hbtab audit --source meta", hmw, hmc, hmk / 1024, hmw - hmc
	printf "hbtab own share of wall time: REST %.0f%%, meta %.0f%% (the rest is the emulator)\n", \
		100 * hrc / hrw, 100 * hmc / hmw
	printf "(the curl meta scan runs one curl process per 1000-cell GET, so it is slower than one client)\n"
}'
if [ "$CHECK" = "--check" ]; then
	awk -v a="$HR_C" -v b="$HM_C" -v c="$HJ_C" -v k1="$HR_K" -v k2="$HM_K" -v k3="$HJ_K" \
		'BEGIN { exit !(a < 1 && b < 1 && c < 1 && k1 < 102400 && k2 < 102400 && k3 < 102400) }' || {
		echo "audit misses its targets (hbtab's own time < 1 s, peak < 100 MiB)" >&2
		exit 1
	}
fi
