# Shared by the tests/bench/*.sh scripts (sourced, POSIX sh): scratch directory, emulator
# start-up and the wall-time / peak-RSS measurement. Scripts set PY to pick the Python.

# bench_binary ARGS...: HBTAB from the first argument (or HBTAB_BIN) and CHECK from the
# second ("--check" or empty); exits 2 with the usage line (the arguments as USAGE says, by
# default "HBTAB_BINARY [--check]") when HBTAB names no executable.
bench_binary() {
	HBTAB=${1:-${HBTAB_BIN:-}}
	# shellcheck disable=SC2034 # read by the scripts
	CHECK=${2:-}
	if [ -z "$HBTAB" ] || [ ! -x "$HBTAB" ]; then
		echo "usage: $0 ${USAGE:-HBTAB_BINARY [--check]}  (or set HBTAB_BIN)" >&2
		exit 2
	fi
}

# need_gnu_time: exits 2 unless GNU time is installed (peak RSS of a command).
need_gnu_time() {
	if [ ! -x /usr/bin/time ]; then
		echo "$0: needs GNU time (/usr/bin/time, Debian package 'time')" >&2
		exit 2
	fi
}

TMP=$(mktemp -d)
EMU_PID=
cleanup() {
	[ -n "$EMU_PID" ] && kill "$EMU_PID" 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

# measure CMD...: runs CMD with stdout to /dev/null; prints "seconds kilobytes". An exit status
# above MEASURE_OK_RC (default 0; audit sets 1, its findings status) ends the caller's
# subshell with it. Peak RSS from /usr/bin/time (package "time") when installed, else
# Python's getrusage(RUSAGE_CHILDREN), which then includes the Python launcher's own RSS
# (about 13 MiB); the wall time is taken around the command in nanoseconds (time's %e has
# only 10 ms steps).
measure() {
	if [ -x /usr/bin/time ]; then
		t0=$(date +%s%N)
		rc=0
		/usr/bin/time -f "%M" -o "$TMP/time" "$@" >/dev/null || rc=$?
		t1=$(date +%s%N)
		[ "$rc" -le "${MEASURE_OK_RC:-0}" ] || exit "$rc"
		printf '%s %s\n' "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')" \
			"$(tail -n 1 "$TMP/time")"
		return
	fi
	"${PY:-python3}" - "${MEASURE_OK_RC:-0}" "$@" <<'PY'
import resource, subprocess, sys, time
ok = int(sys.argv[1])
t = time.monotonic()
rc = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL)
wall = time.monotonic() - t
if rc < 0 or rc > ok:
    sys.exit(rc if rc > 0 else 3)
print("%.3f %d" % (wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
PY
}

# judge SECONDS KB BASE_S BASE_KB: sets ratio_t and ratio_m (against the baseline) and ok
# ("ok" or "OVER" against TARGET_S / TARGET_KB); an OVER sets fail=1.
judge() {
	ratio_t=$(awk -v a="$1" -v b="$3" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
	ratio_m=$(awk -v a="$2" -v b="$4" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
	ok=$(awk -v t="$1" -v m="$2" -v T="$TARGET_S" -v M="$TARGET_KB" \
		'BEGIN { print (t <= T && m <= M) ? "ok" : "OVER" }')
	[ "$ok" = ok ] || fail=1
}

# emu_start TRIES MESSAGE CMD...: starts the emulator CMD in the background (EMU_PID, ready
# line in $TMP/ready) and waits up to TRIES tenths of a second for it; on a timeout prints
# MESSAGE and the emulator's log to stderr and exits 1.
emu_start() {
	tries=$1 msg=$2
	shift 2
	"$@" >"$TMP/ready" 2>"$TMP/emu.log" &
	EMU_PID=$!
	i=0
	until grep -q HBEMU-READY "$TMP/ready" 2>/dev/null; do
		i=$((i + 1))
		if [ "$i" -gt "$tries" ]; then
			echo "$msg" >&2
			cat "$TMP/emu.log" >&2
			exit 1
		fi
		sleep 0.1
	done
}

# port NAME: the emulator's port for rest, thrift or control from its ready line.
port() { sed -n "s/.*\"$1\": *\([0-9]*\).*/\1/p" "$TMP/ready"; }

# hbtab_and_gen_args SCRIPT [HBTAB_BINARY] [EMU_GEN_DIR]: sets HBTAB and GEN from the
# arguments, else from HBTAB_BIN / HBEMU_GEN_DIR; prints the usage and exits 2 without them.
hbtab_and_gen_args() {
	script=$1
	HBTAB=${2:-${HBTAB_BIN:-}}
	GEN=${3:-${HBEMU_GEN_DIR:-}}
	if [ -z "$HBTAB" ] || [ ! -x "$HBTAB" ] || [ -z "$GEN" ]; then
		echo "usage: $script HBTAB_BINARY EMU_GEN_DIR  (or set HBTAB_BIN and HBEMU_GEN_DIR)" >&2
		exit 2
	fi
}

# emu_start_servers NAME SERVERS: starts the emulator (SRC's tests/emulator, GEN's generated
# modules, Python PY) with SERVERS region servers; sets REST, THRIFT and exports HBEMU_CONTROL.
emu_start_servers() {
	emu_start 300 "$1: the emulator did not start" \
		"$PY" "$SRC/tests/emulator/hbemu.py" --servers "$2" --gen-dir "$GEN"
	REST="http://127.0.0.1:$(port rest)"
	THRIFT="http://127.0.0.1:$(port thrift)/"
	HBEMU_CONTROL="http://127.0.0.1:$(port control)"
	export HBEMU_CONTROL
}

# emu_hex_table TRIES TABLE REGIONS: starts the emulator (SRC's tests/emulator with PY, the
# generated modules of HBEMU_GEN_DIR when set) waiting up to TRIES tenths of a second, sets
# REST and CONTROL, and makes TABLE with the REGIONS regions of 'hbtab splits --hex-splits
# REGIONS' (HBTAB) and the metadata row hbtab create would write (N and key space).
emu_hex_table() {
	tries=$1 table=$2 regions=$3
	set -- "$PY" "$SRC/tests/emulator/hbemu.py" --servers 5
	[ -n "${HBEMU_GEN_DIR:-}" ] && set -- "$@" --gen-dir "$HBEMU_GEN_DIR"
	emu_start "$tries" "emulator did not start:" "$@"
	REST=http://127.0.0.1:$(port rest)
	CONTROL=http://127.0.0.1:$(port control)
	"$HBTAB" -o json splits --hex-splits "$regions" |
		"$PY" -c '
import json, sys
t = sys.argv[1]
keys = [k["base64"] for k in json.load(sys.stdin)["splits"]]
print(json.dumps({"table": t, "families": [{"name": "cf", "attrs": {}}], "attrs": {},
                  "splits": keys}))' "$table" >"$TMP/create.json"
	curl -sf -X POST -H 'Content-Type: application/json' --data-binary @"$TMP/create.json" \
		"$CONTROL/control/create" >/dev/null
	rm -f "$TMP/create.json"
	curl -sf -X POST -H 'Content-Type: application/json' "$CONTROL/control/put" --data "{\"table\":
	\"$table\",\"rows\":[{\"key\":\"$(b64 totalPartition)\",\"cells\":[
	{\"column\":\"$(b64 cf:N)\",\"value\":\"$(b64 "$regions")\"},
	{\"column\":\"$(b64 cf:keyspace)\",\"value\":\"$(b64 'hex{8} *')\"},
	{\"column\":\"$(b64 cf:splits)\",\"value\":\"$(b64 "--hex-splits $regions")\"}]}]}" >/dev/null
}

# b64 STRING: STRING in base64 on one line.
b64() { printf '%s' "$1" | base64 -w0; }

# timed_cpu CMD...: runs CMD with stdout to /dev/null; prints "wall user+sys peak_kb" (wall in
# nanosecond steps, CPU and peak RSS from GNU time). Exit statuses 0 and 1 (findings) are
# fine; another one prints CMD's stderr and ends the caller's subshell with 1.
timed_cpu() {
	t0=$(date +%s%N)
	rc=0
	/usr/bin/time -f "%U %S %M" -o "$TMP/time" "$@" >/dev/null 2>"$TMP/stderr" || rc=$?
	t1=$(date +%s%N)
	if [ "$rc" -gt 1 ]; then
		echo "$* exited $rc:" >&2
		cat "$TMP/stderr" >&2
		exit 1
	fi
	awk -v a="$t0" -v b="$t1" '{ printf "%.3f %.2f %d\n", (b - a) / 1e9, $1 + $2, $3 }' \
		"$TMP/time"
}
