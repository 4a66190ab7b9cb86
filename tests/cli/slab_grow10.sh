#!/bin/sh
# memtop-test: long
# memtop-test: timeout 300
# The slab caches' growth over the last minute and over ten (GROW, growth_kb_per_min, and
# GROW10, grow10_kb_per_min): 200,000 files made and stated in a new directory, a batch at
# each of memtop --slab --json's refreshes (so that the dentry cache grows steadily however
# fast the machine is; its free objects taken up before), add as many dentries (38 MB: the
# few megabytes of them other work frees meanwhile, its files removed or its processes'
# /proc entries gone, move GROW10 and the truth by well under the bound): dentry's grow10
# is null until its samples span 30 s, then positive, and at the last refresh within 25 %
# of the least-squares slope of the dentry cache's sizes at the refreshes, per minute (a
# fit, as GROW10 is: a dip at one end, other work's files removed, moves the two alike).
# GROW, null at the first refresh, is at the last the cache's size change between the
# first and the last refresh per minute, within 10 % (its samples span the run, under a
# minute). These hold whatever other work frees meanwhile (the figures and the truth see
# the same sizes); where the cache grew by less than a sixteenth of what the files'
# dentries take (other work's reclaim), it is tried again, twice at most, else skipped.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (/proc/slabinfo is root's)"
grep -q '^dentry ' /proc/slabinfo || skip "no dentry cache in /proc/slabinfo"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'kill $mt 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

n=64 files=200000 # 31.5 s of samples: GROW10 needs 30
per=$((files / (n - 1) + 1)) run=0

# measure: a run of memtop with the files made, dentry's "ts size grow10" a line each in
# $tmp/dentry
measure() {
	# new directories (the files of a run before kept: their dentries freed now would
	# shrink the cache); the cache's free objects taken first (its size grows only once
	# they are in use)
	run=$((run + 1))
	mkdir "$tmp/files$run" "$tmp/first$run"
	free=$(awk '$1 == "dentry" { print $3 - $2 + 1000 }' /proc/slabinfo)
	(cd "$tmp/first$run" && seq "$free" | xargs touch)
	: >"$tmp/json"
	"$MEMTOP" --slab --json -n $n -d 0.5 --no-bpf >"$tmp/json" &
	mt=$!
	k=1
	while kill -0 $mt 2>/dev/null && [ $k -lt $n ]; do
		# the batch of refresh k once memtop printed it
		[ "$(wc -l <"$tmp/json")" -ge $k ] || { sleep 0.05; continue; }
		seq $((k * per)) $(((k + 1) * per - 1)) | sed "s|^|$tmp/files$run/f|" >"$tmp/batch"
		xargs touch <"$tmp/batch" && xargs stat -c %s <"$tmp/batch" >/dev/null
		k=$((k + 1))
	done
	wait $mt || fail "memtop exited $?"
	jq -r '.ts as $t | .slabs[] | select(.name == "dentry") | "\($t) \(.size_kb) \(.grow10_kb_per_min) \(.growth_kb_per_min)"' \
		"$tmp/json" >"$tmp/dentry"
	[ "$(wc -l <"$tmp/dentry")" = $n ] || fail "dentry in $(wc -l <"$tmp/dentry") of $n refreshes"
}

# grew: the dentry cache grew over the run by a sixteenth or more of what the files'
# dentries take (its fitted growth: 2.3 MB, clearly positive; the new dentries fill the
# room other work's freed ones leave, and its reclaim can take as much)
grew() {
	awk -v fit="$(fitted)" -v want=$((files * 192 / 1024 / 16)) 'NR == 1 { t0 = $1 }
		END { exit !(fit * ($1 - t0) / 60 >= want) }' "$tmp/dentry"
}
# fitted: the least-squares slope of the cache's sizes at the refreshes, KiB a minute
fitted() {
	awk 'NR == 1 { t0 = $1 } { x = $1 - t0; n++; sx += x; sy += $2; sxx += x * x; sxy += x * $2 }
		END { printf "%.2f\n", 60 * (n * sxy - sx * sy) / (n * sxx - sx * sx) }' "$tmp/dentry"
}

# grown: a run over which the cache grew
grown() {
	measure
	grew && return 0
	echo "the dentry cache grew too little during the run ($(tr '\n' ' ' <"$tmp/dentry"))"
	return 1
}
tries 3 grown || skip "the dentry cache grew too little during three runs (other work)"
# null while the samples span under 30 s (the 20th refresh: 9.5 s)
[ "$(sed -n 20p "$tmp/dentry" | cut -d' ' -f3)" = null ] ||
	fail "a GROW10 before 30 s: $(sed -n 20p "$tmp/dentry")"
[ "$(head -n 1 "$tmp/dentry" | cut -d' ' -f4)" = null ] ||
	fail "a GROW at the first refresh: $(head -n 1 "$tmp/dentry")"
awk -v fit="$(fitted)" 'NR == 1 { t0 = $1; k0 = $2 } { t = $1; k = $2; g = $3; m = $4 }
	END { if (g == "null" || g <= 0) { print "dentry GROW10 at the last refresh: " g; exit 1 }
	      if (m == "null") { print "dentry GROW at the last refresh: null"; exit 1 }
	      want = (k - k0) * 60 / (t - t0)
	      printf "dentry: %+dK over %.1f s, %.0fK/min (fitted %.0fK/min); GROW10 %.0fK/min, GROW %.0fK/min\n",
		k - k0, t - t0, want, fit, g, m
	      if (fit <= 0 || g < fit * 0.75 || g > fit * 1.25) exit 1
	      if (want <= 0 || m < want * 0.9 || m > want * 1.1) exit 1 }' "$tmp/dentry" \
	>"$tmp/out" || fail "$(cat "$tmp/out"): $(tr '\n' ' ' <"$tmp/dentry")"
cat "$tmp/out"
