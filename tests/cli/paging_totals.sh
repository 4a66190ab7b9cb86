#!/bin/sh
# memtop-test: alone
# The paging totals count the reclaim of a memory cgroup's limit: a reader in a 32 MiB
# memory cgroup streams a 128 MiB file written past the page cache, so the cgroup reclaims
# its own page cache, which the kernel counts in pgsteal_anon + pgsteal_file (what sar -B
# shows) but not in pgsteal_kswapd or pgsteal_direct. memtop (--json, a refresh every
# 0.5 s) runs from before the reader starts until after it ends; /proc/vmstat's totals
# (this script's own sum: _anon + _file where the kernel has them, else the reclaimers'
# lines) read before and after it bracket memtop's pgscan and pgsteal counters, whose
# growth over the run is at least half of the file beyond the limit, and is the sum of
# the rates memtop showed times their intervals.
# (alone: the limited cgroup's reclaim is the whole machine's figure, and the verdict
# may name the cgroup)
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/memcg.inc"
need_memcg
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
FILE=/var/tmp/memtop-paging.$$ mt=
trap '[ -n "$mt" ] && kill "$mt" 2>/dev/null; cg_cleanup; rm -rf "$tmp" "$FILE"' EXIT
trap 'exit 1' INT TERM HUP

dd if=/dev/zero of="$FILE" bs=1M count=128 oflag=direct status=none || fail "writing $FILE"
[ "$(stat -f -c %T "$FILE")" != tmpfs ] ||
	skip "/var/tmp is tmpfs: its pages cannot be reclaimed without swap"
cg_make memtop-paging-$$ $((32 << 20))

# total KIND (pgscan, pgsteal): /proc/vmstat's pages of every reclaimer
total() {
	awk -v k="$1" '
		$1 == k "_anon" || $1 == k "_file" { split_sum += $2; nsplit++ }
		$1 == k "_kswapd" || $1 == k "_direct" || $1 == k "_khugepaged" ||
			$1 == k "_proactive" { by_sum += $2 }
		END { print nsplit == 2 ? split_sum : by_sum }' /proc/vmstat
}
lines() { wc -l <"$tmp/json"; }
more_lines() { [ "$(lines)" -gt "$1" ]; }

: >"$tmp/json"
pgscan0=$(total pgscan) pgsteal0=$(total pgsteal)
"$MEMTOP" --json -d 0.5 -n 400 --no-bpf -p $$ >"$tmp/json" 2>"$tmp/err" &
mt=$!
eventually $HANG more_lines 1 || fail "memtop printed $(lines) lines: $(cat "$tmp/err")"
start=$(lines)
cg_run "$cg_dir" "$tmp/reader" cat "$FILE"
wait "$cg_pid" || fail "the reader failed: $(cat "$tmp/reader")"
# a refresh that began after the reader ended
n=$(lines)
eventually $HANG more_lines $((n + 1)) || fail "memtop stopped refreshing after the reader"
kill "$mt"
wait "$mt"
mt=
pgscan1=$(total pgscan) pgsteal1=$(total pgsteal)
echo "/proc/vmstat: pgscan +$((pgscan1 - pgscan0)), pgsteal +$((pgsteal1 - pgsteal0)) pages"

# the lines from the one before the reader started to the last
tail -n +"$start" "$tmp/json" | jq -c '{dt: .interval_s} + (.system |
	{pgscan, pgsteal, pgscan_per_s, pgsteal_per_s, pgsteal_kswapd, pgsteal_direct})' \
	>"$tmp/figs" || fail "memtop's JSON does not parse"
first=$(head -n 1 "$tmp/figs") last=$(tail -n 1 "$tmp/figs")
echo "memtop, first: $first"
echo "memtop, last:  $last"
limit=$(((128 - 32) * 1024 / ($(getconf PAGESIZE) / 1024) / 2)) # pages: half of the excess
for k in pgscan pgsteal; do
	eval "b=\$${k}0 a=\$${k}1"
	m0=$(printf '%s\n' "$first" | jq -r ".$k") m1=$(printf '%s\n' "$last" | jq -r ".$k")
	case "$m0$m1" in *[!0-9]* | "") fail "$k is '$m0' then '$m1', not counters" ;; esac
	[ "$b" -le "$m0" ] && [ "$m0" -le "$m1" ] && [ "$m1" -le "$a" ] ||
		fail "$k: /proc/vmstat read $b before memtop and $a after, memtop's went $m0 to $m1"
	[ $((m1 - m0)) -ge "$limit" ] ||
		fail "$k grew by $((m1 - m0)) pages in memtop, less than $limit for the reader's reclaim"
	# its rates times their intervals add up to its growth (to the JSON's rounding)
	sum=$(tail -n +2 "$tmp/figs" | jq -s --arg k "${k}_per_s" 'map(.[$k] * .dt) | add')
	awk -v s="$sum" -v g="$((m1 - m0))" -v n="$(wc -l <"$tmp/figs")" 'BEGIN {
		d = s - g; if (d < 0) d = -d; exit !(d <= g / 200 + n * 30) }' ||
		fail "${k}_per_s times interval_s add up to $sum, the counter grew $((m1 - m0))"
	echo "$k: +$((m1 - m0)) pages in memtop (rates: $sum), within /proc/vmstat's $b..$a"
done
