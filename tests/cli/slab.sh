#!/bin/sh
# memtop-test: beside others
# --slab: JSON slabs[] holds every cache of /proc/slabinfo read just after it (memtop still
# running, its own open files as they were), object size
# exact, objects and size (num_slabs x pagesperslab x the page size) within a tolerance
# for the busy caches; its order by size is slabtop -o -s c's for the ten largest where
# their sizes are not within 10 % of each other; the batch text's table has the same
# caches; as nobody (slabinfo is root's), one line says why.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
nobody_turn # it runs processes as nobody: the tests that count nobody's wait
[ "$(id -u)" = 0 ] || skip "needs root (/proc/slabinfo is root's)"
command -v slabtop >/dev/null || skip "needs slabtop (procps)"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
mt= reader=
trap '[ -n "$mt" ] && kill "$mt" 2>/dev/null; [ -n "$reader" ] && kill "$reader" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
page_kb=$(($(getconf PAGESIZE) / 1024))

# measured: memtop's caches against /proc/slabinfo read over the time memtop read it:
# the test reads it every 50 ms from before memtop starts until after its first line, and
# each of memtop's figures must lie within what those reads saw of its cache (a cache
# that churns, as maple_node and vm_area_struct do while other tests start and stop
# processes, moves by hundreds of objects in the time a refresh takes), with a tolerance
# for what moved between two reads. Where a cache came or went meanwhile the measure is
# taken again (5 times at most).
# memtop's own open files (the /proc files it keeps open between refreshes, more on a
# machine with more processes) hold filp, seq_file and kmalloc objects: the reads go on
# while it still runs, after its first line
measured() {
	: >"$tmp/reads"
	rm -f "$tmp/stop"
	(while [ ! -e "$tmp/stop" ]; do
		awk -v pk="$page_kb" 'NR > 2 { print $1, $2, $3, $4, $15 * $6 * pk }' /proc/slabinfo
		sleep 0.05
	done >>"$tmp/reads") &
	reader=$!
	"$MEMTOP" --slab --json -d 1 --no-bpf >"$tmp/json" &
	mt=$!
	_line() { [ -s "$tmp/json" ] && [ "$(tail -c 1 "$tmp/json" | od -An -c | tr -d ' ')" = '\n' ]; }
	eventually $HANG _line || fail "memtop printed no line"
	sleep 0.1
	touch "$tmp/stop"
	wait "$reader" 2>/dev/null
	reader=
	cat /proc/slabinfo >"$tmp/slabinfo"
	slabtop -o -s c >"$tmp/slabtop"
	kill "$mt"
	wait "$mt" 2>/dev/null
	mt=
	head -n 1 "$tmp/json" >"$tmp/json1" && mv "$tmp/json1" "$tmp/json"
	jq -r '.slabs[] | "\(.name) \(.active_objs) \(.num_objs) \(.objsize_bytes) \(.size_kb)"' \
		"$tmp/json" >"$tmp/memtop" || fail "no slabs[]: $(head -c 300 "$tmp/json")"
	awk -v pk="$page_kb" 'NR > 2 { print $1, $2, $3, $4, $15 * $6 * pk }' "$tmp/slabinfo" \
		>"$tmp/kernel"
	[ "$(wc -l <"$tmp/memtop")" = "$(wc -l <"$tmp/kernel")" ] ||
		{ echo "$(wc -l <"$tmp/memtop") caches, /proc/slabinfo has $(wc -l <"$tmp/kernel")" >"$tmp/why"; return 1; }
	# each cache against the reads': objects within what they saw, 5 % or 500 either side;
	# size likewise, 5 % or 1 MiB
	awk 'NR == FNR {
			for (i = 2; i <= 5; i++) {
				if (!(($1, i) in lo) || $i < lo[$1, i]) lo[$1, i] = $i
				if (!(($1, i) in hi) || $i > hi[$1, i]) hi[$1, i] = $i
			}
			size[$1] = $4
			next
		}
		function off(v, c, slack) {
			s = hi[$1, c] / 20
			if (s < slack) s = slack
			return v < lo[$1, c] - s || v > hi[$1, c] + s
		}
		function seen(c) { return lo[$1, c] "-" hi[$1, c] }
		{ if (!(($1, 2) in lo)) { print "no cache " $1 " in slabinfo"; bad = 1; next }
		  if ($4 != size[$1]) { print $1 ": objsize " $4 ", slabinfo " size[$1]; bad = 1 }
		  if (off($2, 2, 500) || off($3, 3, 500)) { print $1 ": objects " $2 "/" $3 ", slabinfo " seen(2) "/" seen(3); bad = 1 }
		  if (off($5, 5, 1024)) { print $1 ": size " $5 "K, slabinfo " seen(5) "K"; bad = 1 } }
		END { exit bad }' "$tmp/reads" "$tmp/memtop" >"$tmp/why" || return 1
}
tries 5 measured || fail "5 times: $(cat "$tmp/why")"
[ $tries = 1 ] || echo "(measured $tries times: $(head -n 3 "$tmp/why" | tr '\n' ' '))"
# the order: of the ten largest in memtop's, each pair more than 10 % apart, as slabtop has
# it where slabtop's own sizes are as far apart (read a moment later, a busy cache moves)
awk '/^ *OBJS / { t = 1; next } t && NF { sub(/K$/, "", $7); print $8, $7 }' "$tmp/slabtop" \
	>"$tmp/slabtop.order"
