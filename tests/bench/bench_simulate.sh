#!/bin/sh
# 'hbtab simulate' against a JVM program of seed 000's design (tests/bench/SimulateBaseline.java:
# a TreeSet of a 1,000,000-key md5 sample, every (sample/regions)-th key as a split, a TreeMap
# floor lookup per write), 10 regions and 10,000,000 writes, measured in the same run; beside
# it OpenSSL's one-shot MD5() rate (tests/bench/md5_rate.c), which bounds the md5 generator.
# Checks that both give identical split keys and per-region counts.
# Usage: tests/bench/bench_simulate.sh [HBTAB_BINARY] [--check]
# --check exits 1 when a target is missed: identical counts, under 64 MiB peak RSS, at least
# 2.5x faster than the JVM single-threaded and 4x with --threads 2.
# Needs javac/java (Debian: default-jdk-headless), a C compiler and libssl-dev.
set -eu

. "$(dirname "$0")/lib.sh"
bench_binary "$@"
for tool in javac java cc /usr/bin/time; do
	command -v "$tool" >/dev/null 2>&1 || { echo "$0: needs $tool" >&2; exit 2; }
done
REGIONS=10
WRITES=${BENCH_WRITES:-10000000}
HERE=$(cd "$(dirname "$0")" && pwd)

javac -d "$TMP" "$HERE/SimulateBaseline.java"
cc -O2 -o "$TMP/md5_rate" "$HERE/md5_rate.c" -lcrypto

# run NAME CMD...: stdout to $TMP/NAME.out; sets wall, cpu (user+sys) and kb
run() {
	name=$1
	shift
	t0=$(date +%s%N)
	/usr/bin/time -f "%U %S %M" -o "$TMP/$name.time" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	t1=$(date +%s%N)
	wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
	set -- $(tail -n 1 "$TMP/$name.time")
	cpu=$(awk -v u="$1" -v s="$2" 'BEGIN { printf "%.2f", u + s }')
	kb=$3
}

fail=0
"$TMP/md5_rate" "$WRITES" >"$TMP/md5.out"
md5_rate=$(awk '{ print $2 }' "$TMP/md5.out")
md5_cpu_rate=$(awk '{ print $3 }' "$TMP/md5.out")

run java java -Xss8m -cp "$TMP" SimulateBaseline "$REGIONS" "$WRITES" 0 0
java_wall=$wall java_cpu=$cpu java_kb=$kb
java_inner=$(awk '/elapsed_ms/ { printf "%.3f", $2 / 1000 }' "$TMP/java.err")

run t1 "$HBTAB" --no-progress simulate --sampled-splits "$REGIONS" --generator md5 \
	--count "$WRITES" --threads 1 -o json
t1_wall=$wall t1_cpu=$cpu t1_kb=$kb
run t2 "$HBTAB" --no-progress simulate --sampled-splits "$REGIONS" --generator md5 \
	--count "$WRITES" --threads 2 -o json
t2_wall=$wall t2_cpu=$cpu t2_kb=$kb
# the writes alone (no sample): keys per second per thread against MD5()
run r1 "$HBTAB" --no-progress simulate --hex-splits "$REGIONS" --generator md5 \
	--count "$WRITES" --threads 1 -o json
r1_wall=$wall r1_cpu=$cpu

# identical split keys and counts
sed -n 's/^count //p' "$TMP/java.out" >"$TMP/java.counts"
sed -n 's/^split //p' "$TMP/java.out" >"$TMP/java.splits"
for t in t1 t2; do
	jq -r '.regions[].writes' "$TMP/$t.out" >"$TMP/$t.counts"
	jq -r '.regions[1:][].start' "$TMP/$t.out" >"$TMP/$t.splits"
	if cmp -s "$TMP/java.counts" "$TMP/$t.counts" && cmp -s "$TMP/java.splits" "$TMP/$t.splits"
	then
		same=identical
	else
		same=DIFFERENT
		fail=1
	fi
	eval "${t}_same=\$same"
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
verdict() { awk -v r="$1" -v t="$2" 'BEGIN { print (r >= t) ? "ok" : "OVER" }'; }
s1=$(ratio "$java_wall" "$t1_wall")
s2=$(ratio "$java_wall" "$t2_wall")
v1=$(verdict "$s1" 2.5)
v2=$(verdict "$s2" 4)
[ "$v1" = ok ] || fail=1
[ "$v2" = ok ] || fail=1
for kb in "$t1_kb" "$t2_kb"; do
	[ "$kb" -le 65536 ] || fail=1
done
rate1=$(awk -v n="$WRITES" -v w="$r1_wall" 'BEGIN { printf "%.0f", n / w }')
rate1_cpu=$(awk -v n="$WRITES" -v w="$r1_cpu" 'BEGIN { printf "%.0f", (w > 0 ? n / w : 0) }')

printf 'regions %s, writes %s, seed 0, start time 0\n' "$REGIONS" "$WRITES"
printf '%-40s %8s s wall %8s s cpu %8s KiB\n' "JVM baseline (TreeSet + TreeMap)" \
	"$java_wall" "$java_cpu" "$java_kb"
printf '%-40s %8s s (inside the JVM, without start-up)\n' "" "$java_inner"
printf '%-40s %8s s wall %8s s cpu %8s KiB  x%s faster (target 2.5) %s, counts %s\n' \
	"hbtab simulate --threads 1" "$t1_wall" "$t1_cpu" "$t1_kb" "$s1" "$v1" "$t1_same"
printf '%-40s %8s s wall %8s s cpu %8s KiB  x%s faster (target 4) %s, counts %s\n' \
	"hbtab simulate --threads 2" "$t2_wall" "$t2_cpu" "$t2_kb" "$s2" "$v2" "$t2_same"
printf '%-40s %12s keys/s per thread (wall), %12s per CPU second\n' \
	"hbtab writes only (--threads 1)" "$rate1" "$rate1_cpu"
printf '%-40s %12s keys/s (wall), %12s per CPU second\n' "OpenSSL MD5() one-shot, 8 bytes" \
	"$md5_rate" "$md5_cpu_rate"
printf 'hbtab / MD5(): x%s by wall time, x%s by CPU time (aim >= 0.8, i.e. within 1.25x)\n' \
	"$(ratio "$rate1" "$md5_rate")" "$(ratio "$rate1_cpu" "$md5_cpu_rate")"
printf 'cpu time ratio JVM / hbtab --threads 1: x%s\n' "$(ratio "$java_cpu" "$t1_cpu")"

if [ "$CHECK" = --check ] && [ "$fail" -ne 0 ]; then
	echo "some targets were missed" >&2
	exit 1
fi
exit 0
