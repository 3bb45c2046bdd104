#!/bin/sh
# Runs one libFuzzer harness.
#   run.sh regress HARNESS CORPUS WORK RUNS   replay every corpus input, then RUNS mutations
#                                             from a fixed seed (the test suite's regression)
#   run.sh fuzz HARNESS CORPUS WORK SECONDS   fuzz for SECONDS; new inputs go to WORK/new,
#                                             crashes to WORK/crash-*
# The checked-in CORPUS is only read; inputs libFuzzer finds are written under WORK.
set -eu
mode=$1 harness=$2 corpus=$3 work=$4 amount=$5
rm -rf "$work/new"
mkdir -p "$work/new"
common="-timeout=25 -rss_limit_mb=1024 -max_len=4096 -print_final_stats=1 -artifact_prefix=$work/"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
case $mode in
regress)
	# shellcheck disable=SC2086
	exec "$harness" $common -seed=1 -runs="$amount" "$work/new" "$corpus" ;;
fuzz)
	# shellcheck disable=SC2086
	exec "$harness" $common -max_total_time="$amount" "$work/new" "$corpus" ;;
*)
	echo "usage: run.sh regress|fuzz HARNESS CORPUS WORK RUNS|SECONDS" >&2
	exit 2 ;;
esac