head -n 10 "$tmp/memtop" | awk 'NR == FNR { top[$1] = $2; next }
	{ name[FNR] = $1; size[FNR] = $5; n = FNR }
	END { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (size[i] > size[j] * 1.1 && (name[i] in top) && (name[j] in top) && top[name[j]] > top[name[i]] * 1.1) {
			print name[i] " (" size[i] "K) before " name[j] " (" size[j] "K), slabtop the other way (" top[name[i]] "K, " top[name[j]] "K)"; bad = 1 }
		exit bad }' "$tmp/slabtop.order" - >"$tmp/order" || fail "$(cat "$tmp/order")"
echo "slabs: $(wc -l <"$tmp/memtop") caches as /proc/slabinfo; largest: $(head -n 3 "$tmp/memtop" | cut -d' ' -f1,5 | tr '\n' ' ')"

# batch text: a table with every cache, largest first
"$MEMTOP" --slab -b -n 1 --no-bpf >"$tmp/batch" || fail "memtop -b exited $?"
grep -qE '^NAME +ACTIVE +OBJS +OBJSIZE +SIZE +GROW/min +GROW10 RECLAIM$' "$tmp/batch" ||
	fail "no slab table's titles in -b: $(tail -n 5 "$tmp/batch")"
n=$(awk '/^NAME +ACTIVE/ { t = 1; next } t && NF { n++ } t && !NF { exit } END { print n + 0 }' "$tmp/batch")
[ "$n" = "$(wc -l <"$tmp/kernel")" ] || fail "-b lists $n caches, slabinfo $(wc -l <"$tmp/kernel")"
grep -qE '^dentry +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+[KMG] +[-+0-9.KMG]+ +[-+0-9.KMG]+ +yes$' "$tmp/batch" ||
	fail "no dentry row, reclaimable: $(grep '^dentry ' "$tmp/batch")"

# as nobody: the line saying why, in batch text and in JSON
command -v setpriv >/dev/null || skip "needs setpriv"
dir=$tmp/nobody
mkdir "$dir" && cp "$MEMTOP" "$dir/memtop" && chmod 755 "$tmp" "$dir" "$dir/memtop"
# a sanitized build's reports to stderr: nobody cannot write the test's log directory
nobody="env ${ASAN_OPTIONS:+ASAN_OPTIONS=log_path=stderr:detect_leaks=1} ${UBSAN_OPTIONS:+UBSAN_OPTIONS=log_path=stderr:halt_on_error=1}"
nobody="$nobody setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all"
why="slab: /proc/slabinfo: Permission denied (needs root)"
out=$($nobody "$dir/memtop" \
	--slab -b -n 1 --no-bpf) || fail "as nobody: memtop exited $?"
printf '%s\n' "$out" | grep -qxF "$why" || fail "as nobody, -b does not say '$why'"
out=$($nobody "$dir/memtop" \
	--slab --json -n 1 --no-bpf) || fail "as nobody: memtop --json exited $?"
[ "$(printf '%s' "$out" | jq -r '.slabs, .slabs_error')" = "null
$why" ] || fail "as nobody, JSON: $(printf '%s' "$out" | jq -c '{slabs, slabs_error}')"
echo "as nobody: $why"
