#!/bin/sh
# --record's size and cost. Size: in a PID namespace of its own (unshare; its /proc lists
# only its processes) with N idle processes, memtop --record and atop -w record the same
# SAMPLES samples, INTERVAL seconds apart, side by side; prints the bytes per sample of
# each (the file less its header, over the samples, keyframes included) and a day at
# -d 10 from them. Cost: CPU per refresh of --record and of -b, interleaved in each of
# ROUNDS rounds with NPROCS idle processes, medians (as bench/compare.sh).
# Knobs: SIZES ("500 2000"), SAMPLES (61), INTERVAL (1), NPROCS (2000), ROUNDS (7),
# REFRESHES (21), DELAY (0.2). Needs root (unshare) and atop.
set -eu
cd "$(dirname "$0")/.."
. bench/median.inc
B=${B:-build/memtop}
HELPER=build/bench/idle_procs
SIZES=${SIZES:-500 2000}
SAMPLES=${SAMPLES:-61}
INTERVAL=${INTERVAL:-1}
NPROCS=${NPROCS:-2000}
ROUNDS=${ROUNDS:-7}
REFRESHES=${REFRESHES:-21}
DELAY=${DELAY:-0.2}
[ -x "$HELPER" ] || make --no-print-directory "$HELPER" >/dev/null
tmp=$(mktemp -d /tmp/memtop-record.XXXXXX)
spawner=""
. bench/idle.inc
trap 'stop_spawner; rm -rf "$tmp"' EXIT

if command -v atop >/dev/null && command -v unshare >/dev/null; then
	for n in $SIZES; do
		# the namespace's pid 1 is this shell: the idle processes, memtop and atop under it
		unshare --pid --fork --mount-proc sh -c '
			"$1" spawn "$2" >"$3/idle" &
			until grep -q ready "$3/idle"; do sleep 0.1; done
			atop -w "$3/atop" "$5" "$4" >/dev/null 2>&1 &
			"$6" --record "$3/rec" -n "$4" -d "$5" --no-bpf
			wait $!
			ls /proc | grep -c "^[0-9]" >"$3/nprocs"' sh "$PWD/$HELPER" "$n" "$tmp" "$SAMPLES" \
			"$INTERVAL" "$PWD/$B"
		hdr=$(head -c 20 "$tmp/rec" | od -An -tu4 -j12 -N4 | tr -d ' ')
		rec=$(($(stat -c %s "$tmp/rec") - 20 - hdr))
		atop=$(stat -c %s "$tmp/atop")
		got=$("$B" --replay "$tmp/rec" --json | tail -n 1 | jq '.processes | length')
		echo "$n idle ($got processes), $SAMPLES samples $INTERVAL s apart: memtop $((rec / SAMPLES)) bytes a sample, atop $((atop / SAMPLES)); a day at -d 10: memtop $((rec / SAMPLES * 8640 / 1024)) KiB, atop $((atop / SAMPLES * 8640 / 1024)) KiB"
		rm -f "$tmp/rec" "$tmp/atop"
	done
else
	echo "record.sh: no atop or unshare: sizes not measured"
fi

"$HELPER" spawn "$NPROCS" >"$tmp/idle" &
spawner=$!
until grep -q ready "$tmp/idle"; do sleep 0.1; done
cpu() { "$HELPER" rusage "$@" | awk '{ print ($1 + $2) / 1000 }'; }
r=0
while [ $r -lt "$ROUNDS" ]; do
	for mode in -b record; do
		if [ $mode = record ]; then
			rm -f "$tmp/r1" "$tmp/rn"
			one=$(cpu "$B" --record "$tmp/r1" -n 1 -d "$DELAY")
			many=$(cpu "$B" --record "$tmp/rn" -n "$REFRESHES" -d "$DELAY")
		else
			one=$(cpu "$B" -b -n 1 -d "$DELAY")
			many=$(cpu "$B" -b -n "$REFRESHES" -d "$DELAY")
		fi
		echo "$r $mode $(echo "$one $many" | awk -v n="$REFRESHES" '{ printf "%.2f", ($2 - $1) / (n - 1) }')"
	done >>"$tmp/runs"
	r=$((r + 1))
done
awk -v n="$NPROCS" -v r="$ROUNDS" "$MEDIAN_AWK"'
	{ v[$2] = v[$2] " " $3; if ($2 == "-b") b[$1] = $3; else c[$1] = $3 }
	END {
		for (i in b) q = q " " (b[i] > 0 ? c[i] / b[i] : 0)
		printf "CPU ms per refresh, %d idle processes, %d interleaved rounds: -b %.2f, --record %.2f, ratio (median of rounds) %.2f\n",
			n, r, median_of(v["-b"]), median_of(v["record"]), median_of(q)
	}' "$tmp/runs"
