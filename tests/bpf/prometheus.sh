#!/bin/sh
# A real Prometheus, on a loopback port with a config and data of its own, scrapes
# memtop --serve -d 1 every second: its API gives a child's resident bytes as statm does,
# and the OOM kill of a child in a 64 MiB memory cgroup as memtop_oom_kills_total.
. "$(dirname "$0")/lib.inc"
need_bpf
for t in prometheus curl ss; do
	command -v $t >/dev/null || skip "$t not installed (Debian packages prometheus, curl, iproute2)"
done
tmp=$WORK

mport=$(free_port 3)
"$MEMTOP" --serve "127.0.0.1:$mport" -d 1 2>"$WORK/err" &
MTPID=$!
# what Prometheus is to see, set going while it starts: a child that faults 2000 pages a
# second (its count from here on), and the OOM kill of one in a 64 MiB memory cgroup
faults=2000
start_child 64 $faults
KIDS="$KIDS $child"
ready=$(date +%s.%N)
minflt() { awk '{ print $10 }' /proc/$child/stat; }
f0=$(minflt) t0=$(date +%s.%N)
name=memtop-prom-$$
memcg "$name" $((64 << 20))
in_memcg "$HOG" 200
pport=$(free_port 3 "$mport")
cat >"$WORK/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: memtop
    static_configs:
      - targets: ['127.0.0.1:$mport']
EOF
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/data" \
	--web.listen-address="127.0.0.1:$pport" >"$WORK/prometheus.log" 2>&1 &
KIDS="$KIDS $!"
api=http://127.0.0.1:$pport/api/v1
i=0
until curl -sf -o /dev/null "http://127.0.0.1:$pport/-/ready"; do
	i=$((i + 1))
	[ $i -le 300 ] || fail "Prometheus never got ready: $(tail -5 "$WORK/prometheus.log")"
	sleep 0.1
done

# query EXPR [SECS]: waits (30 s at most) until EXPR has a value; prints the first
query() {
	_i=0
	while :; do
		_v=$(curl -s --data-urlencode "query=$1" "$api/query" |
			jq -r '.data.result[0].value[1] // empty')
		[ -n "$_v" ] && break
		_i=$((_i + 1))
		[ $_i -le $((${2:-30} * 5)) ] || return 1
		sleep 0.2
	done
	echo "$_v"
}

up=$(query 'up{job="memtop"}') || fail "Prometheus never scraped memtop"
[ "$up" = 1 ] || fail "up is $up: $(curl -s "$api/targets" | jq -c '.data.activeTargets[0].lastError')"

# the child's resident bytes, once Prometheus's last scrape is 2.5 s after it was ready
# (memtop refreshed since, and was scraped): statm's, but for the scratch pages its fault
# loop touches and drops a hundred times a second (2000 / 100: 20 pages), which may or may
# not be resident at either reading
page=$(getconf PAGESIZE)
scraped_after() { # scraped_after EXPR T: EXPR's last sample is T or later
	_v=$(query "timestamp($1)" 1) && awk -v a="$_v" -v b="$2" 'BEGIN { exit !(a >= b) }'
}
eventually $HANG scraped_after "memtop_process_resident_bytes{pid=\"$child\"}" \
	"$(awk -v r="$ready" 'BEGIN { printf "%.3f", r + 2.5 }')" ||
	fail "Prometheus scraped no resident bytes of pid $child 2.5 s after it was ready"
rss=$(cut -d' ' -f2 /proc/$child/statm)
got=$(query "memtop_process_resident_bytes{pid=\"$child\"}") ||
	fail "no memtop_process_resident_bytes for pid $child"
scratch=$((faults / 100)) # alloc_child faults in 100 rounds a second
awk -v g="$got" -v r="$rss" -v p="$page" -v k="$scratch" 'BEGIN { d = g - r * p; exit !(d % p == 0 && d >= -k * p && d <= k * p) }' ||
	fail "Prometheus has $got resident bytes, statm $rss pages of $page (give or take $scratch)"
echo "ok resident $got bytes of pid $child, as statm ($rss pages, give or take its $scratch scratch pages)"
# its minor faults: Prometheus's rate over 5 s, once it holds 5 s of samples (all after
# t0), near what /proc/PID/stat counted from t0
five_s() {
	_n=$(query "count_over_time(memtop_process_minor_faults_total{pid=\"$child\"}[5s])" 1) &&
		[ "$_n" -ge 5 ]
}
eventually $HANG five_s || fail "Prometheus never held 5 s of pid $child's minor faults"
f1=$(minflt) t1=$(date +%s.%N)
r=$(query "rate(memtop_process_minor_faults_total{pid=\"$child\"}[5s])") ||
	fail "no rate of memtop_process_minor_faults_total for pid $child"
awk -v r="$r" -v f0="$f0" -v f1="$f1" -v t0="$t0" -v t1="$t1" 'BEGIN {
	p = (f1 - f0) / (t1 - t0)
	printf "ok rate(minor faults) %.0f/s in Prometheus, %.0f/s in /proc/PID/stat\n", r, p
	exit !(r > 0.7 * p && r < 1.3 * p)
}' || fail "Prometheus's fault rate $r is not within 30 % of /proc's"

# the OOM kill in the memory cgroup, counted by victim and cgroup
wait "$KID" 2>/dev/null
rc=$?
[ $rc = 137 ] || fail "the child should have been OOM-killed (exit 137), exited $rc"
kills=$(query "memtop_oom_kills_total{comm=\"bpf_hog\",cgroup=\"/$name\"}") ||
	fail "no memtop_oom_kills_total for bpf_hog in /$name: $(curl -s --data-urlencode 'query=memtop_oom_kills_total' "$api/query")"
[ "$kills" = 1 ] || fail "memtop_oom_kills_total is $kills, not 1"
info=$(query "memtop_last_oom_kill_info{pid=\"$KID\",comm=\"bpf_hog\",cgroup=\"/$name\"}") ||
	fail "memtop_last_oom_kill_info does not name pid $KID"
echo "ok OOM kill of pid $KID counted: $kills, last kill info $info"
# the child's cgroup reclaimed before the kill: the memcg histogram counted it, its +Inf
# bucket equal to its count
n=$(query 'memtop_reclaim_duration_seconds_count{kind="memcg"} > 0' 10) ||
	fail "no memcg reclaim in Prometheus's histogram after the OOM kill"
inf=$(query 'memtop_reclaim_duration_seconds_bucket{kind="memcg",le="+Inf"}' 5) ||
	fail "no +Inf bucket"
[ "$inf" = "$n" ] || fail "+Inf bucket $inf, count $n"
echo "ok memcg reclaim histogram: $n stalls"
query 'memtop_vm_pgfault_total' 5 >/dev/null || fail "no memtop_vm_pgfault_total"
err=$(curl -s "$api/targets" | jq -r '.data.activeTargets[0].lastError')
[ -z "$err" ] || fail "the last scrape failed: $err"
echo "ok histograms and counters scraped"
