#!/bin/sh
# memtop-test: beside others
# --users: the totals per user (count, swap, USS, PSS, RSS) equal smem -u's, for a test
# user running children of known size (within 1 %: smem sums each mapping rounded) and for root (within
# what changed between smem's reads before and after memtop's).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (smem reads every process's smaps)"
command -v smem >/dev/null || skip "smem is not installed (apt-get install smem)"
command -v runuser >/dev/null || skip "runuser is not installed"
user=nobody
nobody_idle
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
chmod 755 "$tmp"
kids=
trap 'for k in $kids; do kill "$k" 2>/dev/null; done; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

for mib in 8 16 24; do
	runuser -u $user -- "$HELPERS/alloc_child" $mib >"$tmp/child$mib" &
	kids="$kids $!"
	wait_ready "$tmp/child$mib" || fail "alloc_child $mib never got ready"
done
# runuser stays the children's parent: their pids are in the files
kids="$kids $(awk '{ print $2 }' "$tmp"/child*)"

# read: smem -u, memtop --json --users, smem -u again, then memtop's batch table
read_all() {
	smem -u -H >"$tmp/smem1" || fail "smem -u failed"
	"$MEMTOP" --json -n 1 --users --columns +pss,uss >"$tmp/json" ||
		fail "memtop --json --users exited $?"
	smem -u -H >"$tmp/smem2" || fail "smem -u failed"
	"$MEMTOP" -b -n 1 --users >"$tmp/batch" || fail "memtop -b --users exited $?"
	# smem -u counts itself among root's processes: its own figures (column: 2 uss, 3 pss,
	# 4 rss, 5 swap) go to memtop's
	smem -H -c "pid uss pss rss swap" -P 'bin/smem' >"$tmp/self" || fail "smem -P failed"
}
read_all
# and memtop counts itself, which smem's reads do not see: its own figures come off
self() { # FIELD COLUMN
	m=$(jq "[.processes[] | select(.comm == \"memtop\" and (.cmd | test(\"--users\"))) | .$1 // 0] | add // 0" "$tmp/json")
	awk -v c="$2" -v m="$m" '{ s += $c } END { print s - m }' "$tmp/self"
}
grep -q '^USER       COUNT  SWAP   USS   PSS   RSS$' "$tmp/batch" || fail "no users table in batch text"
grep -q "^$user  *3 " "$tmp/batch" || fail "$user not in the batch table: $(grep -A5 '^USER  ' "$tmp/batch")"

# check USER FIELD COLUMN SLACK_PCT [PLUS]: memtop's figure (+ PLUS) between smem's two
# reads, widened by SLACK_PCT % and a page per process
check() {
	got=$(jq ".users[] | select(.user == \"$1\") | .$2 + ${5:-0}" "$tmp/json")
	[ -n "$got" ] || fail "no users[] entry for $1: $(jq -c .users "$tmp/json")"
	a=$(awk -v u="$1" -v c="$3" '$1 == u { print $c }' "$tmp/smem1")
	b=$(awk -v u="$1" -v c="$3" '$1 == u { print $c }' "$tmp/smem2")
	n=$(jq ".users[] | select(.user == \"$1\") | .count" "$tmp/json")
	awk -v g="$got" -v a="${a:-0}" -v b="${b:-0}" -v s="$4" -v n="$n" -v f="$2" -v u="$1" 'BEGIN {
		lo = a < b ? a : b; hi = a < b ? b : a
		if (f != "count") { lo -= 4 * n; hi += 4 * n }
		lo -= lo * s / 100; hi += hi * s / 100
		if (g < lo || g > hi) { printf "%s %s: memtop %s, smem -u %s then %s\n", u, f, g, a, b; exit 1 }
		printf "ok %s %s %s (smem -u %s, %s)\n", u, f, g, a, b }' || return 1
}
for f in "count 2 0" "swap_kb 3 5" "uss_kb 4 2" "pss_kb 5 3" "rss_kb 6 4"; do
	set -- $f
	# smem sums smaps, each mapping rounded down to a KiB
	check $user "$1" "$2" 1 || fail "$user $1 differs from smem -u"
done
# root's processes come and go (other tests running, memtop and smem themselves): where
# they moved past the slack between the reads, all are read again, half a second later
# (ten reads at most: the tests beside start and end processes of tens of MB in bursts)
root_ok() {
	for f in "count 2 0" "swap_kb 3 5" "uss_kb 4 2" "pss_kb 5 3" "rss_kb 6 4"; do
		set -- $f
		if [ "$1" = count ]; then
			check root "$1" "$2" 25 0 || return 1
		else
			check root "$1" "$2" 25 "$(self "$1" "$3")" || return 1
		fi
	done
}
root_again() { sleep 0.5 && read_all && root_ok; }
root_ok || tries 9 root_again || fail "root's figures differ from smem -u's in 10 reads"
