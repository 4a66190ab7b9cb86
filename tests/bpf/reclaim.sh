#!/bin/sh
# Reclaim figures against the kernel's own trace of the same tracepoints. A reader in a
# 32 MiB memory cgroup streams a 128 MiB file through the page cache, so the cgroup
# reclaims again and again, in the reader's context. A tracefs instance records the
# reclaim tracepoints from before memtop starts until after it stops. Summed over
# memtop's refreshes, its histograms (count, total time, log2 buckets) for direct and
# memcg reclaim and shrink_slab, its pages reclaimed and kswapd wakeups equal that
# record, and the reader's reclaim stall time equals the sum of its reclaim durations.
# The screen's reclaim pane, open in tmux all along, shows the same since start.
. "$(dirname "$0")/lib.inc"
need_bpf reclaim

stream_file
memcg memtop-reclaim-$$ $((32 << 20))
mkfifo "$WORK/go"

trace_start vmscan/mm_vmscan_memcg_reclaim_begin vmscan/mm_vmscan_memcg_reclaim_end \
	vmscan/mm_vmscan_direct_reclaim_begin vmscan/mm_vmscan_direct_reclaim_end \
	vmscan/mm_shrink_slab_start vmscan/mm_shrink_slab_end vmscan/mm_vmscan_kswapd_wake
mt_start -n 200 -d 0.5
tm_start 120 60 "$MEMTOP -d 0.5"
wait_for "Tasks " || fail "memtop's screen did not start"
tm send-keys r
wait_for "Memcg " || fail "r opened no reclaim pane"
mt_wait_lines 1
# the reader waits on the fifo, then becomes tail (same pid): memtop sees it before it
# reclaims, so each of its refreshes shows a difference of the reader's stall time
in_memcg sh -c 'read go <"$0" && exec tail -c +1 -f "$1" >/dev/null' "$WORK/go" "$FILE"
reader=$KID
mt_wait_lines $(($(mt_lines) + 2))
jq -e --argjson p "$reader" 'any(.processes[]; .pid == $p)' "$OUT" >/dev/null ||
	fail "the reader ($reader) is not in memtop's output"
echo go >"$WORK/go"
size=$(stat -c %s "$FILE") i=0
until [ "$(awk '$1 == "rchar:" { print $2 }' "/proc/$reader/io")" -ge "$size" ]; do
	[ $i -lt 300 ] || fail "the reader read $(awk '$1 == "rchar:" { print $2 }' "/proc/$reader/io") of $size bytes in 30s"
	sleep 0.1
	i=$((i + 1))
done
mt_wait_lines $(($(mt_lines) + 2))
# a refresh after the last reclaim: the pane's interval shows none
wait_for "Memcg        interval: 0 in 0us" || fail "the reclaim pane did not refresh"
mt_stop
screen_text >"$WORK/screen"
tm_kill
trace_stop

# the trace, per kind: count, pages, total us, durations; and the reader's stall time
awk -v reader="$reader" '
	{
		for (i = 1; i <= NF; i++)
			if ($i ~ /^\[[0-9]+\]$/)
				break
		if (i > NF)
			next
		pid = $(i - 1)
		sub(/.*-/, "", pid)
		for (; i <= NF && $i !~ /^[0-9]+\.[0-9]+:$/; i++)
			;
		ts = substr($i, 1, length($i) - 1)
		ev = $(i + 1)
		sub(/:$/, "", ev)
		kind = ""
		if (ev ~ /^mm_vmscan_direct_reclaim_/)
			kind = "direct"
		else if (ev ~ /^mm_vmscan_memcg_reclaim_/)
			kind = "memcg"
		else if (ev ~ /^mm_shrink_slab_/)
			kind = "shrink_slab"
		else if (ev == "mm_vmscan_kswapd_wake")
			wakeups++
		if (kind == "")
			next
		if (ev ~ /_(begin|start)$/) {
			start[kind, pid] = ts
			next
		}
		if (!((kind, pid) in start))
			next
		us = int((ts - start[kind, pid]) * 1e6 + 0.5)
		delete start[kind, pid]
		print kind, us
		if (kind != "shrink_slab") {
			n = $NF
			sub(/^nr_reclaimed=/, "", n)
			pages += n
			if (pid == reader)
				stall += us
		}
	}
	END {
		print "pages", pages + 0
		print "wakeups", wakeups + 0
		print "stall", stall + 0
	}' "$WORK/trace" >"$WORK/traced"
memcg_n=$(grep -c '^memcg ' "$WORK/traced")
[ "$memcg_n" -ge 5 ] || fail "the reader caused only $memcg_n memcg reclaims (trace); no test"

