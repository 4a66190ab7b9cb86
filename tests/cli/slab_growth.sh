#!/bin/sh
# The slab caches' growth: 50,000 files made and stated in a new directory while memtop
# --slab --json runs add as many dentries (192 bytes each): memtop's dentry growth per
# minute, over a span under a minute, reaches at least half of what they take, and the
# dentry cache's size grew as much between its first and last refresh.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (/proc/slabinfo is root's)"
grep -q '^dentry ' /proc/slabinfo || skip "no dentry cache in /proc/slabinfo"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
mt=
trap '[ -n "$mt" ] && kill $mt 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# measured: the files made while memtop runs, and its figures of them. The dentry cache is
# the machine's: others' files freed meanwhile leave room in its slabs that the new
# dentries fill without new slabs, or shrink it; then the measure is taken again, in a
# new directory (3 times at most)
measured() {
	# memtop runs until the files are made (however long a busy machine takes) and two
	# refreshes more, then gets SIGTERM
	"$MEMTOP" --slab --json -d 1 --no-bpf >"$tmp/json" &
	mt=$!
	lines() { [ "$(wc -l <"$tmp/json")" -ge "$1" ]; }
	eventually 30 lines 2 || fail "memtop printed no 2 lines in 30 s"
	# (a try's files stay till the end: freed, their dentries would leave room in the slabs)
	mkdir "$tmp/files$tries"
	(cd "$tmp/files$tries" && seq 50000 | xargs touch && find . -type f -exec stat -c %s {} + >/dev/null)
	eventually 30 lines $(($(wc -l <"$tmp/json") + 2)) || fail "memtop stopped refreshing"
	kill -TERM $mt
	wait $mt
	rc=$?
	mt=
	[ $rc = 143 ] || fail "memtop exited $rc after SIGTERM"
	want=$((50000 * 192 / 1024 / 2))
	jq -r '.slabs[] | select(.name == "dentry") | "\(.size_kb) \(.growth_kb_per_min)"' "$tmp/json" \
		>"$tmp/dentry"
	[ "$(wc -l <"$tmp/dentry")" = "$(wc -l <"$tmp/json")" ] ||
		fail "dentry in $(wc -l <"$tmp/dentry") of $(wc -l <"$tmp/json") refreshes"
	[ "$(head -n 1 "$tmp/dentry" | cut -d' ' -f2)" = null ] ||
		fail "a growth on the first refresh: $(head -n 1 "$tmp/dentry")"
	max=$(awk '$2 != "null" && $2 > m { m = $2 } END { printf "%d", m }' "$tmp/dentry")
	grew=$(awk 'NR == 1 { a = $1 } { b = $1 } END { print b - a }' "$tmp/dentry")
	[ "$max" -ge "$want" ] ||
		{ echo "dentry grew at most ${max}K/min, not ${want}K: $(tr '\n' ' ' <"$tmp/dentry")" >"$tmp/why"; return 1; }
	[ "$grew" -ge "$want" ] || { echo "the dentry cache grew ${grew}K, not ${want}K" >"$tmp/why"; return 1; }
	echo "dentry: +${grew}K over the run, growth up to ${max}K/min (${want}K at least)"
}
tries=1
until measured; do
	tries=$((tries + 1))
	[ $tries -le 3 ] || fail "3 times: $(cat "$tmp/why")"
	echo "(measured again: $(cat "$tmp/why"))"
done
