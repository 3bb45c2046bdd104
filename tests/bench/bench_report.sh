#!/bin/sh
# hbtab report's 100,000-region pages: the page's size, hbtab's time to make it against the
# audit of the same regions (measured in the same run), and headless Chromium's time to
# render it against the same browser rendering a 10-region page (its start-up and a small
# page). With an emulator (HBEMU_GEN_DIR set, or a second argument) the same for a live
# 100,000-region table: report TABLE against audit TABLE.
# Usage: tests/bench/bench_report.sh [HBTAB_BINARY] [EMU_GEN_DIR]
set -eu

. "$(dirname "$0")/lib.sh"
HBTAB=${1:-${HBTAB_BIN:-}}
GEN=${2:-${HBEMU_GEN_DIR:-}}
if [ -z "$HBTAB" ] || [ ! -x "$HBTAB" ]; then
	echo "usage: $0 HBTAB_BINARY [EMU_GEN_DIR]  (or set HBTAB_BIN, HBEMU_GEN_DIR)" >&2
	exit 2
fi
need_gnu_time
PY=/usr/bin/python3
SRC=$(cd "$(dirname "$0")/../.." && pwd)
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
N=100000
MEASURE_OK_RC=1 # findings are a success
SEED="--range-splits $N --start 0000000000000000 --end ffffffffffffffff"

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'; }
mib() { awk -v b="$(wc -c <"$1")" 'BEGIN { printf "%.2f MiB", b / 1048576 }'; }

# render PAGE: seconds for headless Chromium to load PAGE and write a screenshot of it
render() {
	t0=$(date +%s%N)
	HOME=$TMP "$CHROMIUM" --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
		--force-device-scale-factor=1 --user-data-dir="$TMP/chromium" --no-first-run \
		--window-size=1280,1400 --screenshot="$TMP/shot.png" "file://$1" >/dev/null 2>&1
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'
}

# case NAME BASE_S ARGS...: times report ARGS --html FILE against BASE_S, the page's size and
# its rendering against the 10-region page's
case_() {
	name=$1 base=$2
	shift 2
	set -- $(measure "$HBTAB" report "$@" --html "$TMP/page.html")
	printf '%-50s %6.3f s %8d KiB  x%-5s vs audit   page %s\n' "report $name" "$1" "$2" \
		"$(ratio "$1" "$base")" "$(mib "$TMP/page.html")"
	if [ -n "$CHROMIUM" ]; then
		r=$(render "$TMP/page.html")
		printf '%-50s %6.3f s           x%-5s vs a 10-region page\n' "  chromium render" "$r" \
			"$(ratio "$r" "$SMALL_R")"
	fi
}

"$HBTAB" report --hex-splits 10 --keyspace 'hex{8}' --html "$TMP/small.html" >/dev/null
if [ -n "$CHROMIUM" ]; then
	render "$TMP/small.html" >/dev/null # the first start fills the profile
	SMALL_R=$(render "$TMP/small.html")
	printf '%-50s %6.3f s\n' "baseline: chromium render of a 10-region page" "$SMALL_R"
else
	echo "chromium is not installed: render times left out"
fi

# shellcheck disable=SC2086 # SEED is words
set -- $(measure "$HBTAB" audit $SEED --keyspace 'hex{16}')
SEED_AUDIT=$1
printf '%-50s %6.3f s %8d KiB\n' "baseline: audit seed-001 design, $N regions" "$1" "$2"
set -- $(measure "$HBTAB" audit --hex-splits $N --keyspace 'hex{8}')
HEX_AUDIT=$1
printf '%-50s %6.3f s %8d KiB\n' "baseline: audit --hex-splits $N 'hex{8}'" "$1" "$2"

# shellcheck disable=SC2086
case_ "seed-001 design, $N regions" "$SEED_AUDIT" $SEED --keyspace 'hex{16}'
echo "  flagged runs drawn: $(grep -c '<rect class="flag"' "$TMP/page.html" || true)"
case_ "--hex-splits $N 'hex{8}' (healthy)" "$HEX_AUDIT" --hex-splits $N --keyspace 'hex{8}'
case_ "--hex-splits $N 'hex{8}' --simulate" "$HEX_AUDIT" --hex-splits $N --keyspace 'hex{8}' \
	--simulate --count 1000000

if [ -n "$GEN" ]; then
	HBEMU_GEN_DIR=$GEN
	emu_hex_table 600 events_user_clicks_20261128 $N
	set -- $(measure "$HBTAB" --rest "$REST" --no-progress audit events_user_clicks_20261128)
	printf '%-50s %6.3f s %8d KiB\n' "baseline: audit of a live $N-region table" "$1" "$2"
	case_ "of a live $N-region table" "$1" --rest "$REST" --no-progress \
		events_user_clicks_20261128
else
	echo "no EMU_GEN_DIR: the live table's case left out"
fi