# check_hist WHO KIND COUNT TOTAL_US BUCKETS: memtop's histogram (BUCKETS: "lo count"
# lines) against the traced durations of KIND
check_hist() {
	# each traced duration is within a few us of the one memtop measured: the same
	# tracepoints, time stamps to the microsecond, taken a moment apart; an interrupt
	# (a disk's completion while the reader streams) or the hypervisor between the
	# trace's stamp and memtop's may stretch one by tens of us; the programs run between
	# the stamps take STAMP_SLACK_US (lib.sh) a reclaim
	awk -v who="$1" -v k="$2" -v got="$3" -v got_us="$4" -v slack="$STAMP_SLACK_US" '
		$1 == k { n++; sum += $2 }
		END {
			if (n != got) { printf "%s %s: %d counted, the trace %d\n", who, k, got, n; exit 1 }
			tol = slack * n + sum / 20 + 200
			if (got_us < sum - tol || got_us > sum + tol) {
				printf "%s %s: %d us in all over %d, the trace %d us\n", who, k, got_us, n, sum; exit 1
			}
			printf "%s %s: %d, %d us (trace %d us)\n", who, k, n, got_us, sum
		}' "$WORK/traced" || fail "$1's $2 count or time differs from the trace"
	# a log2 bucket holds durations lo..2*lo-1 (the first 0..1); a traced duration near a
	# bound may fall either side of it, and one in ten (at least two) may be elsewhere,
	# stretched as above (a wrong unit or slot would move nearly all of them)
	awk -v who="$1" -v k="$2" -v slack="$STAMP_SLACK_US" '
		function slot(u) { s = 0; while (u >= 2) { u = int(u / 2); s++ } return s }
		FILENAME == ARGV[1] { got[slot($1)] += $2; next }
		$1 == k {
			n++
			lo = slot($2 > slack ? $2 - slack : 0); hi = slot($2 + slack)
			for (s = lo; s <= hi; s++) maybe[s]++
			if (lo == hi) sure[lo]++
		}
		END {
			for (s = 0; s < 40; s++) {
				if (got[s] + 0 < sure[s] + 0) off += sure[s] - got[s]
				if (got[s] + 0 > maybe[s] + 0) off += got[s] - maybe[s]
				line = line sprintf(" %d:%d/%d-%d", s, got[s], sure[s], maybe[s])
			}
			if (off > 2 * (n < 20 ? 2 : int(n / 10))) {
				printf "%s %s buckets, memtop/trace:%s\n", who, k, line; exit 1
			}
		}' "$5" "$WORK/traced" || fail "$1's $2 histogram differs from the trace"
}

# the JSON: each refresh's histograms, summed
for kind in direct memcg shrink_slab; do
	jq -e -s --arg k "$kind" 'all(.[]; .reclaim[$k].count >= 0)' "$OUT" >/dev/null ||
		fail "no $kind histogram in the JSON"
	jq -r -s --arg k "$kind" '[.[].reclaim[$k].buckets[]] | group_by(.lo_us)[] |
		"\(.[0].lo_us) \(map(.count) | add)"' "$OUT" >"$WORK/buckets"
	check_hist JSON "$kind" "$(jq -s --arg k "$kind" '[.[].reclaim[$k].count] | add' "$OUT")" \
		"$(jq -s --arg k "$kind" '[.[].reclaim[$k].total_us] | add' "$OUT")" "$WORK/buckets"
done

# the screen: each histogram's "since start" line and column; times as 123us, 45.6ms, 7.8s
for kind in direct memcg shrink_slab; do
	case $kind in direct) title=Direct ;; memcg) title=Memcg ;; *) title="Shrink slab" ;; esac
	awk -v t="$title" '
		/^[A-Z]/ { on = index($0, t " ") == 1 }
		on && / since start: / {
			sub(/.* since start: /, "")
			v = $3; u = v; sub(/[a-z]+$/, "", v); sub(/^[0-9.]+/, "", u)
			print $1, int(v * (u == "s" ? 1e6 : u == "ms" ? 1e3 : 1) + 0.5) >"/dev/stderr"
		}
		on && / -> / { print $1, $5 }' "$WORK/screen" >"$WORK/buckets" 2>"$WORK/summary"
	[ -s "$WORK/summary" ] || fail "the reclaim pane shows no $title line: $(cat "$WORK/screen")"
	read -r n us <"$WORK/summary"
	check_hist screen "$kind" "$n" "$us" "$WORK/buckets"
done
pages=$(sed -n 's/.*pages reclaimed [0-9]* (\([0-9]*\)).*/\1/p' "$WORK/screen")
traced=$(awk '$1 == "pages" { print $2 }' "$WORK/traced")
[ "$pages" = "$traced" ] || fail "the screen shows $pages pages reclaimed since start, the trace $traced"

pages=$(jq -s '[.[].reclaim.nr_reclaimed] | add' "$OUT")
traced=$(awk '$1 == "pages" { print $2 }' "$WORK/traced")
[ "$pages" = "$traced" ] || fail "memtop reclaimed $pages pages, the trace $traced"
echo "pages reclaimed: $pages"
wakeups=$(jq -s '[.[].reclaim.kswapd_wakeups] | add' "$OUT")
traced=$(awk '$1 == "wakeups" { print $2 }' "$WORK/traced")
[ "$wakeups" = "$traced" ] || fail "memtop counted $wakeups kswapd wakeups, the trace $traced"

# the reader's stall: rate times interval, summed, within rounding of the traced sum
got=$(jq -s --argjson p "$reader" '[.[] | .interval_s as $dt |
	.processes[] | select(.pid == $p) | .reclaim_stall_us_per_s * $dt] | add' "$OUT")
awk -v got="$got" -v n="$memcg_n" -v lines="$(wc -l <"$OUT")" -v slack="$STAMP_SLACK_US" '
	$1 == "stall" {
		tol = slack * n + $2 / 100 + 0.05 * lines
		if (got < $2 - tol || got > $2 + tol) {
			printf "reader: memtop %.0f us stalled, the trace %d us\n", got, $2; exit 1
		}
		printf "reader stalled %.0f us in reclaim (trace %d us)\n", got, $2
	}' "$WORK/traced" || fail "the reader's stall time differs from the trace"
