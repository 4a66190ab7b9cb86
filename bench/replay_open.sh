#!/bin/sh
# A replay's start on a day's recording: a minute recorded here (60 samples at -d 0.1, the
# machine's processes) repeated to DAY samples (86400: a day at -d 1) in one file, then
# `memtop --replay FILE -b -n 1` (open, index, check every block's checksum, one sample
# printed) timed for B and, where set, the build BASE, interleaved in each of ROUNDS
# rounds, the file in the page cache (a first run reads it in). Prints wall and CPU ms,
# medians, and the median over rounds of B / BASE.
# Knobs: B (build/memtop), BASE (none), DAY (86400), ROUNDS (7).
set -eu
cd "$(dirname "$0")/.."
. bench/median.inc
B=${B:-build/memtop}
BASE=${BASE:-}
DAY=${DAY:-86400}
ROUNDS=${ROUNDS:-7}
HELPER=build/bench/idle_procs
[ -x "$HELPER" ] || make --no-print-directory "$HELPER" >/dev/null
tmp=$(mktemp -d /tmp/memtop-replay-open.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

"$B" --record "$tmp/minute" -n 60 -d 0.1 >/dev/null
hdr=$((20 + $(od -An -tu4 -j12 -N4 "$tmp/minute" | tr -d ' ')))
head -c "$hdr" "$tmp/minute" >"$tmp/day"
tail -c +$((hdr + 1)) "$tmp/minute" >"$tmp/blocks"
i=0
while [ $i -lt $((DAY / 60)) ]; do
	cat "$tmp/blocks"
	i=$((i + 1))
done >>"$tmp/day"
"$B" --replay "$tmp/day" -b -n 1 >/dev/null # into the page cache

# wall ms and CPU ms (user + sys) of one start
run() {
	s=$(date +%s%N)
	c=$("$HELPER" rusage "$1" --replay "$tmp/day" -b -n 1 | awk '{ print ($1 + $2) / 1000 }')
	echo "$((($(date +%s%N) - s) / 1000)) $c" | awk '{ printf "%.1f %.1f", $1 / 1000, $2 }'
}
r=0
while [ $r -lt "$ROUNDS" ]; do
	echo "$r B $(run "$B")"
	[ -z "$BASE" ] || echo "$r BASE $(run "$BASE")"
	r=$((r + 1))
done >"$tmp/runs"
echo "replay start on $(stat -c %s "$tmp/day") bytes ($DAY samples), $ROUNDS interleaved rounds: wall ms, CPU ms"
awk "$MEDIAN_AWK"'
	{ w[$2] = w[$2] " " $3; c[$2] = c[$2] " " $4; if ($2 == "B") b[$1] = $3; else a[$1] = $3 }
	END {
		printf "B     %7.1f %7.1f\n", median_of(w["B"]), median_of(c["B"])
		if ("BASE" in w) {
			for (r in a) q = q " " b[r] / a[r]
			printf "BASE  %7.1f %7.1f\nB / BASE wall, median over rounds: %.2f\n", median_of(w["BASE"]), median_of(c["BASE"]), median_of(q)
		}
	}' "$tmp/runs"
